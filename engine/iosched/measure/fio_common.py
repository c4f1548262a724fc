"""fio results of either output format, per job and direction, aggregated to one result per group."""

from __future__ import annotations

from dataclasses import dataclass

from iosched.measure.common import MIB, Parsed


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
    names = [g[0].name for g in groups.values()]
    for group, members in groups.items():
        test = members[0].name if names.count(members[0].name) == 1 else f"{members[0].name}-g{group}"
        directions = sorted({d for j in members for d in j.sides})
        for direction in directions:
            sides = [j.sides[direction] for j in members if direction in j.sides]
            parsed.add(test, f"{direction}_iops", sum(s.iops for s in sides), "IOPS", "higher",
                       scheduler=scheduler)  # fmt: skip
            parsed.add(test, f"{direction}_bw", sum(s.bw_bytes for s in sides) / MIB, "MiB/s", "higher",
                       scheduler=scheduler)  # fmt: skip
            timed = [s for s in sides if s.clat_mean_us is not None and s.ios > 0]
            if timed:
                mean = sum((s.clat_mean_us or 0.0) * s.ios for s in timed) / sum(s.ios for s in timed)
                parsed.add(test, f"{direction}_clat_mean", mean, "us", "lower", scheduler=scheduler)
            p99 = [s.clat_p99_us for s in sides if s.clat_p99_us]
            if p99:
                parsed.add(test, f"{direction}_clat_p99", max(p99), "us", "lower", scheduler=scheduler)
                if len(sides) > 1:
                    parsed.notes.append(
                        f"{test}: {len(sides)} jobs without group_reporting; p99 is the worst job's, not the group's"
                    )
