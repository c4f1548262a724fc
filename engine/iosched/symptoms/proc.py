"""``/proc/pressure/io``, ``/proc/meminfo`` and ``/proc/vmstat``: one snapshot or several after clock lines."""

from __future__ import annotations

import itertools
import re

from iosched.symptoms.series import Collector, Reading, Sample, empty
from iosched.symptoms.snapshots import split

PSI = re.compile(r"^(some|full) avg10=(\d{1,3}\.\d{1,2}) avg60=(\d{1,3}\.\d{1,2}) avg300=(\d{1,3}\.\d{1,2}) "
                 r"total=(\d+)\s*$")  # fmt: skip
MEMINFO = re.compile(r"^([A-Za-z0-9_()]{1,64}):\s+(\d{1,20})(?: kB)?\s*$")
VMSTAT = re.compile(r"^([a-z0-9_]{1,64}) (\d{1,20})\s*$")
"""Kernel counters are unsigned longs (at most 20 digits); a longer one is not a line of these files."""
DIGITS = 20
PAGE_KIB = 4
"""/proc/vmstat counts pages; 4 KiB on the architectures iosched plans for (x86-64, arm64 4K, s390x)."""


def looks_like_psi(text: str) -> bool:
    return any(PSI.match(line) for line in text.splitlines()[:20])


def looks_like_meminfo(text: str) -> bool:
    return any(line.startswith("MemTotal:") for line in text.splitlines()[:20])


def looks_like_vmstat(text: str) -> bool:
    return any(line.startswith(("nr_dirty ", "nr_dirty_threshold ")) for line in text.splitlines()[:400])


def read_psi(text: str, source: str) -> Reading:
    """Several snapshots: the share of each interval that tasks waited on I/O, from ``total`` (us). One
    snapshot: its ``avg10`` (the kernel's average over the last 10 s), at the snapshot's time."""
    snaps = []
    for t, lines in split(text, PSI.match):
        found = {m[1]: m for line in lines if (m := PSI.match(line))}
        if any(len(m[5]) > DIGITS for m in found.values()):
            return empty(source, "/proc/pressure/io", f"a total longer than {DIGITS} digits (an unsigned long)")
        if "some" in found:
            snaps.append((t, found))
    if not snaps:
        return empty(source, "/proc/pressure/io", "no some/full lines")
    host = Collector(source)
    if len(snaps) == 1 or any(t is None for t, _ in snaps):
        t, found = snaps[-1]
        host.add_host(Sample(t or 0.0, {f"psi_{k}": min(100.0, float(m[2])) for k, m in found.items()}))
        note = ("one PSI snapshot: its avg10, avg60 and avg300 are the kernel's own averages",)
        return host.reading("/proc/pressure/io", clock=t is not None, notes=note)
    for (t0, a), (t1, b) in itertools.pairwise(snaps):
        assert t0 is not None and t1 is not None
        if t1 <= t0:
            continue
        values = {f"psi_{k}": max(0.0, min(100.0, (int(b[k][5]) - int(a[k][5])) / ((t1 - t0) * 1e4)))
                  for k in a.keys() & b.keys()}  # fmt: skip
        host.add_host(Sample(t1, values))
    return host.reading("/proc/pressure/io")


def read_meminfo(text: str, source: str) -> Reading:
    host = []
    for t, lines in split(text, MEMINFO.match):
        found = {m[1]: float(m[2]) for line in lines if (m := MEMINFO.match(line))}
        if "Dirty" not in found:
            continue
        values = {"dirty_kib": found["Dirty"]}
        values |= {"writeback_kib": found["Writeback"]} if "Writeback" in found else {}
        values |= {"mem_available_kib": found["MemAvailable"]} if "MemAvailable" in found else {}
        host.append((t, values))
    if not host:
        return empty(source, "/proc/meminfo", "no Dirty line")
    return _host(source, "/proc/meminfo", host)


def read_vmstat(text: str, source: str) -> Reading:
    host = []
    for t, lines in split(text, VMSTAT.match):
        found = {m[1]: float(m[2]) for line in lines if (m := VMSTAT.match(line))}
        if "nr_dirty" not in found:
            continue
        values = {"dirty_kib": found["nr_dirty"] * PAGE_KIB}
        values |= {"writeback_kib": found["nr_writeback"] * PAGE_KIB} if "nr_writeback" in found else {}
        if "nr_dirty_threshold" in found:
            values["dirty_limit_kib"] = found["nr_dirty_threshold"] * PAGE_KIB
        if "nr_dirty_background_threshold" in found:
            values["dirty_bg_limit_kib"] = found["nr_dirty_background_threshold"] * PAGE_KIB
        host.append((t, values))
    if not host:
        return empty(source, "/proc/vmstat", "no nr_dirty line")
    return _host(source, "/proc/vmstat", host)


def _host(source: str, fmt: str, host: list[tuple[float | None, dict[str, float]]]) -> Reading:
    clock = all(t is not None for t, _ in host)
    found = Collector(source)
    for k, (t, values) in enumerate(host, 1):
        found.add_host(Sample(t if clock and t is not None else float(k), values))
    return found.reading(fmt, clock=clock)
