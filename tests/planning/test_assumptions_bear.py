"""A plan lists an assumption only where it bears on the plan: the volatile cache it assumes is said where the
barriers of a file system are in question, and not on every plan."""

from __future__ import annotations

import pytest

from engine_strategies import KB
from iosched.knowledge.context import Context
from iosched.planning.engine import advise
from iosched.records.plan import Plan
from iosched.vocab import CACHES

MOUNTS = [(None, None), ("ext4", "rw"), ("ext4", "rw,nobarrier"), ("xfs", "rw,nobarrier"), ("xfs", "rw")]


def _said(plan: Plan) -> tuple[object, ...]:
    """What a plan tells the user, but its assumptions."""
    return (plan.steps, [w.id for w in plan.warnings], [a.id for a in plan.advice])


@pytest.mark.parametrize("hw", [h.id for h in KB.section("hardware")])
def test_the_assumed_cache_is_listed_exactly_where_another_cache_changes_the_plan(hw: str) -> None:
    listed = 0
    for workload in ("db", "streaming"):
        for fs, options in MOUNTS:
            ctx = Context(hw=hw, workload=workload, kernel="6.8", fs=fs, mount_options=options)
            assumed = advise(KB, ctx)
            cache = next((a for a in assumed.assumptions if a.fact == "cache"), None)
            others = [advise(KB, ctx.replace(cache=v)) for v in CACHES if cache is None or v != cache.value]
            differs = any(_said(p) != _said(assumed) for p in others)
            assert (cache is not None) == differs, (hw, workload, fs, options)
            listed += cache is not None
    if hw in ("ssd", "hdd", "raid"):
        assert listed > 0
