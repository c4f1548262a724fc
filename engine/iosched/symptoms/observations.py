"""From readings to observations (numbers with a window and a source) and the ``obs.*`` facts causes compare."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from iosched.symptoms.series import UNITS, Reading, Sample

BUSY = 80.0
"""%util at or above which an interval counts as busy."""
ACTIVE = 10.0
"""%util at or above which (or a request queued) an interval counts as active: the active window runs from the
first such interval to the last, so an idle lead-in or tail does not dilute the load."""
_PARTITION = re.compile(r"(?P<disk>(?:sd|vd|xvd|hd)[a-z]+|(?:nvme\d+n\d+|mmcblk\d+|loop\d+)(?=p))p?\d+")
EVENTS = ("hung_dirty", "hung_io")
MOVED = ("util", "r_s", "w_s", "rkb_s", "wkb_s")
"""A device none of whose samples moves any of these did no I/O in the window."""
DEFAULT_DIRTY_RATIO = 20
"""vm.dirty_ratio when the capture does not say (mm/page-writeback.c)."""
DEFAULT_DIRTY_BACKGROUND_RATIO = 10
"""vm.dirty_background_ratio when the capture does not say (mm/page-writeback.c)."""


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
    host_series: dict[str, list[Sample]] = {}  # noqa: RUF012 - a NamedTuple's default, never changed
    """Each host metric's samples, from the reading that gave its observation."""


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _observe(subject: str, metric: str, samples: list[Sample], reading: Reading) -> Observation | None:
    return _summary(subject, metric, samples, f"{reading.fmt} ({reading.source})", reading.clock)


def _summary(subject: str, metric: str, samples: list[Sample], source: str, clock: bool) -> Observation | None:
    values = [s.values[metric] for s in samples if metric in s.values]
    if not values:
        return None
    times = [s.t for s in samples if metric in s.values]
    return Observation(subject, metric, len(values), _quantile(values, 0.5), _quantile(values, 0.9), max(values),
                       min(times), max(times), clock, source)  # fmt: skip


def restricted(observed: Observed, device: str, samples: list[Sample]) -> Observed:
    """``observed`` over a phase: ``device`` measured over ``samples`` alone, every other device and the host
    over the same clock times (left out where there are no clock times to line them up, or none fall within)."""
    start, end = samples[0].t, samples[-1].t
    clock = observed.devices[device]["util"].clock

    def within(subject: str, whole: dict[str, Observation], series: list[Sample]) -> dict[str, Observation]:
        kept = series if subject == device else [s for s in series if start <= s.t <= end] if clock else []
        return {
            m: o for m, w in whole.items() if w.clock == clock and (o := _summary(subject, m, kept, w.source, w.clock))
        }

    devices = {d: found for d, whole in observed.devices.items()
               if (found := within(d, whole, samples if d == device else observed.series[d]))}  # fmt: skip
    series = {d: samples if d == device else [s for s in observed.series[d] if start <= s.t <= end] for d in devices}
    host = {m: o for m, w in observed.host.items()
            if (o := within("host", {m: w}, observed.host_series.get(m, [])).get(m))}  # fmt: skip
    return observed._replace(devices=devices, series=series, host=host)


def disk_of(name: str, parents: Mapping[str, str]) -> str | None:
    """The disk a partition is on (from sysfs, else from its name); None for a name that is no partition."""
    parent = parents.get(name)
    if parent is None and (m := _PARTITION.fullmatch(name)):
        parent = m["disk"]
    return parent


def whole_disk(name: str, present: Iterable[str], parents: Mapping[str, str]) -> str | None:
    """The disk ``name`` counts under: itself, or None for a partition whose disk is also measured (its I/O
    is already in the disk's counters)."""
    parent = disk_of(name, parents)
    return None if parent is not None and parent in present else name


def observe(readings: list[Reading], parents: Mapping[str, str] | None = None,
            slaves: Mapping[str, tuple[str, ...]] | None = None) -> Observed:  # fmt: skip
    """Per device, the reading with the most measured intervals (the first given on a tie) supplies every
    metric it has; each host metric comes from the reading with most samples of it."""
    parents, slaves = parents or {}, slaves or {}
    best: dict[str, tuple[Reading, list[Sample]]] = {}
    for reading in readings:
        for device, samples in reading.devices.items() if not reading.context else ():
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
    host_series: dict[str, list[Sample]] = {}
    for reading in readings:
        for metric in UNITS:
            o = _observe("host", metric, reading.host, reading)
            if o and (metric not in host or o.n > host[metric].n):
                host[metric], host_series[metric] = o, reading.host
    missing = [m for r in readings for m in r.missing] + gaps
    notes = [f"{r.source}: {n}" for r in readings for n in r.notes]
    if idle:
        notes.append(f"no I/O at all in the window, so nothing to diagnose: {', '.join(idle)}")
    stacked = {d: slaves[d] for d in devices if slaves.get(d)}
    counts = {m: sum(s.values.get(m, 0.0) for r in readings for s in r.host) for m in EVENTS
              if any(m in s.values for r in readings for s in r.host)}  # fmt: skip
    means = {m: sum(v) / len(v) for m in ("stack_dirty",)
             if (v := [s.values[m] for r in readings for s in r.host if m in s.values])}  # fmt: skip
    return Observed(devices, series, host, missing, notes, stacked, counts, means, host_series)


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


