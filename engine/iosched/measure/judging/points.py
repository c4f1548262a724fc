"""The naive points method of the iozone-scheduler blog (seed 001), kept to show why it misleads.

Per run and test, the best scheduler gets 2 points, the middle one 1 and the worst 0 (with k
schedulers: k-1 down to 0); the most points wins. It rewards differences inside the noise,
ignores their size, weights tests by how many there are, has no "keep the default" outcome, and
a new contender reshuffles the others' points.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

from iosched.measure.judging.judgement import floor_for, primary_metrics
from iosched.measure.judging.stats import cv
from iosched.measure.measurements import Measurement
from iosched.vocab import Goal


@dataclass(frozen=True)
class Points:
    totals: dict[str, int]
    winner: str | None
    awards: int  # rank decisions made
    inside_noise: int  # of which separated neighbours by less than the run-to-run noise


def points(measurements: list[Measurement] | tuple[Measurement, ...], *, goal: Goal = "throughput") -> Points:
    """Score the seed's way: each run (round) of each primary metric ranks the schedulers."""
    metrics: dict[str, set[str]] = defaultdict(set)
    for m in measurements:
        metrics[m.test].add(m.metric)
    primary = {(t, name) for t, names in metrics.items() for name in primary_metrics(names, goal)}
    heats: dict[tuple[str, str, int], dict[str, float]] = defaultdict(dict)
    runs: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for m in measurements:
        if (m.test, m.metric) in primary:
            slot = m.round if m.round is not None else (m.run or 1)
            value = m.value if m.direction == "higher" else -m.value
            heats[(m.test, m.metric, slot)][m.scheduler] = value
            runs[(m.test, m.metric, m.scheduler)].append(m.value)
    totals: dict[str, int] = defaultdict(int)
    awards = inside = 0
    for (test, metric, _), scores in heats.items():
        if len(scores) < 2:
            continue
        ranked = sorted(scores, key=lambda s: -scores[s])
        for place, name in enumerate(ranked):
            totals[name] += len(ranked) - 1 - place
        for upper, lower in pairwise(ranked):
            awards += 1
            hi, lo = abs(scores[upper]), abs(scores[lower])
            noise = max(floor_for(metric), cv(runs[(test, metric, upper)]), cv(runs[(test, metric, lower)]))
            if hi and abs(hi - lo) / max(hi, lo) < noise:
                inside += 1
    best = max(totals.values(), default=None)
    leaders = [n for n, t in totals.items() if t == best]
    return Points(dict(sorted(totals.items(), key=lambda kv: -kv[1])), leaders[0] if len(leaders) == 1 else None,
                  awards, inside)  # fmt: skip
