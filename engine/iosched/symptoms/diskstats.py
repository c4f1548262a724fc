"""Snapshots of ``/proc/diskstats``: rates per device between consecutive snapshots.

Fields after major, minor and name (Documentation/admin-guide/iostats.rst): reads completed, reads merged,
sectors read, ms reading, writes completed, writes merged, sectors written, ms writing, I/Os in flight,
ms doing I/O, weighted ms doing I/O; 4.18 adds four discard fields, 5.5 two flush fields.
"""

from __future__ import annotations

import itertools
import re

from iosched.symptoms.series import MAX_DEVICES, Collector, Reading, Sample, empty
from iosched.symptoms.snapshots import split

LINE = re.compile(r"^\s*\d+\s+\d+\s+([A-Za-z][A-Za-z0-9_.:+!-]{0,63})((?:\s+\d+){11,17})\s*$")
DIGITS = 20
"""A counter is an unsigned long: at most 20 digits; a line with a longer one is refused."""


def looks_like(text: str) -> bool:
    lines = [line for line in text.splitlines()[:200] if line.strip()]
    return sum(bool(LINE.match(line)) for line in lines) >= max(1, len(lines) // 2)


def _counters(lines: list[str], found: Collector) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for line in lines:
        if not (m := LINE.match(line)) or (m[1] not in out and len(out) >= MAX_DEVICES):
            continue
        cells = m[2].split()[:11]
        if any(len(c) > DIGITS for c in cells):
            found.say(f"digits {m[1]}", f"{m[1]}: a counter longer than {DIGITS} digits; its snapshots are left out")
        else:
            out[m[1]] = [int(x) for x in cells]
    return out


def read(text: str, source: str) -> Reading:
    """Rates between each pair of snapshots that both have a clock line; one snapshot gives no rates."""
    found = Collector(source)
    snaps = [(t, _counters(lines, found)) for t, lines in split(text, LINE.match)]
    if len(snaps) < 2:
        return empty(source, "/proc/diskstats", "one snapshot gives no rates: capture two or more, each after "
                     "a clock line (date +%s.%N; cat /proc/diskstats)")  # fmt: skip
    if any(t is None for t, _ in snaps):
        return empty(source, "/proc/diskstats", "snapshots without clock lines give no rates (date +%s.%N before each)")
    missing: list[str] = []
    for (t0, a), (t1, b) in itertools.pairwise(snaps):
        assert t0 is not None and t1 is not None
        dt = t1 - t0
        if dt <= 0:
            found.say("order", f"snapshot at {t1} is not after the one before it; left out")
            continue
        for name in sorted(a.keys() & b.keys()):
            d = [y - x for x, y in zip(a[name], b[name], strict=True)]
            if any(v < 0 for i, v in enumerate(d) if i != 8):
                found.say(f"back {name}", f"{name}: counters went back (wrap or reboot); an interval left out")
                continue
            found.device(name, Sample(t1, _rates(d, dt)))
    if not found.devices:
        return Reading(source, "/proc/diskstats", {}, [], [*found.missing, f"{source}: no device in two snapshots"])
    return found.reading("/proc/diskstats", missing)


def _rates(d: list[int], dt: float) -> dict[str, float]:
    reads, rmerged, rsect, rms, writes, wmerged, wsect, wms, _, ticks, weighted = d
    values = {
        "r_s": reads / dt, "w_s": writes / dt, "rkb_s": rsect / 2 / dt, "wkb_s": wsect / 2 / dt,
        "rrqm_s": rmerged / dt, "wrqm_s": wmerged / dt,
        "util": min(100.0, ticks / (dt * 10)), "queue": weighted / (dt * 1000),
    }  # fmt: skip
    if reads:
        values |= {"r_await": rms / reads, "rareq_kib": rsect / 2 / reads}
    if writes:
        values |= {"w_await": wms / writes, "wareq_kib": wsect / 2 / writes}
    return values