def _dirty_freerun_share(observed: Observed, dirty_ratio: float | None) -> float | None:
    """Peak dirty + writeback memory (one sample's) in percent of the freerun ceiling, (threshold + background
    threshold) / 2: balance_dirty_pages pauses no writer below it (mm/page-writeback.c, domain_dirty_freerun).
    The kernel's thresholds from /proc/vmstat when captured (the sample's own, else their median), else
    vm.dirty_ratio and the default background ratio of the sample's available memory (an estimate; the kernel
    halves a background threshold that is not under the threshold)."""
    host = observed.host
    kernel: dict[str, float] = {m: host[m].median for m in ("dirty_limit_kib", "dirty_bg_limit_kib") if m in host}
    ratio = dirty_ratio or DEFAULT_DIRTY_RATIO
    shares = []
    for s in observed.host_series.get("dirty_kib", []):
        v = {**kernel, **s.values}
        if "dirty_limit_kib" in v and "dirty_bg_limit_kib" in v:
            ceiling = (v["dirty_limit_kib"] + v["dirty_bg_limit_kib"]) / 2
        elif "mem_available_kib" in v:
            ceiling = (ratio + min(DEFAULT_DIRTY_BACKGROUND_RATIO, ratio / 2)) / 200 * v["mem_available_kib"]
        else:
            continue
        if "dirty_kib" in v and ceiling > 0:
            shares.append(100 * (v["dirty_kib"] + v.get("writeback_kib", 0)) / ceiling)
    return max(shares, default=None)


def active_window(samples: list[Sample]) -> list[Sample]:
    """The samples from the first active interval to the last (see :data:`ACTIVE`); [] when none is active."""
    marks = [s.values.get("util", 0) >= ACTIVE or s.values.get("queue", 0) >= 1 for s in samples]
    if not any(marks):
        return []
    first, last = marks.index(True), len(marks) - 1 - marks[::-1].index(True)
    return samples[first : last + 1]


PHASE = 5
"""Intervals a phase needs to be judged on its own: as a cause needs over a window, so a burst is no phase."""
_GAP = 3
"""Idle intervals that end a phase; a shorter lull is part of it."""


def _direction(s: Sample) -> str:
    """An interval's load: ``-`` not active (:data:`ACTIVE`), else ``w``, ``r`` or ``m`` by the bytes it moved."""
    v = s.values
    if v.get("util", 0) < ACTIVE and v.get("queue", 0) < 1:
        return "-"
    rkb, wkb = v.get("rkb_s", 0.0), v.get("wkb_s", 0.0)
    share = wkb / (rkb + wkb) if rkb + wkb > 0 else 0.5
    return "w" if share >= 0.9 else "r" if share <= 0.1 else "m"


def phases(samples: list[Sample]) -> list[list[Sample]]:
    """The stretches of one load within the active window: split where :data:`_GAP` or more idle intervals
    come between busy ones, or where the load turns from writes to reads or back for :data:`PHASE` intervals or
    more (an interval of both continues the one before); a shorter change stays in the phase around it. Each
    has :data:`PHASE` intervals or more."""
    marks, last = [], "m"
    for s in samples:  # an interval of both reads and writes continues the load before it
        mark = _direction(s)
        last = mark if mark in "wr" else last
        marks.append(last if mark == "m" else mark)
    runs: list[list[int]] = []  # [start, end, class] of runs of one class, short ones folded into the one before
    for k, mark in enumerate(marks):
        if runs and marks[runs[-1][0]] == mark:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    kept: list[list[int]] = []
    for start, end in runs:
        idle, short = marks[start] == "-", end - start + 1 < (_GAP if marks[start] == "-" else PHASE)
        if kept and (short or (not idle and marks[kept[-1][0]] == marks[start])):
            kept[-1][1] = end
        else:
            kept.append([start, end])
    found = [samples[a : b + 1] for a, b in kept if marks[a] != "-"]
    return [active_window(p) for p in found if len(active_window(p)) >= PHASE]


