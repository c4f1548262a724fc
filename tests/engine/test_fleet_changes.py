"""A fleet's change lines tell a change from a check: a step whose current value was only assumed to be its
target reads ``check X (assumed)`` in every fleet format, never ``X -> X``."""

from __future__ import annotations

import json

from engine_strategies import KB

from iosched.context import Context
from iosched.engine import advise
from iosched.fleet import FleetHost, change_lines, outcome, plan_set, plan_set_key, summarise
from iosched.host import HostPlan
from iosched.render import fleet_json
from iosched.render.fleet_markdown import render

CONTEXTS = [Context(hw=hw, workload=w) for hw in ("nvme", "ssd", "hdd", "virtual", "raid") for w in ("db", "streaming")]


def fleet() -> list[FleetHost]:
    plans = [advise(KB, ctx) for ctx in CONTEXTS]
    return [FleetHost(name=f"host{i}", plan=HostPlan(host={}, plans=(p,), skipped=())) for i, p in enumerate(plans)]


def test_an_assumed_value_at_its_target_is_a_check_and_a_change_stays_a_change() -> None:
    hosts = fleet()
    steps = [s for h in hosts for p in h.plan.plans for s in p.steps]  # type: ignore[union-attr]
    checks = [s for s in steps if s.expected_already]
    changes = [s for s in steps if not s.expected_already and s.previous]
    assert checks and changes  # the contexts plan both kinds
    lines = {line for h in hosts for line in change_lines(h.plan)}  # type: ignore[arg-type]
    for step in checks:
        assert f"{step.device} {step.target} check {step.value} (assumed) ({', '.join(step.because)})" in lines
    for step in changes:
        assert f"{step.device} {step.target} {step.previous} -> {step.value} ({', '.join(step.because)})" in lines
    sets = {plan_set_key(h.plan): plan_set(h.plan) for h in hosts if h.plan is not None}
    outcomes = [outcome(h, plan_set_key(h.plan) if h.plan is not None else None) for h in hosts]
    summary = summarise(outcomes, sets)
    document = json.loads("".join(fleet_json.lines(outcomes, dict.fromkeys(sets, fleet_json.NO_PLANS), summary)))
    outputs = {"markdown": render(outcomes, sets, summary), "json": json.dumps(document["summary"])}
    for name, text in outputs.items():
        for step in checks:
            assert f"{step.value} -> {step.value}" not in text, name
            assert f"{step.target} check {step.value} (assumed)" in text, name
