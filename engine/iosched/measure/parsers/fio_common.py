"""fio results of either output format, per job and direction, aggregated to one result per group."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from iosched.measure.parsers.common import MIB, Parsed


@dataclass(frozen=True)
class Side:
    """One job's figures for one direction (read, write, trim, mixed), in IO/s, B/s and microseconds."""

    ios: float
    iops: float
    bw_bytes: float
    clat_mean_us: float | None
    clat_p99_us: float | None


@dataclass(frozen=True)
class Job:
    name: str
    group: int
    sides: dict[str, Side]


def emit(jobs: list[Job], parsed: Parsed, *, scheduler: str = "") -> None:
    """One test per fio group: throughput is summed over the group's jobs, mean latency weighted by
    I/O count; percentiles cannot be combined, so several jobs give the worst job's p99 (noted)."""
    groups: dict[int, list[Job]] = {}
    for job in jobs:
        groups.setdefault(job.group, []).append(job)
    names = Counter(g[0].name for g in groups.values())
    for group, members in groups.items():
        test = members[0].name if names[members[0].name] == 1 else f"{members[0].name}-g{group}"
        directions = sorted({d for j in members for d in j.sides})
        for direction in directions:
            sides = [j.sides[direction] for j in members if direction in j.sides]
            parsed.add(test, f"{direction}_iops", _total(s.iops for s in sides), "IOPS", "higher",
                       scheduler=scheduler)  # fmt: skip
            parsed.add(test, f"{direction}_bw", _total(s.bw_bytes for s in sides) / MIB, "MiB/s", "higher",
                       scheduler=scheduler)  # fmt: skip
            timed = [s for s in sides if s.clat_mean_us is not None]
            if timed:
                parsed.add(test, f"{direction}_clat_mean", _weighted_mean(timed), "us", "lower", scheduler=scheduler)
            p99 = [s.clat_p99_us for s in sides if s.clat_p99_us is not None]
            if p99:
                worst = max(p99) if all(math.isfinite(v) for v in p99) else math.nan
                parsed.add(test, f"{direction}_clat_p99", worst, "us", "lower", scheduler=scheduler)
                if len(sides) > 1:
                    parsed.notes.append(
                        f"{test}: {len(sides)} jobs without group_reporting; p99 is the worst job's, not the group's"
                    )


def _total(values: Iterable[float]) -> float:
    """The sum over a group's jobs; NaN when one of them is not a finite number >= 0 (a bad job is not hidden)."""
    items = list(values)
    return sum(items) if all(math.isfinite(v) and v >= 0 for v in items) else math.nan


def _weighted_mean(sides: list[Side]) -> float:
    """Mean completion latency weighted by I/O count; NaN when a weight is not a finite count > 0."""
    if not all(math.isfinite(s.ios) and s.ios > 0 for s in sides):
        return math.nan
    return sum((s.clat_mean_us or 0.0) * s.ios for s in sides) / sum(s.ios for s in sides)
