"""``iostat -x`` as text (every sysstat layout, with or without ``-t``) and as ``-o JSON``.

Column names across versions (sysstat sources, iostat.c): up to 11.4 ``rrqm/s wrqm/s r/s w/s rkB/s wkB/s
avgrq-sz avgqu-sz await r_await w_await svctm %util`` under ``Device:``; from 11.5.7 ``aqu-sz``, ``rareq-sz``,
``wareq-sz``; from 12.1.2 without ``svctm``; 12.x adds discard and flush columns. ``-s``/compact reports give
``await``, ``aqu-sz``, ``areq-sz`` and ``%util`` only.
"""

from __future__ import annotations

import json
import re
from typing import Any

from iosched.symptoms.clock import timestamp
from iosched.symptoms.numbers import ReadError, bounded, number, separator
from iosched.symptoms.series import Collector, Reading, Sample, empty

COLUMNS: dict[str, tuple[str, float]] = {
    "%util": ("util", 1), "util": ("util", 1),
    "avgqu-sz": ("queue", 1), "aqu-sz": ("queue", 1),
    "await": ("await", 1), "r_await": ("r_await", 1), "w_await": ("w_await", 1),
    "r/s": ("r_s", 1), "w/s": ("w_s", 1), "tps": ("io_s", 1),
    "rkB/s": ("rkb_s", 1), "wkB/s": ("wkb_s", 1), "rMB/s": ("rkb_s", 1024), "wMB/s": ("wkb_s", 1024),
    "rsec/s": ("rkb_s", 0.5), "wsec/s": ("wkb_s", 0.5), "rd_sec/s": ("rkb_s", 0.5), "wr_sec/s": ("wkb_s", 0.5),
    "rrqm/s": ("rrqm_s", 1), "wrqm/s": ("wrqm_s", 1),
    "rareq-sz": ("rareq_kib", 1), "wareq-sz": ("wareq_kib", 1), "areq-sz": ("areq_kib", 1),
    "avgrq-sz": ("areq_kib", 0.5),
}  # fmt: skip
"""Column -> (metric, factor to its unit); sectors are 512 bytes. ``rd_sec/s``/``wr_sec/s`` are sar's
(activity.c up to v11.x: ``DEV;tps;rd_sec/s;wr_sec/s;avgrq-sz;avgqu-sz;await;svctm;%util``)."""

_HEADER = re.compile(r"^Device:?\s")
_SKIP = re.compile(r"^(Linux|avg-cpu:|\s+[\d.,]+(\s+[\d.,]+){4,}\s*$)")
NAME = re.compile(r"[A-Za-z0-9_.:+/!-]{1,64}")


def looks_like(text: str) -> bool:
    return any(_HEADER.match(line) and ("%util" in line or "await" in line) for line in text.splitlines()[:400])


def _metrics(header: list[str]) -> list[tuple[int, str, float]]:
    return [(i, *COLUMNS[c]) for i, c in enumerate(header) if c in COLUMNS]


def read_text(text: str, source: str) -> Reading:
    """Every report of an ``iostat -x`` text; a report cut short or damaged is left out with one line saying
    why. The first of several reports (averages since boot, unless ``-y``) is left out too."""
    reports: list[tuple[float | None, dict[str, dict[str, float]]]] = []
    missing: list[str] = []
    header: list[str] | None = None
    stamp: float | None = None
    rows: list[tuple[int, list[str]]] = []

    def close() -> None:
        nonlocal rows
        if header is None or not rows:
            rows = []
            return
        try:
            reports.append((stamp, _report(header, rows)))
        except ReadError as exc:
            missing.append(f"{source}: report {len(reports) + 1}: {exc}; left out")
        rows = []

    for n, line in enumerate(text.splitlines(), 1):
        if _HEADER.match(line):
            close()
            header = line.split()
            header[0] = "Device"
        elif not line.strip() or _SKIP.match(line):
            close()
        elif (t := timestamp(line)) is not None:
            close()
            stamp = t
        elif header is not None:
            rows.append((n, line.split()))
    close()
    if not reports:
        return Reading(source, "iostat -x", {}, [], [*missing, f"{source}: no complete iostat -x report"])
    reports, notes = since_boot_left_out(reports)
    return _reading(source, "iostat -x", reports, missing, notes)


SINCE_BOOT = "the first report (averages since boot unless -y) is left out"
LONE = ("one report only: iostat's first report averages since boot (unless -y), so it is read as context, not "
        "as measurements; capture a window: iostat -x -y -t 1 60")  # fmt: skip


