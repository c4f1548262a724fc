"""Measurements as evidence for advise: the scheduler they show significantly better, and why, in lines."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from iosched.escape import one_line
from iosched.measure.judging.judgement import better_word, judge
from iosched.measure.measurements import Measurement
from iosched.records.evidence import Evidence


def evidence(
    measurements: Sequence[Measurement], *, goal: str, baseline: str | None, schedulers: Collection[str],
    notes: Sequence[str] = (),
) -> Evidence:  # fmt: skip
    """Judge ``measurements`` for ``goal`` against ``baseline`` (the rule-based choice; the simplest measured
    scheduler when it was not measured). ``best`` is set only when a scheduler is significantly better and is
    one of ``schedulers`` (the KB's elevators); ``summary`` says what was measured and found, notes included,
    one line each without control characters (file names and test names come from the user's files)."""
    measured = sorted({m.scheduler for m in measurements})
    judgement = judge(tuple(measurements), goal=goal, baseline=baseline if baseline in measured else None)
    summary = [f"{len(measurements)} measurements of {', '.join(measured)} (goal: {goal}); "
               f"baseline {judgement.baseline}: {judgement.reason}"]  # fmt: skip
    for v in judgement.verdicts:
        if v.scheduler == judgement.recommendation and v.ratio is not None:
            p = f", p={v.p_value:.3g}" if v.p_value is not None else ""
            summary.append(f"{v.scheduler} vs {judgement.baseline}, {v.test} {v.metric}: x{v.ratio:.3g} "
                           f"({better_word(v.direction)}; {v.verdict}{p})")  # fmt: skip
    best = judgement.recommendation if judgement.significant else None
    if best is not None and best not in schedulers:
        summary.append(f"{best} is not an elevator the KB knows, so the plan does not use it")
        best = None
    summary += [f"note: {n}" for n in notes]
    return Evidence(best=best, summary=tuple(one_line(line) for line in summary))
