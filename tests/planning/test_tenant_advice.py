"""Hosts shared by tenants get cgroup I/O advice for the cgroup version their release mounts, and dirty stalls get
the per-device writeback limits of the kernel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError
from iosched.observe.mounts import cgroup_layout, parse_mounts
from iosched.planning.engine import advise


def _tenant_workloads(kb: Kb) -> list[str]:
    found = [w.id for w in kb.section("workloads") if w.facts.get("workload.many_tenants")]
    assert {"vm-host", "container-host"} <= set(found)
    return found


V2_IO_SINCE = (4, 5)
"""The cgroup v2 io controller (Documentation/admin-guide/cgroup-v2.rst); before it only blkio on v1 exists."""


@pytest.mark.parametrize("goal", [None, "fairness"])
def test_shared_hosts_are_told_which_cgroup_io_controls_their_release_has(kb: Kb, goal: str | None) -> None:
    """v2 advice only where the release mounts v2; v1 or the hybrid layout (io controller on v1) gets blkio advice;
    a release whose default is not known is told how to check, never v2-only advice. A host that asks for fairness
    hears the same as a tenant workload."""
    workloads = _tenant_workloads(kb) if goal is None else ["db"]
    for distro in kb.section("distributions"):
        for workload in workloads:
            plan = advise(kb, Context(hw="ssd", workload=workload, distro=distro.id, device="sda", goal=goal))
            advice = {a.id for a in plan.advice}
            if distro.cgroup_default in ("v1", "hybrid") or distro.kernel < V2_IO_SINCE:
                assert "IOS141" in advice and not {"IOS140", "IOS142"} & advice, distro.id
            elif distro.cgroup_default == "v2":
                assert ("IOS140" in advice) == (distro.kernel >= (5, 4)), distro.id
                assert not {"IOS141", "IOS142"} & advice, distro.id
            else:
                assert "IOS142" in advice and not {"IOS140", "IOS141"} & advice, distro.id


def test_ubuntu_before_21_10_keeps_the_io_controller_on_v1(kb: Kb) -> None:
    """Ubuntu 18.04 and 20.04 mount the hybrid layout (io on v1) until 21.10 switched to v2."""
    for distro in kb.section("distributions"):
        if distro.family == "ubuntu" and distro.kernel >= V2_IO_SINCE:
            release = tuple(int(p) for p in distro.name.split()[1].split("."))
            assert distro.cgroup_default == ("v2" if release >= (21, 10) else "hybrid"), distro.id


def test_the_cgroup_advice_names_files_the_kb_describes(kb: Kb) -> None:
    v2 = next(d.id for d in kb.section("distributions") if d.cgroup_default == "v2" and d.kernel >= (5, 4))
    plan = advise(kb, Context(hw="nvme", workload="container-host", distro=v2, device="nvme0n1"))
    (advice,) = [a for a in plan.advice if a.id == "IOS140"]
    for name in ("io.weight", "io.cost.qos", "io.bfq.weight", "io.max", "io.latency"):
        assert kb.get(name) is not None and name in advice.text, name


def test_a_dirty_stall_gets_per_device_writeback_limits_where_the_kernel_has_them(kb: Kb) -> None:
    rule = kb.get("IOS510")
    since = next(c.gte for c in rule.when.comparisons() if c.fact == "kernel")
    new = advise(kb, Context(hw="hdd", workload="batch", kernel=str(since), symptoms="dirty-stall"))
    assert "IOS510" in {a.id for a in new.advice}
    assert "/sys/class/bdi/" in next(a.text for a in new.advice if a.id == "IOS510")
    old = advise(kb, Context(hw="hdd", workload="batch", kernel="5.15", symptoms="dirty-stall"))
    assert "IOS510" not in old.fired


def _per_device_rules(kb: Kb) -> set[str]:
    return {r.id for r in kb.section("rules") if "/sys/class/bdi/" in r.rationale}


def test_a_dirty_stall_gets_writeback_advice_on_every_release(kb: Kb) -> None:
    """Per-device limits where the kernel has them (max_ratio since 2.6.24, max_bytes since 6.2) and the byte
    thresholds on every release: a RHEL 9 or Ubuntu 20.04 host once heard nothing."""
    per_device = _per_device_rules(kb)
    bytes_rules = {r.id for r in kb.section("rules") if "vm.dirty_background_bytes" in r.summary}
    assert len(per_device) >= 2 and bytes_rules
    for distro in kb.section("distributions"):
        plan = advise(kb, Context(hw="hdd", workload="db", distro=distro.id, symptoms="dirty-stall"))
        advice = {a.id: a.text for a in plan.advice}
        assert len(per_device & set(advice)) == 1, distro.id
        assert bytes_rules & set(advice), distro.id
        quiet = advise(kb, Context(hw="hdd", workload="db", distro=distro.id))
        assert not (per_device | bytes_rules) & set(quiet.fired), distro.id


def test_per_device_rules_name_only_files_the_kernel_has(kb: Kb) -> None:
    """Before 6.2 the advice names max_ratio and says max_bytes and strict_limit are missing; from 6.2 it has them."""
    for kernel in ("5.14", "6.1", "6.2", "6.12"):
        plan = advise(kb, Context(hw="hdd", workload="db", kernel=kernel, symptoms="dirty-stall"))
        (text,) = [a.text for a in plan.advice if a.id in _per_device_rules(kb)]
        assert "max_ratio" in text
        assert ("has no max_bytes" in text) == (kernel in ("5.14", "6.1")), kernel


def test_nvme_plans_follow_the_release_default_of_native_multipathing(kb: Kb) -> None:
    """Where a release ships nvme_core.multipath=N (RHEL 8) an NVMe plan says the DM Multipath map is what a shared
    namespace is scheduled on; where it is on, or not known, it says nothing of it."""
    rule = next(r for r in kb.section("rules") if any(c.fact == "distro.nvme_multipath" for c in r.when.comparisons()))
    stated = {d.id: d.nvme_multipath for d in kb.section("distributions") if d.nvme_multipath is not None}
    assert False in stated.values() and True in stated.values()
    for distro in kb.section("distributions"):
        plan = advise(kb, Context(hw="nvme", workload="db", distro=distro.id))
        assert (rule.id in {a.id for a in plan.advice}) == (stated.get(distro.id) is False), distro.id


CAPTURES = Path(__file__).resolve().parents[1] / "observe" / "captures"


def test_the_hierarchy_read_from_a_host_decides_its_cgroup_advice(capsys: pytest.CaptureFixture[str]) -> None:
    """A guest booted with the hybrid layout (its /proc/mounts: blkio on v1 beside systemd's cgroup2 tree) hears
    the v1 controls, not how to find out."""
    root = CAPTURES / "debian12-vm-live"
    mounts = parse_mounts((root / "proc" / "mounts").read_text())
    assert any(m.fstype == "cgroup" and "blkio" in m.options for m in mounts)
    assert any(m.fstype == "cgroup2" and m.mountpoint != "/sys/fs/cgroup" for m in mounts)
    layout = cgroup_layout(mounts)
    assert main(["advise", "--root", str(root), "--workload", "container-host", "--format", "json"]) == 0
    plans = json.loads(capsys.readouterr().out)["plans"]
    assert layout == "hybrid" and plans
    for plan in plans:
        assert plan["context"]["cgroup"] == plan["facts"]["cgroup.version"] == layout
        assert "IOS141" in {a["id"] for a in plan["advice"]} and not {"IOS140", "IOS142"} & set(plan["fired"])


def test_a_layout_said_for_the_host_beats_the_release_default(kb: Kb) -> None:
    for distro in kb.section("distributions"):
        if distro.cgroup_default is None:
            continue
        other = "v1" if distro.cgroup_default == "v2" else "v2"
        plan = advise(kb, Context(hw="ssd", workload="vm-host", distro=distro.id, cgroup=other))
        assert plan.facts["cgroup.version"] == other, distro.id


def test_the_layout_read_is_the_one_the_kernel_mounted() -> None:
    """On this machine: v2 exactly where /sys/fs/cgroup/cgroup.controllers exists (runc's test), hybrid where the
    v2 tree sits beside v1 controllers."""
    layout = cgroup_layout(parse_mounts(Path("/proc/mounts").read_text()))
    assert (layout == "v2") == Path("/sys/fs/cgroup/cgroup.controllers").exists()
    if layout != "v2":
        assert (layout == "hybrid") == Path("/sys/fs/cgroup/unified/cgroup.controllers").exists()


@pytest.mark.parametrize("value", ["v3", "cgroup2", "V2; touch x"])
def test_a_cgroup_layout_outside_the_three_is_refused(kb: Kb, value: str) -> None:
    with pytest.raises(ContextError, match="refusing cgroup"):
        advise(kb, Context(hw="ssd", workload="vm-host", cgroup=value))