def _longest(flags: list[bool]) -> int:
    run = best = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def window_facts(samples: list[Sample]) -> dict[str, float]:
    """What an engineer reads over the active window: its length and load, each direction's latency weighted
    by the requests that completed (iostat's r_await is an average over completed reads, 0.00 when none did),
    and read starvation: intervals with requests queued and no read completed, in a window where reads do
    complete; the await of the quietest tenth of intervals (service time, no queueing) against the median."""
    active = active_window(samples)
    out: dict[str, float] = {"obs.active.intervals": len(active)}
    if not active:
        return out
    utils = [s.values.get("util", 0.0) for s in active]
    out["obs.active.busy_share"] = 100 * sum(u >= BUSY for u in utils) / len(utils)
    for metric in ("util", "queue"):
        if values := [s.values[metric] for s in active if metric in s.values]:
            out[f"obs.active.{metric}.median"] = _quantile(values, 0.5)
    for d in ("r", "w"):
        pairs = [(s.values[f"{d}_await"], s.values[f"{d}_s"]) for s in active
                 if f"{d}_await" in s.values and f"{d}_s" in s.values]  # fmt: skip
        done = sum(n for _, n in pairs)
        if done > 0:
            out[f"obs.{d}_await.weighted"] = sum(a * n for a, n in pairs) / done
    waits = [s.values["await"] if "await" in s.values else _await(s) for s in active]
    for name, series in (("queue", [s.values.get("queue") for s in active]), ("await", waits)):
        met = [(v, _completed(s)) for v, s in zip(series, active, strict=True) if v is not None]
        if (done := sum(n for _, n in met)) > 0:
            out[f"obs.{name}.weighted"] = sum(v * n for v, n in met) / done
    if "obs.r_await.weighted" in out:
        starved = [s.values.get("queue", 0) >= 1 and s.values.get("r_s", 0) == 0 for s in active]
        out["obs.r_starved_share"] = 100 * sum(starved) / len(starved)
        out["obs.r_starved_run"] = _longest(starved)
    if busy := sorted(w for w in waits if w is not None and w > 0):
        floor = busy[len(busy) // 10]
        out["obs.await.queueing"] = _quantile(busy, 0.5) / floor
    queues = [s.values["queue"] for s in active if "queue" in s.values]
    if len(queues) >= 6:
        third = len(queues) // 3
        first = _quantile(queues[:third], 0.5)
        out["obs.queue.growth"] = _quantile(queues[-third:], 0.5) / max(first, 0.01)
    return out


def _completed(s: Sample) -> float:
    """Requests completed in the interval: reads and writes, or sar's tps where they are not apart."""
    v = s.values
    return v.get("r_s", 0) + v.get("w_s", 0) if "r_s" in v or "w_s" in v else v.get("io_s", 0)


def _await(s: Sample) -> float | None:
    """await from r_await and w_await weighted by their completions (iostat 12 prints no await column)."""
    v = s.values
    n = v.get("r_s", 0) + v.get("w_s", 0)
    if n <= 0 or ("r_await" not in v and "w_await" not in v):
        return None
    return (v.get("r_await", 0) * v.get("r_s", 0) + v.get("w_await", 0) * v.get("w_s", 0)) / n


def device_wide(observed: Observed) -> dict[str, float]:
    """The busiest device's median %util and queue depth: host pressure with every device idle is not theirs."""
    out = {}
    for metric in ("util", "queue"):
        if values := [o[metric].median for o in observed.devices.values() if metric in o]:
            out[f"obs.devices.{metric}_max"] = max(values)
    return out


def host_facts(observed: Observed, dirty_ratio: float | None = None) -> dict[str, float]:
    """The ``obs.*`` facts of the host alone: events, stack samples, PSI, dirty memory."""
    out: dict[str, float] = {f"obs.{metric}": count for metric, count in observed.counts.items()}
    for metric in ("psi_some", "psi_full"):
        if metric in observed.host:
            out[f"obs.{metric}.median"] = observed.host[metric].median
    if "stack_dirty" in observed.means:
        out["obs.stack_dirty_share"] = 100 * observed.means["stack_dirty"]
    if (share := _dirty_share(observed, dirty_ratio)) is not None:
        out["obs.dirty_pct_of_limit"] = share
    if (share := _dirty_freerun_share(observed, dirty_ratio)) is not None:
        out["obs.dirty_pct_of_freerun"] = share
    return out


def facts(observed: Observed, device: str, dirty_ratio: float | None = None) -> dict[str, float]:
    """The ``obs.*`` facts of one device (with the host's); a fact whose numbers are missing is absent."""
    obs = observed.devices[device]
    samples = observed.series[device]
    out: dict[str, float] = {"obs.intervals": obs["util"].n, **window_facts(samples)}
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
    out |= device_wide(observed) | host_facts(observed, dirty_ratio)
    if "obs.psi_some.median" in out and "obs.devices.util_max" in out:
        out["obs.psi_unexplained"] = out["obs.psi_some.median"] - out["obs.devices.util_max"]
    return out
