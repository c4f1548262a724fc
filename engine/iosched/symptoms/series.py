"""The one shape every reader returns: timed samples per device and for the host, and what was not read.

Metric names and units are fixed here so that every reader, whatever the tool's column names, speaks alike.
"""

from __future__ import annotations

from typing import NamedTuple

DEVICE_METRICS = {
    "util": "%",
    "queue": "requests",
    "r_await": "ms",
    "w_await": "ms",
    "await": "ms",
    "r_s": "IO/s",
    "w_s": "IO/s",
    "rkb_s": "KiB/s",
    "wkb_s": "KiB/s",
    "rrqm_s": "merges/s",
    "wrqm_s": "merges/s",
    "rareq_kib": "KiB",
    "wareq_kib": "KiB",
    "areq_kib": "KiB",
}
"""Per device: utilisation, queue depth (aqu-sz), latencies, rates, merges and request sizes."""

HOST_METRICS = {
    "psi_some": "%",
    "psi_full": "%",
    "dirty_kib": "KiB",
    "writeback_kib": "KiB",
    "dirty_limit_kib": "KiB",
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


def empty(source: str, fmt: str, why: str) -> Reading:
    """A reading that gave nothing, with the one line that says why."""
    return Reading(source, fmt, {}, [], [f"{source}: {why}"])
