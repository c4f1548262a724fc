"""Hosts shared by tenants get cgroup I/O advice for the cgroup version their release mounts, and dirty stalls get
the per-device writeback limits of the kernel."""

from __future__ import annotations

from iosched.context import Context
from iosched.engine import advise
from iosched.kb import Kb


def _tenant_workloads(kb: Kb) -> list[str]:
    found = [w.id for w in kb.section("workloads") if w.facts.get("workload.many_tenants")]
    assert {"vm-host", "container-host"} <= set(found)
    return found


def test_shared_hosts_are_told_which_cgroup_io_controls_their_release_has(kb: Kb) -> None:
    for distro in kb.section("distributions"):
        for workload in _tenant_workloads(kb):
            plan = advise(kb, Context(hw="ssd", workload=workload, distro=distro.id, device="sda"))
            advice = {a.id for a in plan.advice}
            if distro.cgroup_default == "v1":
                assert "IOS141" in advice and "IOS140" not in advice, distro.id
            elif distro.kernel >= (5, 4):
                assert "IOS140" in advice and "IOS141" not in advice, distro.id
            else:
                assert "IOS140" not in advice, distro.id


def test_the_cgroup_advice_names_files_the_kb_describes(kb: Kb) -> None:
    plan = advise(kb, Context(hw="nvme", workload="container-host", kernel="6.8", device="nvme0n1"))
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
    """Before 6.2 the advice names max_ratio and says max_bytes and strict_limit are missing; from 6.2 it offers them."""
    for kernel in ("5.14", "6.1", "6.2", "6.12"):
        plan = advise(kb, Context(hw="hdd", workload="db", kernel=kernel, symptoms="dirty-stall"))
        (text,) = [a.text for a in plan.advice if a.id in _per_device_rules(kb)]
        assert "max_ratio" in text
        assert ("has no max_bytes" in text) == (kernel in ("5.14", "6.1")), kernel
