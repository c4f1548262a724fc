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