def since_boot_left_out(reports: list[Any]) -> tuple[list[Any], tuple[str, ...]]:
    """All reports but the first: iostat's first report averages since boot unless -y was given (man iostat,
    DESCRIPTION), which the output does not say. A lone report is kept, as context (see :data:`LONE`)."""
    if len(reports) < 2:
        return reports, (LONE,)
    return reports[1:], (SINCE_BOOT,)


def _report(header: list[str], rows: list[tuple[int, list[str]]]) -> dict[str, dict[str, float]]:
    metrics = _metrics(header)
    if not any(m == "util" for _, m, _ in metrics):
        raise ReadError("no %util column in the header")
    sep = separator([c for _, cells in rows for c in cells[1:]])
    out: dict[str, dict[str, float]] = {}
    for n, cells in rows:
        if len(cells) != len(header):
            raise ReadError(f"line {n} has {len(cells)} fields where the header has {len(header)}")
        if not NAME.fullmatch(cells[0]):
            raise ReadError(f"line {n}: {cells[0][:40]!r} is not a device name")
        try:
            out[cells[0]] = {m: number(cells[i], sep, f) for i, m, f in metrics}
        except ReadError as exc:
            raise ReadError(f"line {n}: {exc}") from None
    return out


def _reading(source: str, fmt: str, reports: list[tuple[float | None, dict[str, dict[str, float]]]],
             missing: list[str], notes: tuple[str, ...] = ()) -> Reading:  # fmt: skip
    clock = all(t is not None for t, _ in reports)
    found = Collector(source)
    for k, (t, rows) in enumerate(reports, 1):
        for device, values in rows.items():
            found.device(device, Sample(t if clock and t is not None else float(k), values))
    return found.reading(fmt, missing, clock, notes, LONE in notes)


MAX_DEPTH = 16
"""iostat's JSON nests six deep (sysstat, hosts, a host, statistics, a report, disk, a disk)."""
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def shallow(text: str, most: int = MAX_DEPTH) -> bool:
    """True when no array or object in the JSON ``text`` nests deeper than ``most`` (strings skipped)."""
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        token = m[0]
        if token in "[{":
            depth += 1
            if depth > most:
                return False
        elif token in "]}":
            depth -= 1
    return True


def read_json(text: str, source: str) -> Reading:
    """``iostat -x -o JSON``: ``sysstat.hosts[0].statistics[].disk[]``, with ``timestamp`` under ``-t``."""
    if not shallow(text):
        return empty(source, "iostat JSON", f"nested deeper than iostat's JSON ever is ({MAX_DEPTH} levels)")
    try:
        doc = json.loads(text)
        stats = doc["sysstat"]["hosts"][0]["statistics"]
    except (ValueError, KeyError, IndexError, TypeError):
        return empty(source, "iostat JSON", "not a complete iostat JSON document (cut short?)")
    if not isinstance(stats, list):
        return empty(source, "iostat JSON", "statistics is not a list")
    reports: list[tuple[float | None, dict[str, dict[str, float]]]] = []
    missing: list[str] = []
    for k, entry in enumerate(stats, 1):
        try:
            reports.append(_json_report(entry))
        except ReadError as exc:
            missing.append(f"{source}: report {k}: {exc}; left out")
    reports = [r for r in reports if r[1]]
    if not reports:
        return Reading(
            source, "iostat JSON", {}, [], [*missing, f"{source}: no report with extended disk statistics (-x)"]
        )
    reports, notes = since_boot_left_out(reports)
    return _reading(source, "iostat JSON", reports, missing, notes)


def _json_report(entry: object) -> tuple[float | None, dict[str, dict[str, float]]]:
    if not isinstance(entry, dict):
        raise ReadError("not an object")
    disks = entry.get("disk", [])
    if not isinstance(disks, list):
        raise ReadError("disk is not a list")
    stamp = entry.get("timestamp")
    t = timestamp(stamp) if isinstance(stamp, str) else None
    out: dict[str, dict[str, float]] = {}
    for disk in disks:
        if not isinstance(disk, dict) or not isinstance(name := disk.get("disk_device"), str):
            raise ReadError("a disk entry without disk_device")
        if not NAME.fullmatch(name):
            raise ReadError(f"{name[:40]!r} is not a device name")
        values: dict[str, float] = {}
        for key, raw in disk.items():
            if key in COLUMNS:
                if isinstance(raw, bool) or not isinstance(raw, int | float):
                    raise ReadError(f"{name}: {key} is not a number")
                metric, factor = COLUMNS[key]
                values[metric] = bounded(raw, f"{name}: {key}", factor)
        if "util" not in values:
            raise ReadError(f"{name}: no util (run iostat with -x)")
        out[name] = values
    return t, out
