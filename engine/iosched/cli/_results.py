"""Measured evidence for advise from benchmark results: a scheduler counts only when significantly better."""

from __future__ import annotations

from pathlib import Path

from iosched.context import Context, ContextError, resolve
from iosched.errors import UsageError
from iosched.evidence import Evidence
from iosched.kb import Kb


def evidence_from(kb: Kb, ctx: Context, paths: list[Path]) -> Evidence:
    """What the result files say, judged against the scheduler the rules would pick (the baseline)."""
    from iosched.engine import advise
    from iosched.measure import judge, load_results

    try:
        goal = resolve(kb, ctx).facts["goal"]
        rule_based = advise(kb, ctx).scheduler
    except ContextError as exc:
        raise UsageError(str(exc)) from None
    measurements = load_results(paths)
    measured = {m.scheduler for m in measurements}
    baseline = rule_based if rule_based in measured else None
    judgement = judge(measurements, goal=goal, baseline=baseline)
    summary = [f"{len(measurements)} measurements of {', '.join(sorted(measured))} (goal: {goal}); "
               f"baseline {judgement.baseline}: {judgement.reason}"]  # fmt: skip
    for v in judgement.verdicts:
        if v.scheduler == judgement.recommendation and v.ratio is not None:
            p = f", p={v.p_value:.3g}" if v.p_value is not None else ""
            summary.append(f"{v.scheduler} vs {judgement.baseline}, {v.test} {v.metric}: "
                           f"x{v.ratio:.3f} ({v.verdict}{p})")  # fmt: skip
    best = judgement.recommendation if judgement.significant else None
    return Evidence(best=best if best in kb.elevators else None, summary=tuple(summary))
