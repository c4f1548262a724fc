"""fio terse (``--minimal``) version 3: ``;``-separated, latencies in microseconds, bandwidth in KiB/s."""

from __future__ import annotations

import re

from iosched.measure.parsers.common import KIB, Parsed, number
from iosched.measure.parsers.fio_common import Job, Side, emit

_LINE = re.compile(r"^([2-5]);fio-[^;]*;", re.MULTILINE)
# 0-based offsets of the READ and WRITE blocks (fields 6 and 47 in fio's HOWTO numbering).
_BLOCKS = {"read": 5, "write": 46}
_FIELDS = 130 - 9  # v3 without the per-disk block


def looks_like(text: str) -> bool:
    return bool(_LINE.search(text))


def parse(text: str) -> Parsed:
    parsed = Parsed()
    jobs = []
    for line in text.splitlines():
        match = _LINE.match(line.strip())
        if not match:
            continue
        if match.group(1) != "3":
            parsed.notes.append(f"terse version {match.group(1)} is not read; rerun fio with --terse-version=3")
            continue
        fields = line.strip().split(";")
        if len(fields) < _FIELDS:
            parsed.notes.append("a truncated terse line was skipped")
            continue
        sides = {}
        for direction, base in _BLOCKS.items():
            if side := _side(fields, base):
                sides[direction] = side
        group = number(fields[3])
        if sides:
            jobs.append(Job(fields[2], int(group) if group is not None else 0, sides))
    emit(jobs, parsed)
    return parsed


def _side(fields: list[str], base: int) -> Side | None:
    bw, iops, runtime = number(fields[base + 1]), number(fields[base + 2]), number(fields[base + 3])
    if not iops or bw is None:  # no I/O in this direction (NaN and negative values go on, to be noted)
        return None
    ios = iops * (runtime or 0.0) / 1000.0
    mean = number(fields[base + 10])
    p99 = None
    for item in fields[base + 12 : base + 32]:
        key, _, value = item.partition("%=")
        if number(key) == 99.0:
            p99 = number(value)
    return Side(ios=ios, iops=iops, bw_bytes=bw * KIB, clat_mean_us=mean or None, clat_p99_us=p99 or None)
