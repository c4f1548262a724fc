"""Judging schedulers from measurements: per-metric verdicts against a baseline, then one
recommendation by the workload's goal, with guard rails. A difference inside the noise is a tie, a tie
keeps the baseline, and too few runs to reach significance give no verdict at all."""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import median

from iosched.measure.failure import MeasureError
from iosched.measure.judging import stats
from iosched.measure.measurements import Judgement, Measurement, Verdict
from iosched.measure.schedulers import SIMPLICITY
from iosched.vocab import GOAL_BASIS, GOAL_METRICS, GOALS, Goal

ALPHA = 0.05  # the significance level every exact test is held to
MIN_RUNS = 3  # and, whatever the test could reach, no fewer runs than this per scheduler
THROUGHPUT_FLOOR = 0.05  # smallest change worth acting on for IOPS, bandwidth, tps
LATENCY_FLOOR = 0.10  # latency, tail latency above all, is noisier

THROUGHPUT_METRICS = GOAL_METRICS["throughput"]
LATENCY_METRICS = GOAL_METRICS["latency"]


def kind(metric: str) -> str:
    """'latency' or 'throughput' by the metric's name."""
    return "latency" if any(metric.endswith(s) for s in LATENCY_METRICS) else "throughput"


def floor_for(metric: str) -> float:
    return LATENCY_FLOOR if kind(metric) == "latency" else THROUGHPUT_FLOOR


def better_word(direction: str) -> str:
    return "higher is better" if direction == "higher" else "lower is better"


def compare(baseline: list[Measurement], candidate: list[Measurement], *, interval: bool = False) -> Verdict:
    """One candidate against the baseline on one test and metric (both lists share them); the bootstrap
    interval of the ratio only when ``interval`` (it is the costly part)."""
    first = candidate[0]
    a, b = [m.value for m in baseline], [m.value for m in candidate]
    med_a = median(a) if a else None
    med_b = median(b) if b else None
    common = {
        "scheduler": first.scheduler, "test": first.test, "metric": first.metric, "unit": first.unit,
        "direction": first.direction, "n_baseline": len(a), "n_candidate": len(b),
        "median_baseline": med_a, "median_candidate": med_b,
    }  # fmt: skip
    if not med_a or not med_b or med_a <= 0 or med_b <= 0:
        return Verdict(**common, ratio=None, change=None, noise=None, p_value=None, paired_p=None,  # type: ignore[arg-type]
                       ci_low=None, ci_high=None, verdict="insufficient", reason="a median is zero")  # fmt: skip
    ratio = med_b / med_a
    change = ratio - 1 if first.direction == "higher" else 1 / ratio - 1
    noise = max(floor_for(first.metric), stats.cv(a), stats.cv(b))
    p = stats.mann_whitney_p(a, b)
    ci = stats.bootstrap_ratio_ci(a, b) if interval else None
    logs = _paired_logs(baseline, candidate)
    paired_p = stats.sign_flip_p(logs) if len(logs) >= MIN_RUNS else None
    values = {
        "ratio": ratio, "change": change, "noise": noise, "p_value": p, "paired_p": paired_p,
        "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
    }  # fmt: skip
    shown = f"x{ratio:.3g} ({better_word(first.direction)})"
    needed = stats.runs_needed(ALPHA)
    if min(len(a), len(b)) < MIN_RUNS or (smallest := stats.smallest_p(len(a), len(b))) > ALPHA:
        why = (f"the smallest p that {len(a)} and {len(b)} runs can give is {smallest:.3f}, above {ALPHA}"
               if min(len(a), len(b)) >= MIN_RUNS else f"{min(len(a), len(b))} run(s) are too few")  # fmt: skip
        reason = f"{shown}; no verdict: {why}; at least {max(needed, MIN_RUNS)} runs per scheduler are needed"
        return Verdict(**common, **values, verdict="insufficient", reason=reason)  # type: ignore[arg-type]
    significant = p <= ALPHA + 1e-12
    reason = f"p={p:.3f} (needs <= {ALPHA})"
    if logs and len(logs) >= MIN_RUNS:
        rounds_agree = all(x > 0 for x in logs) or all(x < 0 for x in logs)
        if significant and not rounds_agree:
            significant, reason = False, f"{reason}, but the rounds disagree"
        elif not significant and len(logs) >= 6 and paired_p is not None and paired_p <= ALPHA:
            significant, reason = True, f"paired by round p={paired_p:.3f}"
    if abs(change) < noise:
        verdict, reason = "tie", f"{shown} is within the noise (±{noise:.1%}); {reason}"
    elif not significant:
        verdict, reason = "tie", f"{shown} is not significant: {reason}"
    else:
        verdict = "better" if change > 0 else "worse"
        reason = f"{shown}: {verdict}, beyond the noise (±{noise:.1%}); {reason}"
    return Verdict(**common, **values, verdict=verdict, reason=reason)  # type: ignore[arg-type]


