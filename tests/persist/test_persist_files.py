"""Which steps each persistent file keeps: what the sh and Ansible renderers ask of every file of a host, with
work that grows with the host's steps, not with its steps times its files (a storage server has a rules file
per disk)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine_strategies import KB, contexts
from iosched import persist
from iosched.knowledge.context import Context, ContextError
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.engine import advise
from iosched.planning.hostplan import plan_host
from iosched.records.plan import Plan
from iosched.render import plan_ansible, plan_shell


@given(st.lists(contexts(), min_size=1, max_size=4))
def test_a_file_keeps_the_steps_that_alone_would_be_written_to_it(found: list[Context]) -> None:
    """The definition, step by step: a step is kept by the files it is written to when it is the one kept."""
    try:
        plans = [advise(KB, context) for context in found]
        every = persist.files(plans)
    except (ContextError, persist.PersistError):
        assume(False)
    kept = persist.kept_by(plans)
    for path in {*every, *kept}:
        alone = [step for plan in plans for step in plan.steps if path in persist.files(plans, step.__eq__)]
        assert kept.get(path, []) == alone, path


CAPTURES = sorted(p for p in (Path(__file__).parents[1] / "observe" / "captures").iterdir() if p.is_dir())


def host_plans(capture: Path, workload: str | None) -> tuple[Plan, ...]:
    distros, hardware = {d.id for d in KB.section("distributions")}, {h.id for h in KB.section("hardware")}
    return plan_host(KB, classified(read_root(capture), distros, hardware), Context(workload=workload)).plans


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.name)
def test_a_captured_hosts_files_keep_the_steps_that_alone_would_be_written_to_them(capture: Path) -> None:
    """The same on real hosts, whose plans share a TuneD profile where the host runs TuneD."""
    for workload in ("db", "streaming", None):
        plans = host_plans(capture, workload)
        kept = persist.kept_by(plans)
        for path in {*persist.files(plans), *kept}:
            alone = [step for plan in plans for step in plan.steps if path in persist.files(plans, step.__eq__)]
            assert kept.get(path, []) == alone, (workload, path)


def test_some_captured_host_shares_a_tuned_profile_among_its_plans() -> None:
    """What the test above is for: a host whose plans persist in one TuneD profile (sos-rhel7-physical-hdd)."""
    shared = [c.name for c in CAPTURES if sum(p.tuned is not None for p in host_plans(c, "db")) > 1]
    assert shared, "no capture runs TuneD on two planned devices"


def disks(count: int) -> list[Plan]:
    names = [f"sd{a}{b}" for a in "abc" for b in "abcdefghijklmnopqrstuvwxyz"][:count]
    return [advise(KB, Context(hw="hdd", workload="db", kernel="6.12", device=name)) for name in names]


@pytest.mark.parametrize("render", [plan_shell.render, lambda kb, plans: plan_ansible.render(kb, [("db1", plans)])])
def test_rendering_a_host_places_each_step_once_among_the_plans_that_hold_it(render, monkeypatch) -> None:
    """Twice the disks, twice the placing: the plans :func:`persist.files` looks at, summed over its calls, grew
    four times (each file asked where every step goes, among every plan), then still twice as fast as the disks
    (every step placed among every plan): a host with a hundred disks took ten seconds to render as a script or
    playbook, four hundred disks over a second."""
    looked_at = []
    files = persist.files
    monkeypatch.setattr(persist, "files", lambda plans, *more: looked_at.append(len(plans)) or files(plans, *more))
    made = {}
    for count in (10, 20):
        looked_at.clear()
        render(KB, disks(count))
        made[count] = sum(looked_at)
    assert made[10] >= 10 and made[20] <= 2 * made[10] + 2 * 20, made
