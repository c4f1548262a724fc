"""sysbench fileio reports: 0.4/0.5 (``Operations performed``, ``Requests/sec executed``), 1.0
(``File operations``/``Throughput`` blocks) and 1.1 (``read: IOPS=...``). 0.4/0.5 "Mb" are MiB."""

from __future__ import annotations

import re

from iosched.measure.parsers.common import Parsed, number, slug
from iosched.measure.schedulers import at, switches

_BANNER = re.compile(r"^sysbench \d", re.MULTILINE)
_MODE = re.compile(r"^Doing (.+?) test", re.MULTILINE)
_MODES = {"random r/w": "rndrw", "random read": "rndrd", "random write": "rndwr", "sequential read": "seqrd",
          "sequential write (creation)": "seqwr", "sequential rewrite": "seqrewr"}  # fmt: skip
_PATTERNS = (
    # (regex, metric, unit, direction)
    (r"^reads/s:\s+([\d.]+)", "read_iops", "IOPS", "higher"),
    (r"^writes/s:\s+([\d.]+)", "write_iops", "IOPS", "higher"),
    (r"^fsyncs/s:\s+([\d.]+)", "fsync_iops", "IOPS", "higher"),
    (r"^read, MiB/s:\s+([\d.]+)", "read_bw", "MiB/s", "higher"),
    (r"^written, MiB/s:\s+([\d.]+)", "write_bw", "MiB/s", "higher"),
    (r"^read:\s+IOPS=([\d.]+)", "read_iops", "IOPS", "higher"),
    (r"^write:\s+IOPS=([\d.]+)", "write_iops", "IOPS", "higher"),
    (r"^fsync:\s+IOPS=([\d.]+)", "fsync_iops", "IOPS", "higher"),
    (r"^read:\s+IOPS=[\d.]+\s+([\d.]+) MiB/s", "read_bw", "MiB/s", "higher"),
    (r"^write:\s+IOPS=[\d.]+\s+([\d.]+) MiB/s", "write_bw", "MiB/s", "higher"),
    (r"Total transferred [\d.]+\w*\s+\(([\d.]+)Mb/sec\)", "bw", "MiB/s", "higher"),
    (r"^([\d.]+) Requests/sec executed", "requests", "IOPS", "higher"),
    (r"^avg:\s+([\d.]+)(?:ms)?\s*$", "latency_avg", "ms", "lower"),
    (r"^(?:95th percentile|approx\.\s+95 percentile):\s+([\d.]+)(?:ms)?\s*$", "latency_p95", "ms", "lower"),
)
_COMPILED = tuple((re.compile(p, re.MULTILINE), m, u, d) for p, m, u, d in _PATTERNS)


def looks_like(text: str) -> bool:
    return "sysbench" in text and bool(re.search(r"File operations:|Operations performed:|Requests/sec executed", text))


def parse(text: str) -> Parsed:
    parsed = Parsed()
    text = re.sub(r"(?m)^[>\s]+", "", text)  # quoted mail and indented transcripts
    marks = switches(text)
    starts = [m.start() for m in _BANNER.finditer(text)] or [0]
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        block = text[start:end]
        mode = _MODE.search(block)
        if not mode:
            continue
        test = "fileio-" + _MODES.get(mode.group(1).strip(), slug(mode.group(1)))
        scheduler = at(start, marks) or ""
        for pattern, metric, unit, direction in _COMPILED:
            if (match := pattern.search(block)) and (value := number(match.group(1))) is not None:
                parsed.add(test, metric, value, unit, direction, scheduler=scheduler)  # type: ignore[arg-type]
    return parsed
