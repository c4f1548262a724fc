"""A virtual disk is advised from what it is (its number of hardware queues), never from the distribution's name.

One queue: the kernel's default and the vendor's advice, mq-deadline; several: none; not known: no change, and a
warning that names both answers and how to count the queues. Captures of a guest decide from its /sys/block/X/mq/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from captured import copy_capture
from iosched.cli import main
from iosched.kernel import KernelVersion
from iosched.knowledge.context import Context, resolve
from iosched.planning.engine import advise

CAPTURES = Path(__file__).resolve().parents[1] / "observe" / "captures"
GUEST = CAPTURES / "debian12-vm-live"


def _rule_target(kb, rule_id: str) -> str:
    (action,) = kb.get(rule_id).actions
    return str(action.to)


def _blk_mq_distributions(kb) -> list[str]:
    """Distributions whose default kernel drives virtio disks on blk-mq (the legacy path is gone since 5.0)."""
    return [d.id for d in kb.section("distributions") if d.kernel >= KernelVersion.parse("5.0")]


def _scheduler(kb, **context: str) -> tuple[str | None, set[str]]:
    """The scheduler the plan leaves the device with, and the rules that fired."""
    plan = advise(kb, Context(hw="virtual", workload="db", device="vda", **context))
    return plan.scheduler, set(plan.fired)


@pytest.mark.parametrize("queues", ["1", "2", "8"])
def test_one_answer_per_kind_of_guest_disk_whatever_the_distribution(kb, queues: str) -> None:
    single = _rule_target(kb, "IOS119")
    several = _rule_target(kb, "IOS105")
    expected = single if queues == "1" else several
    answers = {d: _scheduler(kb, distro=d, hw_queues=queues)[0] for d in _blk_mq_distributions(kb)}
    assert answers, "the KB has distributions with blk-mq kernels"
    assert set(answers.values()) == {expected}, answers


def test_unknown_queues_are_decided_on_the_machine(kb) -> None:
    """Without the count, a release whose kernel offers both elevators gets a scheduler step with both cases
    (IOS119's mq-deadline for one queue, IOS105's none for several) and IOS150 saying the plan decides."""
    warning = kb.get("IOS150")
    assert warning.severity == "warn" and not warning.actions
    assert "/sys/block/DEV/mq" in warning.rationale
    for distro in _blk_mq_distributions(kb):
        plan = advise(kb, Context(hw="virtual", workload="db", device="vda", distro=distro))
        if "mq-deadline" not in resolve(kb, Context(hw="virtual", device="vda", distro=distro)).offered:
            continue
        (step,) = [s for s in plan.steps if s.kind == "scheduler"]
        assert step.decide is not None and step.values == ("mq-deadline", "none"), distro
        assert "IOS150" in plan.fired and {"IOS105", "IOS119"} <= set(step.because), distro


def test_the_kernel_default_follows_the_queue_count(kb) -> None:
    """Several hardware queues give none at boot (elevator_get_default) unless a udev rule or TuneD sets it."""
    plan = advise(kb, Context(hw="virtual", workload="db", device="vda", distro="debian12", hw_queues="4"))
    assert plan.previous_scheduler == "none"
    plan = advise(kb, Context(hw="virtual", workload="db", device="vda", distro="debian12", hw_queues="1"))
    assert plan.previous_scheduler == "mq-deadline"


@pytest.mark.parametrize("bad", ["0", "-1", "four", "1.5", "99999999"])
def test_a_queue_count_that_is_not_a_count_is_refused(bad: str, capsys) -> None:
    code = main(["advise", "--hw", "virtual", "--device", "vda", "--hw-queues", bad])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "hw_queues" in err


def _plan_of_capture(root: Path, capsys) -> dict:
    assert main(["advise", "--root", str(root), "--workload", "db", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    return next(p for p in document["plans"] if p["device"] == "vda")


def _scheduler_of(plan: dict) -> str:
    steps = [s for s in plan["steps"] if s["kind"] == "scheduler"]
    kept = [u["step"] for u in plan["unchanged"] if u["step"]["kind"] == "scheduler"]
    return (steps or kept)[0]["value"]


def test_a_captured_guest_is_decided_from_its_mq_directory(kb, tmp_path: Path, capsys) -> None:
    queues = sorted(p.name for p in (GUEST / "sys/block/vda/mq").iterdir())
    assert queues == ["0"], "the capture is of a single-queue virtio disk"
    assert _scheduler_of(_plan_of_capture(GUEST, capsys)) == _rule_target(kb, "IOS119")

    root = copy_capture(GUEST.name, tmp_path / "guest", vda=4)
    plan = _plan_of_capture(root, capsys)
    assert plan["context"]["hw_queues"] == "4"
    assert _scheduler_of(plan) == _rule_target(kb, "IOS105")
