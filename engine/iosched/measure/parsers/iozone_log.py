"""The tab-delimited log of the widely copied ``iozone-scheduler`` script, with its defects repaired.

The script (seed 001) writes ``Test, Throughput (KB/s), I/O Scheduler, Threads, n`` rows. Known defects:

* its "Rewrite" rows print the Random write variable, so they repeat the Random write figure:
  they are dropped (the real rewrite figure is not in the log);
* it splits the result file name on ``-``, so ``sda-mq-deadline-t1-i2.txt`` yields scheduler ``mq``,
  threads ``deadline`` and, in the ``n`` column, the thread count instead of the iteration: such
  rows are repaired to ``mq-deadline`` and their round is recovered from the order of the rows
  (the script reads the files in name order, so iterations come in order for each thread count);
* with ``-l 1 -u T`` it keeps the first (1-process) figure, so Threads > 1 rows are not T-thread
  results: they are dropped.
"""

from __future__ import annotations

import re

from iosched.measure.parsers.common import KIB, Parsed, number
from iosched.measure.schedulers import valid_name

_HEADER = re.compile(r"^\s*Test\s+Throughput \(KB/s\)\s+I/O Scheduler\s+Threads\s+n\s*$", re.MULTILINE)
_ROW = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s+([\d.]+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$")


def looks_like(text: str) -> bool:
    return bool(_HEADER.search(text))


def parse(text: str) -> Parsed:
    parsed = Parsed()
    header = _HEADER.search(text)
    if not header:
        return parsed
    rewrites = repaired = multi = skipped = 0
    seen: dict[tuple[str, str, int], int] = {}
    for line in text[header.end() :].splitlines():
        if not line.strip():
            continue
        fields = line.split("\t") if line.count("\t") == 4 else None
        match = None if fields else _ROW.match(line)
        if fields is None and match is None:
            break
        parts = fields if fields is not None else match.groups() if match is not None else ()
        test, value_text, scheduler, threads, n = (f.strip() for f in parts)
        value = number(value_text)
        if scheduler == "mq" and threads == "deadline":
            scheduler, threads, n = "mq-deadline", n, ""
            repaired += 1
        if value is None or not valid_name(scheduler) or not threads.isdigit():
            skipped += 1
            continue
        if test == "Rewrite":
            rewrites += 1
            continue
        if int(threads) > 1:
            multi += 1
            continue
        if n.isdigit():
            round_ = int(n)
        else:
            key = (scheduler, test, int(threads))
            seen[key] = round_ = seen.get(key, 0) + 1
        parsed.add(test, "bw", value / KIB, "MiB/s", "higher", scheduler=scheduler, round=round_)
    if rewrites:
        parsed.notes.append(
            f"iozone-scheduler log: {rewrites} 'Rewrite' row(s) dropped: "
            "the script prints the Random write figure there"
        )
    if repaired:
        parsed.notes.append(
            f"iozone-scheduler log: {repaired} row(s) of 'mq'/'deadline' repaired to mq-deadline; "
            "rounds taken from row order"
        )
    if multi:
        parsed.notes.append(
            f"iozone-scheduler log: {multi} row(s) with Threads > 1 dropped: they hold the 1-process figure"
        )
    if skipped:
        parsed.notes.append(f"iozone-scheduler log: {skipped} row(s) skipped: shifted columns from the file name split")
    return parsed
