"""Fold benchmark results into an advise context: significant measured evidence outranks heuristics."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from iosched.context import Context, ContextError, resolve
from iosched.errors import UsageError
from iosched.kb import Kb


def with_results(kb: Kb, ctx: Context, paths: list[Path]) -> Context:
    """``ctx`` plus ``measured_best`` (only when a scheduler is significantly better) and a summary."""
    from iosched.engine import advise
    from iosched.measure import judge, load_results

    try:
        goal = ctx.goal or resolve(kb, ctx).facts["goal"]
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
    if best is not None and best not in kb.elevators:
        best = None
    return replace(ctx, measured_best=best, measured_summary=tuple(summary))
