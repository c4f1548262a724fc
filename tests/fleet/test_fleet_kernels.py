"""A fleet plans hosts that differ only in their kernel's patch release (``5.15.0-91-generic`` and
``5.15.0-105-generic``) or in their disks' serial numbers and WWNs once, and each host's plan is still exactly the
plan ``advise`` gives it: its context names the host's own release, serial and WWN, its udev rules match them,
and the rest depends on the kernel version alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_strategies import KB, contexts
from iosched.fleet.ansible_facts import read_facts
from iosched.grammar import SERIAL
from iosched.kernel import KernelVersion
from iosched.knowledge.context import Context, ContextError
from iosched.observe.classify import classified
from iosched.observe.machine import KERNEL_RELEASE
from iosched.planning.engine import advise
from iosched.planning.fleetplan import Planner, plan_set_key
from iosched.planning.hostplan import plan_host
from iosched.records.plan import Plan
from iosched.render.fleet_json import Documents
from iosched.render.formats import HOST, Options
from iosched.render.plan_json import document

CACHE = Path(__file__).resolve().parent / "ansible" / "cache"
SUFFIXES = ["", ".0", "-91-generic", ".0-477.27.1.el8_8.x86_64", "-150500.55.39-default", "+", ".17-1", "abc"]
"""Patch releases as distributions name them (Ubuntu, RHEL, SLES, a local build), and one no version reads."""


def planned(planner: Planner, ctx: Context) -> object:
    """The planner's plan of ``ctx``, or the error it raises (as advise would)."""
    try:
        return planner._advise(KB, ctx)
    except ContextError as exc:
        return str(exc)


def advised(ctx: Context) -> object:
    try:
        return advise(KB, ctx)
    except ContextError as exc:
        return str(exc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctx=contexts(), suffixes=st.lists(st.sampled_from(SUFFIXES), min_size=2, max_size=4))
def test_a_release_is_planned_as_its_version_with_its_own_name(ctx: Context, suffixes: list[str]) -> None:
    version = ctx.kernel or "5.14"
    planner = Planner(KB)
    versions = set()
    for suffix in suffixes:
        host = ctx.replace(kernel=version + suffix)
        found = planned(planner, host)
        assert found == advised(host)
        if not isinstance(found, str):
            assert planned(planner, host) is found  # one object per plan and release
            versions.add(KernelVersion.parse(host.kernel))
    assert len(planner._plans) == len(versions)  # planned once per version


_ids = st.none() | st.from_regex(SERIAL, fullmatch=True) | st.sampled_from(["", "a b", "x;y", "S1\n"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctx=contexts(), ids=st.lists(st.tuples(_ids, _ids), min_size=2, max_size=4),
       suffix=st.sampled_from(SUFFIXES))  # fmt: skip
def test_serials_and_wwns_are_planned_once_with_their_own_udev_match(
    ctx: Context, ids: list[tuple[str | None, str | None]], suffix: str
) -> None:
    planner = Planner(KB)
    documents = Documents(KB, planner)
    for serial, wwn in ids:
        host = ctx.replace(serial=serial, wwn=wwn, kernel=(ctx.kernel or "5.14") + suffix)
        found = planned(planner, host)
        assert found == advised(host)
        if not isinstance(found, Plan):
            continue
        assert planned(planner, host) is found  # one object per plan, release, serial and WWN
        assert documents(found) == document(KB, found)  # a copy's document is made from its origin's
    assert len(planner._plans) <= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(release=st.from_regex(KERNEL_RELEASE, fullmatch=True))
def test_any_release_a_host_may_report_is_planned_as_advise_plans_it(release: str) -> None:
    ctx = Context(hw="ssd", device="sdb", workload="db", distro="rhel-9", kernel=release)
    assert planned(Planner(KB), ctx) == advised(ctx)


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_real_hosts_at_any_patch_release_get_the_plans_advise_gives_them(suffix: str) -> None:
    planner = Planner(KB)
    user = Context(workload="db")
    hosts = [h for h in read_facts(CACHE, planner.distros) if h.system is not None and h.system.host.kernel]
    assert hosts
    for h in hosts:
        assert h.system is not None and h.system.host.kernel is not None
        version = h.system.host.kernel.split("-")[0]
        system = h.system.replace(host=h.system.host.replace(kernel=version + suffix))
        found = planner.host(h.name, system, user).plan
        assert found is not None
        assert found == plan_host(KB, classified(system, planner.distros, planner.presets), user)
        assert {p.context["kernel"] for p in found.plans} <= {version + suffix}
        again = planner.host(h.name + "-again", system, user).plan
        assert again is not None and plan_set_key(again) == plan_set_key(found)


_hostile = st.sampled_from(["S'1\"", "$(reboot)", "a b", "x;y`z`", 'W\\"==', "S1\n", "é"])
"""Serials and WWNs no plan may name: quotes, shell and udev metacharacters, a line break, a non-ASCII letter."""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.integers(min_value=0, max_value=64))
def test_a_host_alike_but_for_its_serials_is_its_own_plan_in_every_format(data: st.DataObject, which: int) -> None:
    """A host whose disks differ from a host planned before only in serials and WWNs (valid, absent or refused)
    gets, by substitution, the plans and the output in every format that planning it alone gives."""
    planner = Planner(KB)
    user = Context(workload="db")
    hosts = [h for h in read_facts(CACHE, planner.distros) if h.system is not None and h.system.devices]
    system = hosts[which % len(hosts)].system
    assert system is not None
    ids = st.none() | st.from_regex(SERIAL, fullmatch=True) | _hostile
    for n in range(3):
        devices = tuple(d.replace(serial=data.draw(ids), wwn=data.draw(ids)) for d in system.devices)
        host = system.replace(devices=devices, host=system.host.replace(hostname=f"h{n}"))
        found = planner.host(f"h{n}", host, user).plan
        alone = plan_host(KB, classified(host, planner.distros, planner.presets), user)
        assert found == alone
        assert found is not None
        for fmt in HOST.names():
            assert HOST.render(KB, found, fmt, Options()) == HOST.render(KB, alone, fmt, Options())
        documents = Documents(KB, planner)
        assert [documents(p) for p in found.plans] == [document(KB, p) for p in alone.plans]
    assert planner.device_plans <= len(system.devices)  # each device planned once, whatever its identifiers
