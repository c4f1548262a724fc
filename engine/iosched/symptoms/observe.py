"""From readings to observations (numbers with a window and a source) and the ``obs.*`` facts causes compare."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from iosched.symptoms.series import UNITS, Reading, Sample

BUSY = 80.0
"""%util at or above which an interval counts as busy."""
_PARTITION = re.compile(r"(?P<disk>(?:sd|vd|xvd|hd)[a-z]+|(?:nvme\d+n\d+|mmcblk\d+|loop\d+)(?=p))p?\d+")
EVENTS = ("hung_dirty", "hung_io")
MOVED = ("util", "r_s", "w_s", "rkb_s", "wkb_s")
"""A device none of whose samples moves any of these did no I/O in the window."""
DEFAULT_DIRTY_RATIO = 20
"""vm.dirty_ratio when the capture does not say (mm/page-writeback.c)."""


class Observation(NamedTuple):
    """One metric of one device (or of the host) over a window: median, 90th percentile and peak."""

    subject: str
    metric: str
    n: int
    median: float
    p90: float
    peak: float
    start: float
    end: float
    clock: bool
    source: str

    @property
    def unit(self) -> str:
        return UNITS[self.metric]


class Observed(NamedTuple):
    """Everything the readings show: per device its observations and series; the host's; what is missing."""

    devices: dict[str, dict[str, Observation]]
    series: dict[str, list[Sample]]
    host: dict[str, Observation]
    missing: list[str]
    notes: list[str]
    stacked: dict[str, tuple[str, ...]]
    counts: dict[str, float]
    """Events summed over every reading: hung-task reports."""
    means: dict[str, float]
    """Host metrics averaged over their samples (the share of stack samples in balance_dirty_pages)."""


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _observe(subject: str, metric: str, samples: list[Sample], reading: Reading) -> Observation | None:
    values = [s.values[metric] for s in samples if metric in s.values]
    if not values:
        return None
    times = [s.t for s in samples if metric in s.values]
    source = f"{reading.fmt} ({reading.source})"
    return Observation(subject, metric, len(values), _quantile(values, 0.5), _quantile(values, 0.9), max(values),
                       min(times), max(times), reading.clock, source)  # fmt: skip


def whole_disk(name: str, present: Iterable[str], parents: Mapping[str, str]) -> str | None:
    """The disk ``name`` counts under: itself, or None for a partition whose disk is also measured (its I/O
    is already in the disk's counters)."""
    parent = parents.get(name)
    if parent is None and (m := _PARTITION.fullmatch(name)):
        parent = m["disk"]
    return None if parent is not None and parent in present else name


def observe(readings: list[Reading], parents: Mapping[str, str] | None = None,
            slaves: Mapping[str, tuple[str, ...]] | None = None) -> Observed:  # fmt: skip
    """Per device, the reading with the most measured intervals (the first given on a tie) supplies every
    metric it has; each host metric comes from the reading with most samples of it."""
    parents, slaves = parents or {}, slaves or {}
    best: dict[str, tuple[Reading, list[Sample]]] = {}
    for reading in readings:
        for device, samples in reading.devices.items():
            if device not in best or len(samples) > len(best[device][1]):
                best[device] = (reading, samples)
    devices: dict[str, dict[str, Observation]] = {}
    series: dict[str, list[Sample]] = {}
    gaps: list[str] = []
    idle: list[str] = []
    for device, (reading, samples) in sorted(best.items()):
        if whole_disk(device, best, parents) is None:
            continue
        if not any(any(s.values.get(m, 0) for m in MOVED) for s in samples):
            idle.append(device)
            continue
        found = {m: o for m in UNITS if (o := _observe(device, m, samples, reading))}
        if "util" in found:
            devices[device], series[device] = found, samples
            if "r_await" not in found:
                gaps.append(f"{device}: {reading.fmt} has no r_await: reads waiting behind writes cannot be told")
    host: dict[str, Observation] = {}
    for reading in readings:
        for metric in UNITS:
            o = _observe("host", metric, reading.host, reading)
            if o and (metric not in host or o.n > host[metric].n):
                host[metric] = o
    missing = [m for r in readings for m in r.missing] + gaps
    notes = [f"{r.source}: {n}" for r in readings for n in r.notes]
    if idle:
        notes.append(f"no I/O at all in the window, so nothing to diagnose: {', '.join(idle)}")
    stacked = {d: slaves[d] for d in devices if slaves.get(d)}
    counts = {m: sum(s.values.get(m, 0.0) for r in readings for s in r.host) for m in EVENTS
              if any(m in s.values for r in readings for s in r.host)}  # fmt: skip
    means = {m: sum(v) / len(v) for m in ("stack_dirty",)
             if (v := [s.values[m] for r in readings for s in r.host if m in s.values])}  # fmt: skip
    return Observed(devices, series, host, missing, notes, stacked, counts, means)


def _dirty_share(observed: Observed, dirty_ratio: float | None) -> float | None:
    """Peak dirty + writeback memory in percent of the dirty limit: the kernel's own threshold from
    /proc/vmstat when captured, else vm.dirty_ratio of the available memory (an estimate)."""
    host = observed.host
    if "dirty_kib" not in host:
        return None
    peak = host["dirty_kib"].peak + (host["writeback_kib"].median if "writeback_kib" in host else 0)
    if "dirty_limit_kib" in host and host["dirty_limit_kib"].median > 0:
        return 100 * peak / host["dirty_limit_kib"].median
    if "mem_available_kib" in host and host["mem_available_kib"].median > 0:
        limit = (dirty_ratio or DEFAULT_DIRTY_RATIO) / 100 * host["mem_available_kib"].median
        return 100 * peak / limit
    return None


def facts(observed: Observed, device: str, dirty_ratio: float | None = None) -> dict[str, float]:
    """The ``obs.*`` facts of one device (with the host's); a fact whose numbers are missing is absent."""
    obs = observed.devices[device]
    samples = observed.series[device]
    out: dict[str, float] = {"obs.intervals": obs["util"].n}
    utils = [s.values["util"] for s in samples if "util" in s.values]
    out["obs.util.busy_share"] = 100 * sum(u >= BUSY for u in utils) / len(utils)
    for metric in ("util", "queue", "r_await", "w_await", "await", "r_s", "rkb_s", "rareq_kib"):
        if metric in obs:
            out[f"obs.{metric}.median"] = obs[metric].median

    def total(metric: str) -> float | None:
        values = [s.values[metric] for s in samples if metric in s.values]
        return sum(values) if values else None

    rkb, wkb, rrqm, r_s = total("rkb_s"), total("wkb_s"), total("rrqm_s"), total("r_s")
    if rkb is not None and wkb is not None and rkb + wkb > 0:
        out["obs.write_share"] = 100 * wkb / (rkb + wkb)
    if rrqm is not None and r_s is not None and rrqm + r_s > 0:
        out["obs.read_merge_pct"] = 100 * rrqm / (rrqm + r_s)
    host = observed.host
    for metric in ("psi_some", "psi_full"):
        if metric in host:
            out[f"obs.{metric}.median"] = host[metric].median
    out |= {f"obs.{metric}": count for metric, count in observed.counts.items()}
    if "stack_dirty" in observed.means:
        out["obs.stack_dirty_share"] = 100 * observed.means["stack_dirty"]
    if (share := _dirty_share(observed, dirty_ratio)) is not None:
        out["obs.dirty_pct_of_limit"] = share
    return out
