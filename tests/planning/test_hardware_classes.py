"""Hardware classes whose advice differs from their device name's: RAID HBAs with shared host tags, zoned NVMe
namespaces, cloud network volumes on NVMe; and every device class planned, skipped with its reason, or sent to its
members."""

from __future__ import annotations

import re

import pytest

from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError, device_class
from iosched.planning.engine import advise
from iosched.planning.hostplan import plan_host
from iosched.records.system import Device, Host, System


def _example(kb: Kb, cls: object) -> str:
    """A whole-device name of a class: its first kernel-name glob with each wildcard filled."""
    for fill in ("0", "a"):
        name = cls.kernel_names[0].replace("*", fill)  # type: ignore[attr-defined]
        found = device_class(kb, name)
        if found is not None and found.id == cls.id:  # type: ignore[attr-defined]
            return name
    raise AssertionError(f"no name of {cls.id} maps back to it")  # type: ignore[attr-defined]


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
    from iosched.observe.classify import hardware_preset
    from iosched.records.system import Device, Host

    known = [h.id for h in kb.section("hardware")]
    zoned = Device(name="nvme0n2", kind="nvme", zoned="host-managed", rotational=False)
    ebs = Device(name="nvme1n1", kind="nvme", zoned="none", model="Amazon Elastic Block Store")
    smr = Device(name="sdb", kind="disk", zoned="host-managed", rotational=True)
    found = {d.name: hardware_preset(d, Host(virtualization="none"), known) for d in (zoned, ebs, smr)}
    assert found == {"nvme0n2": "zns", "nvme1n1": "ebs", "sdb": "smr"}
    for device in (zoned, ebs):
        hw = found[device.name]
        assert advise(kb, Context(hw=hw, workload="db", kernel="6.8", device=device.name)).device == device.name


def test_every_device_class_is_planned_skipped_or_sent_to_its_members(kb: Kb) -> None:
    """Asked about a device by name alone, iosched refuses the classes it does not plan with their reason before it
    asks for --hw, and plans the others on each hardware preset they can be."""
    for cls in kb.section("device_classes"):
        name = _example(kb, cls)
        if cls.plan in ("skip", "members"):
            with pytest.raises(ContextError, match=re.escape(cls.title)):
                advise(kb, Context(device=name, workload="db", kernel="6.8"))
            continue
        for hw in cls.hardware or ("ssd",):
            assert advise(kb, Context(hw=hw, workload="db", kernel="6.8", device=name)).device == name


def test_a_hidden_nvme_path_is_not_taken_for_a_namespace(kb: Kb) -> None:
    path, head = device_class(kb, "nvme0c1n1"), device_class(kb, "nvme0n1")
    assert path is not None and path.plan == "skip" and "linux-nvme-multipath-c" in path.sources
    assert head is not None and head.plan == "device"


@pytest.mark.parametrize("device", ["rbd0", "nbd0"])
def test_a_network_block_device_defaults_by_its_queue_count(kb: Kb, device: str) -> None:
    """One hardware queue (rbd on 4.x, nbd with one connection): mq-deadline; several: none (elevator_get_default);
    before the driver's blk-mq conversion the legacy path."""
    cls = device_class(kb, device)
    assert cls is not None and cls.plan == "device" and cls.blk_mq_since is not None
    one = advise(kb, Context(hw="ssd", workload="db", kernel="6.8", device=device, hw_queues="1"))
    several = advise(kb, Context(hw="ssd", workload="db", kernel="6.8", device=device, hw_queues="8"))
    assert (one.previous_scheduler, several.previous_scheduler) == ("mq-deadline", "none")
    since = KernelVersion.parse(str(cls.blk_mq_since))
    before = "3.19" if since.minor == 0 else f"{since.major}.{since.minor - 1}"  # 3.19 was the last 3.x
    assert advise(kb, Context(hw="ssd", workload="db", kernel=before, device=device)).io_path == "legacy"


def test_a_probed_host_sends_bcache_to_its_members_and_skips_what_it_cannot_plan(kb: Kb) -> None:
    """bcache0 is bio-based (its backing disk is planned); a hidden NVMe path, an unconnected nbd and an rbd image no
    hardware preset describes are skipped, each with its reason."""
    devices = (
        Device(name="sdb", kind="disk", rotational=True, scheduler="mq-deadline", holders=("bcache0",), hw="hdd"),
        Device(name="bcache0", kind="other", scheduler="none", slaves=("sdb",)),
        Device(name="nvme0c0n1", kind="nvme", scheduler="none", hw="nvme"),
        Device(name="rbd0", kind="other", scheduler="none", nr_hw_queues=4, size_bytes=10**10),
        Device(name="nbd3", kind="other", scheduler="mq-deadline", size_bytes=0),
    )
    system = System(host=Host(kernel="6.8.0", virtualization="none"), devices=devices)
    host = plan_host(kb, system, Context(workload="db"))
    assert [p.device for p in host.plans] == ["sdb"]
    reasons = {s.device: s.reason for s in host.skipped}
    assert "bcache" in reasons["bcache0"] and "sdb" in reasons["bcache0"]
    assert reasons["nvme0c0n1"].startswith(str(device_class(kb, "nvme0c0n1").title))  # type: ignore[union-attr]
    assert "--device rbd0 --hw" in reasons["rbd0"]
    assert "size 0" in reasons["nbd3"]