def _paired_logs(baseline: list[Measurement], candidate: list[Measurement]) -> list[float]:
    """Per-round log ratios (+ = candidate better) when both sides carry distinct round numbers."""
    by_a = {m.round: m.value for m in baseline if m.round is not None}
    by_b = {m.round: m.value for m in candidate if m.round is not None}
    if len(by_a) != len(baseline) or len(by_b) != len(candidate):
        return []
    logs = []
    for key in sorted(set(by_a) & set(by_b)):
        if by_a[key] > 0 and by_b[key] > 0:
            log = math.log(by_b[key] / by_a[key])
            logs.append(log if candidate[0].direction == "higher" else -log)
    return logs


def default_baseline(schedulers: list[str]) -> str:
    """The simplest scheduler measured (none before mq-deadline before kyber before bfq)."""
    rank = {name: i for i, name in enumerate(SIMPLICITY)}
    return min(schedulers, key=lambda s: (rank.get(s, len(rank)), s))


def judge(
    measurements: list[Measurement] | tuple[Measurement, ...], *, goal: str = "throughput",
    baseline: str | None = None, notes: tuple[str, ...] = (), intervals: bool = False,
) -> Judgement:  # fmt: skip
    """Verdicts of every scheduler against ``baseline`` and the recommendation for ``goal``.

    A candidate qualifies when its primary metric (per test: IOPS/tps/bandwidth for throughput,
    p99/mean latency for latency, tail latency for fairness) is ``better`` in at least one test and
    ``worse`` in none, and no guard-rail metric (the other kind) is ``worse`` anywhere. Among several
    qualifiers the highest geometric mean of primary ratios wins only if it also beats the runner-up by
    the same rule; otherwise the simpler of them is taken. With no qualifier the baseline stays.
    Bootstrap intervals are computed only with ``intervals``.
    """
    if goal not in GOALS:
        raise MeasureError(f"unknown goal {goal!r} (choose from {', '.join(GOALS)})")
    if not measurements:
        raise MeasureError("no measurements to judge")
    groups: dict[tuple[str, str], dict[str, list[Measurement]]] = defaultdict(lambda: defaultdict(list))
    for m in measurements:
        groups[m.key][m.scheduler].append(m)
    schedulers = sorted({m.scheduler for m in measurements})
    if baseline is None:
        baseline = default_baseline(schedulers)
    elif baseline not in schedulers:
        raise MeasureError(f"baseline {baseline!r} has no results (have: {', '.join(schedulers)})")
    verdicts = [
        compare(by_sched[baseline], by_sched[name], interval=intervals)
        for key, by_sched in sorted(groups.items())
        if baseline in by_sched
        for name in schedulers
        if name != baseline and name in by_sched
    ]
    if len(schedulers) == 1:
        recommendation, reason = baseline, f"only {baseline} was measured: nothing to compare"
    else:
        recommendation, reason = _recommend(verdicts, groups, baseline, goal)
    return Judgement(goal=goal, baseline=baseline, schedulers=tuple(schedulers), recommendation=recommendation,
                     significant=recommendation != baseline, reason=reason, verdicts=tuple(verdicts),
                     measurements=tuple(measurements), notes=notes)  # fmt: skip


