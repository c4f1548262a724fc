"""A fleet's change lines tell a change from a check: a step whose current value was only assumed to be its
target reads ``check X (assumed)`` in every fleet format, never ``X -> X``."""

from __future__ import annotations

import json

from engine_strategies import KB

from iosched.cli.commands.fleet import _document
from iosched.context import Context
from iosched.engine import advise
from iosched.fleet import FleetHost, change_lines, summarise
from iosched.host import HostPlan
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
    summary = summarise(hosts)
    outputs = {
        "markdown": render(hosts, summary),
        "json": json.dumps(_document(KB, hosts, summary)["summary"]),
    }
    for name, text in outputs.items():
        for step in checks:
            assert f"{step.value} -> {step.value}" not in text, name
            assert f"{step.target} check {step.value} (assumed)" in text, name
