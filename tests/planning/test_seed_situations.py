"""The seeds' situations: advise agrees where the seed still holds and says so where it is outdated."""

from __future__ import annotations

from iosched.knowledge.context import Context
from iosched.planning.engine import advise
from iosched.records.evidence import Evidence


def plan_for(kb, name: str, **more: str):
    return advise(kb, Context.from_mapping({**kb.get(name).context, **more}))


def test_postgres_vm_on_ubuntu_1604_keeps_the_seeds_noop(kb) -> None:
    plan = plan_for(kb, "pg-vm-ubuntu1604")
    assert (plan.scheduler, plan.io_path, plan.kernel) == ("noop", "legacy", "4.4")
    (step,) = [s for s in plan.steps if s.kind == "scheduler"]
    assert "IOS114" in step.because
    assert any("elevator=noop" in a for a in step.alternatives)
    assert "stacked-schedulers-in-vm" in {w.id for w in plan.warnings}


def test_postgres_vm_on_ubuntu_2404_says_noop_and_elevator_are_outdated(kb) -> None:
    plan = plan_for(kb, "pg-vm-ubuntu2404")
    assert (plan.scheduler, plan.io_path) == (None, "blk-mq"), "the number of hardware queues decides (IOS150)"
    assert "IOS150" in {w.id for w in plan.warnings}
    assert not {"IOS120", "IOS121"} & {a.id for a in plan.advice}, "nobody named noop; no udev rule in this plan"
    named = plan_for(kb, "pg-vm-ubuntu2404", scheduler="noop", hw_queues="1")
    assert {"IOS120", "IOS121"} <= {a.id for a in named.advice}, "noop named, and a udev rule that persists"
    assert "IOS121" not in {w.id for w in plan.warnings}  # advice on how to persist, not a warning
    assert not any("elevator=" in a for s in plan.steps for a in s.alternatives)


def test_sles12_ssd_uses_deadline_and_mentions_scsi_mq(kb) -> None:
    plan = plan_for(kb, "sles12sp5-ssd-db")
    assert (plan.scheduler, plan.io_path) == ("deadline", "legacy")
    assert "IOS130" in {a.id for a in plan.advice}


def test_sles12_with_scsi_mq_moves_spinning_disks_to_bfq(kb) -> None:
    plan = plan_for(kb, "sles12sp5-hdd-blk-mq")
    assert (plan.scheduler, plan.io_path) == ("bfq", "blk-mq")


def test_sles11_database_on_ssd_array_prefers_deadline_over_noop(kb) -> None:
    plan = plan_for(kb, "sles11sp1-db-ssd-array")
    assert plan.scheduler == "deadline"
    lost = {(o.rule, o.winner) for o in plan.overridden}
    assert ("IOS115", "IOS116") in lost


def test_desktop_on_kernel_3_0_keeps_cfq(kb) -> None:
    plan = plan_for(kb, "desktop-kernel-3.0")
    assert (plan.scheduler, plan.io_path) == ("cfq", "legacy")


def test_nvme_database_uses_none(kb) -> None:
    plan = plan_for(kb, "nvme-db")
    assert (plan.scheduler, plan.io_path) == ("none", "blk-mq")


def test_a_measured_winner_the_kernel_lacks_loses_and_says_why(kb) -> None:
    plan = advise(kb, Context(hw="nvme", workload="db", kernel="6.8"), Evidence(best="noop"))
    assert plan.scheduler == "none"
    (lost,) = [o for o in plan.overridden if o.rule == "IOS190"]
    assert lost.winner == "IOS101" and "not available" in lost.why