def primary_metrics(metrics: set[str], goal: Goal) -> list[str]:
    """Per test, the metrics that speak for ``goal``: one per I/O direction, by preference."""
    chosen = []
    for prefix in sorted({_prefix(m) for m in metrics}):
        for suffix in GOAL_METRICS[goal]:
            name = f"{prefix}{suffix}"
            if name in metrics:
                chosen.append(name)
                break
    return chosen


def _prefix(metric: str) -> str:
    for suffix in (*THROUGHPUT_METRICS, *LATENCY_METRICS):
        if metric.endswith(suffix):
            return metric[: -len(suffix)]
    return metric + "."


def _recommend(
    verdicts: list[Verdict], groups: dict[tuple[str, str], dict[str, list[Measurement]]], baseline: str, goal: Goal
) -> tuple[str, str]:
    tests: dict[str, set[str]] = defaultdict(set)
    for test, metric in groups:
        tests[test].add(metric)
    goal_kind = "throughput" if goal == "throughput" else "latency"
    primary = {(t, m) for t, metrics in tests.items() for m in primary_metrics(metrics, goal)}
    guard = {(t, m) for t, metrics in tests.items() for m in metrics if (t, m) not in primary and kind(m) != goal_kind}
    basis = f"the {goal} goal is judged on {GOAL_BASIS[goal]}"
    if not primary:
        return baseline, f"{basis}, and none was measured: keep the default"
    by_candidate: dict[str, list[Verdict]] = defaultdict(list)
    for v in verdicts:
        by_candidate[v.scheduler].append(v)
    qualified: dict[str, float] = {}
    losers = []
    for name, items in by_candidate.items():
        main = [v for v in items if (v.test, v.metric) in primary]
        wins = [v for v in main if v.verdict == "better"]
        losses = [v for v in main if v.verdict == "worse"]
        rails = [v for v in items if (v.test, v.metric) in guard and v.verdict == "worse"]
        if wins and not losses and not rails:
            ratios = [1 + v.change for v in main if v.change is not None]
            qualified[name] = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        elif wins:
            losers.append(f"{name} wins somewhere but loses on {(losses + rails)[0].test} {(losses + rails)[0].metric}")
    if not qualified:
        why = f"no scheduler is significantly better than {baseline} beyond the noise ({basis}): keep the default"
        if any(v.verdict == "insufficient" for v in verdicts if (v.test, v.metric) in primary):
            why += f"; some comparisons had too few runs for a verdict (at least {stats.runs_needed(ALPHA)} each)"
        return baseline, "; ".join([why, *losers])
    ranked = sorted(qualified, key=lambda n: -qualified[n])
    best = ranked[0]
    if len(ranked) > 1 and not _beats(best, ranked[1], groups, primary):
        rank = {n: i for i, n in enumerate(SIMPLICITY)}
        best = min(ranked, key=lambda n: (rank.get(n, len(rank)), n))
        return best, (f"{', '.join(ranked)} are all better than {baseline} but not from each other ({basis}); "
                      "the simplest is chosen")  # fmt: skip
    return best, f"{best} is significantly better than {baseline} and worse nowhere; {basis}"


def _beats(
    a: str, b: str, groups: dict[tuple[str, str], dict[str, list[Measurement]]], primary: set[tuple[str, str]]
) -> bool:
    results = [compare(groups[key][b], groups[key][a]).verdict for key in primary
               if a in groups[key] and b in groups[key]]  # fmt: skip
    return "better" in results and "worse" not in results
