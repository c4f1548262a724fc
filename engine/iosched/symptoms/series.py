"""The one shape every reader returns: timed samples per device and for the host, and what was not read.

Metric names and units are fixed here so that every reader, whatever the tool's column names, speaks alike.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from iosched.symptoms.numbers import LARGEST

MAX_DEVICES = 1024
"""Devices one input may hold: more than any host iosched plans for shows in one report."""
MAX_INTERVALS = 20_000
"""Intervals one device (or the host) may have in one input: five and a half hours at one a second."""
MAX_SAMPLES = 200_000
"""Device intervals one input may hold in all, which bounds the memory a diagnosis takes."""

DEVICE_METRICS = {
    "util": "%",
    "queue": "requests",
    "r_await": "ms",
    "w_await": "ms",
    "await": "ms",
    "r_s": "IO/s",
    "w_s": "IO/s",
    "io_s": "IO/s",
    "rkb_s": "KiB/s",
    "wkb_s": "KiB/s",
    "rrqm_s": "merges/s",
    "wrqm_s": "merges/s",
    "rareq_kib": "KiB",
    "wareq_kib": "KiB",
    "areq_kib": "KiB",
}
"""Per device: utilisation, queue depth (aqu-sz), latencies, rates (``io_s``: sar's tps, reads and writes
completed together), merges and request sizes."""

HOST_METRICS = {
    "psi_some": "%",
    "psi_full": "%",
    "dirty_kib": "KiB",
    "writeback_kib": "KiB",
    "dirty_limit_kib": "KiB",
    "dirty_bg_limit_kib": "KiB",
    "mem_available_kib": "KiB",
    "blocked": "processes",
    "iowait": "%",
    "hung_dirty": "reports",
    "hung_io": "reports",
    "stack_dirty": "share of stack samples",
}
"""For the whole host: PSI, dirty and writeback memory, blocked processes, hung-task reports."""

UNITS = {**DEVICE_METRICS, **HOST_METRICS}


class Sample(NamedTuple):
    """Values over one interval ending at ``t`` (seconds: epoch when the capture has clock times, else the
    sample's number)."""

    t: float
    values: dict[str, float]


class Reading(NamedTuple):
    """What one input gave: ``fmt`` names the format, ``clock`` is True when ``t`` are real times."""

    source: str
    fmt: str
    devices: dict[str, list[Sample]]
    host: list[Sample]
    missing: list[str]
    clock: bool = True
    notes: tuple[str, ...] = ()
    context: bool = False
    """True for a lone since-boot report: it says what the devices are, not how they did in a window."""


def empty(source: str, fmt: str, why: str) -> Reading:
    """A reading that gave nothing, with the one line that says why."""
    return Reading(source, fmt, {}, [], [f"{source}: {why}"])


class Collector:
    """The samples of one input as a reader finds them, within :data:`MAX_DEVICES`, :data:`MAX_INTERVALS` and
    :data:`MAX_SAMPLES`; a sample with a value that is not a finite number within ``numbers.LARGEST`` is left out.
    What goes over a bound is left out with one line saying which bound."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.devices: dict[str, list[Sample]] = {}
        self.host: list[Sample] = []
        self.missing: list[str] = []
        self._count = 0
        self._said: set[str] = set()

    def say(self, key: str, line: str) -> None:
        """Add ``line`` to what was not read, once per ``key`` (a bound, or a defect that repeats)."""
        if key not in self._said:
            self._said.add(key)
            self.missing.append(f"{self.source}: {line}")

    def _fits(self, sample: Sample) -> bool:
        if all(math.isfinite(v) and 0 <= v <= LARGEST for v in sample.values.values()) and math.isfinite(sample.t):
            return True
        self.say("range", "a value out of range (not a finite number up to 1e15); its interval is left out")
        return False

    def device(self, name: str, sample: Sample) -> None:
        samples = self.devices.get(name, [])
        if name not in self.devices and len(self.devices) >= MAX_DEVICES:
            self.say("devices", f"more than {MAX_DEVICES} devices: only the first {MAX_DEVICES} are read")
            return
        if len(samples) >= MAX_INTERVALS:
            self.say("intervals", f"more than {MAX_INTERVALS} intervals of a device: only the first are read")
            return
        if self._count >= MAX_SAMPLES:
            self.say("samples", f"more than {MAX_SAMPLES} device intervals in all: only the first are read")
            return
        if self._fits(sample):
            self.devices.setdefault(name, samples).append(sample)
            self._count += 1

    def add_host(self, sample: Sample) -> None:
        if len(self.host) >= MAX_INTERVALS:
            self.say("host", f"more than {MAX_INTERVALS} host samples: only the first are read")
        elif self._fits(sample):
            self.host.append(sample)

    def reading(self, fmt: str, missing: list[str] | None = None, clock: bool = True,
                notes: tuple[str, ...] = (), context: bool = False) -> Reading:  # fmt: skip
        missing = [*(missing or []), *self.missing]
        return Reading(self.source, fmt, self.devices, self.host, missing, clock, notes, context)
