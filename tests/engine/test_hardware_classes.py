"""Hardware classes whose advice differs from their device name's: RAID HBAs with shared host tags, zoned NVMe
namespaces, cloud network volumes on NVMe."""

from __future__ import annotations

import pytest

from iosched.context import Context, device_class
from iosched.engine import advise
from iosched.kb import Kb
from iosched.kernel import KernelVersion


@pytest.mark.parametrize("distro", [None, "rhel8", "rhel9", "sles15sp5", "ubuntu2204", "debian12"])
@pytest.mark.parametrize("workload", ["db", "fileserver", "analytics"])
def test_a_raid_hba_volume_keeps_mq_deadline(kb: Kb, distro: str | None, workload: str) -> None:
    """megaraid_sas and other shared-tag HBAs measured a large write slowdown with none (commit 580dca8143d2)."""
    kernel = None if distro else "6.8"
    plan = advise(kb, Context(hw="raid", workload=workload, distro=distro, kernel=kernel, device="sda"))
    assert plan.scheduler == "mq-deadline", plan.scheduler_rules
    rule = kb.get(plan.scheduler_rules[0])
    assert "lkml-default-elevator-shared-tags" in rule.sources


def test_every_preset_an_nvme_name_can_be_is_planned_on_it(kb: Kb) -> None:
    cls = device_class(kb, "nvme0n2")
    assert cls is not None and {"zns", "ebs"} <= set(cls.hardware)
    for hw in cls.hardware:
        assert advise(kb, Context(hw=hw, workload="db", kernel="6.8", device="nvme0n2")).device == "nvme0n2"


def test_a_zoned_nvme_namespace_keeps_zone_write_order_where_the_kernel_needs_it(kb: Kb) -> None:
    """From ZNS support until zone write plugging, only mq-deadline keeps regular writes in zone order."""
    zns = next(h for h in kb.section("hardware") if h.id == "zns")
    needs = next(r for r in kb.section("rules") if r.id == "IOS107")
    until = next(c.lt for c in needs.when.comparisons() if c.fact == "kernel")
    for kernel in (str(zns.since), "6.8"):
        assert KernelVersion.parse(kernel) < KernelVersion.parse(str(until))
        plan = advise(kb, Context(hw="zns", workload="db", kernel=kernel, device="nvme0n2"))
        assert plan.scheduler == "mq-deadline" and "IOS107" in plan.scheduler_rules
    later = advise(kb, Context(hw="zns", workload="db", kernel=str(until), device="nvme0n2"))
    assert "IOS107" not in later.fired


def test_a_cloud_network_volume_is_told_about_the_nvme_timeout(kb: Kb) -> None:
    param = kb.get("nvme_core.io_timeout")
    assert param is not None
    plan = advise(kb, Context(hw="ebs", workload="db", kernel="6.1", device="nvme1n1"))
    (advice,) = [a for a in plan.advice if a.id == "IOS131"]
    assert "nvme_core.io_timeout" in advice.text and set(param.sources) <= set(advice.sources)
    local = advise(kb, Context(hw="nvme", workload="db", kernel="6.1", device="nvme1n1"))
    assert "IOS131" not in local.fired


def test_a_probed_zoned_or_ebs_namespace_gets_its_class(kb: Kb) -> None:
    """What a host shows (queue/zoned, the model string) maps an NVMe namespace to zns or ebs, which it can plan."""
    from iosched.system.classify import hardware_preset
    from iosched.system.model import Device, Host

    known = [h.id for h in kb.section("hardware")]
    zoned = Device(name="nvme0n2", kind="nvme", zoned="host-managed", rotational=False)
    ebs = Device(name="nvme1n1", kind="nvme", zoned="none", model="Amazon Elastic Block Store")
    smr = Device(name="sdb", kind="disk", zoned="host-managed", rotational=True)
    found = {d.name: hardware_preset(d, Host(virtualization="none"), known) for d in (zoned, ebs, smr)}
    assert found == {"nvme0n2": "zns", "nvme1n1": "ebs", "sdb": "smr"}
    for device in (zoned, ebs):
        hw = found[device.name]
        assert advise(kb, Context(hw=hw, workload="db", kernel="6.8", device=device.name)).device == device.name
