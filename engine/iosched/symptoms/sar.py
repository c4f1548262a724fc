"""``sar -d`` text and ``sadf -d`` (semicolon-separated) output.

sysstat up to 11.x prints ``DEV tps rd_sec/s wr_sec/s avgrq-sz avgqu-sz await svctm %util`` (activity.c,
v11.4.0); 12.x ``DEV tps rkB/s wkB/s dkB/s areq-sz aqu-sz await %util`` (no svctm from 12.1.2), and newer
releases print ``DEV`` last. ``sadf -d`` starts with ``# hostname;interval;timestamp;DEV;...``.
"""

from __future__ import annotations

import re

from iosched.symptoms.clock import LATEST, of_day, timestamp
from iosched.symptoms.iostat import COLUMNS, NAME
from iosched.symptoms.numbers import ReadError, number, separator
from iosched.symptoms.series import Collector, Reading, Sample, empty

_TIME = r"\d{2}:\d{2}:\d{2}(?: ?[AP]M)?"
_ROW = re.compile(rf"^({_TIME})\s+(.*)$")
_DATE = re.compile(r"\s(\d{2}/\d{2}/\d{2,4}|\d{4}-\d{2}-\d{2})\s")
SADF_HEADER = re.compile(r"^# hostname;interval;timestamp;DEV;")


_DISK_HEADER = re.compile(rf"^{_TIME}\s+(?=.*\bDEV\b)(?=.*\btps\b)", re.MULTILINE)


def looks_like_sar(text: str) -> bool:
    return _DISK_HEADER.search(text) is not None


def looks_like_sadf(text: str) -> bool:
    return re.search(r"^# hostname;interval;timestamp;DEV;", text, re.MULTILINE) is not None


def read_sar(text: str, source: str) -> Reading:
    """Every interval line of ``sar -d`` (alone, or the disk section of ``sar -A``); ``Average:`` lines are
    left out, and so is a line cut short."""
    base = 0.0
    for line in text.splitlines()[:5]:
        if line.startswith("Linux") and (m := _DATE.search(line)):
            base = timestamp(f"{m[1]} 00:00:00") or 0.0
    header: list[str] | None = None
    disk_header: list[str] | None = None
    found = Collector(source)
    missing: list[str] = []
    day, last = 0.0, -1.0
    rows: list[tuple[int, float, list[str]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        m = _ROW.match(line)
        if not m:
            if not line.strip():  # sar -A: a blank line ends one activity's section
                header = None
            continue
        cells = m[2].split()
        if "DEV" in cells and "tps" in cells:
            header = disk_header = cells
            continue
        if header is None:
            continue
        seconds = of_day(m[1])
        if seconds is None:
            continue
        if seconds < last:
            day += 86400
        last = seconds
        if base + day + seconds >= LATEST:
            missing.append(f"{source}: line {n}: its date, counted on from the report's, is after the year 2999; "
                           "it and the lines after it are left out")  # fmt: skip
            break
        rows.append((n, base + day + seconds, cells))
    if disk_header is None:
        return empty(source, "sar -d", "no sar -d header (DEV ... tps ...)")
    header = disk_header
    metrics = [(i, *COLUMNS[c]) for i, c in enumerate(header) if c in COLUMNS]
    at = header.index("DEV")
    try:
        sep = separator([c for _, _, cells in rows for i, c in enumerate(cells) if i != at])
    except ReadError as exc:
        return empty(source, "sar -d", str(exc))
    for n, t, cells in rows:
        if len(cells) != len(header):
            missing.append(f"{source}: line {n} has {len(cells)} fields where the header has {len(header)}; left out")
            continue
        try:
            found.device(_name(cells[at]), Sample(t, {m: number(cells[i], sep, f) for i, m, f in metrics}))
        except ReadError as exc:
            missing.append(f"{source}: line {n}: {exc}; left out")
    if not found.devices:
        return Reading(source, "sar -d", {}, [], [*missing, *found.missing, f"{source}: no complete sar -d line"])
    return found.reading("sar -d", missing, base != 0.0)


def read_sadf(text: str, source: str) -> Reading:
    """``sadf -d FILE -- -d``: one line per device and interval, ``;``-separated (so decimal commas are safe)."""
    header: list[str] | None = None
    found = Collector(source)
    missing: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        if SADF_HEADER.match(line):
            header = line[2:].split(";")
            continue
        if line.startswith("#"):  # another activity's section: its lines are not disk lines
            header = None
            continue
        if header is None or not line.strip() or line.startswith("#"):
            continue
        cells = line.split(";")
        if len(cells) != len(header):
            missing.append(f"{source}: line {n} has {len(cells)} fields where the header has {len(header)}; left out")
            continue
        row = dict(zip(header, cells, strict=True))
        t = timestamp(row["timestamp"])
        if t is None:
            missing.append(f"{source}: line {n}: {row['timestamp'][:40]!r} is not a time; left out")
            continue
        try:
            values = {COLUMNS[k][0]: number(v, "," if "," in v else ".", COLUMNS[k][1])
                      for k, v in row.items() if k in COLUMNS}  # fmt: skip
            found.device(_name(row["DEV"]), Sample(t, values))
        except ReadError as exc:
            missing.append(f"{source}: line {n}: {exc}; left out")
    if not found.devices:
        return Reading(source, "sadf -d", {}, [], [*missing, *found.missing, f"{source}: no complete sadf -d line"])
    return found.reading("sadf -d", missing)


def _name(cell: str) -> str:
    if not NAME.fullmatch(cell):
        raise ReadError(f"{cell[:40]!r} is not a device name")
    return cell
