"""What the kernel gives a zoned device with no tuning follows the kernel facts of its version: the elevator the
driver required (zoned write ordering, until zone write plugging in 6.10) whatever the queue count, then the plain
default; and a plan made from flags on a release row agrees with them."""

from __future__ import annotations

import pytest

from iosched.kernel import KernelVersion
from iosched.knowledge.context import Context
from iosched.planning.engine import advise


def _required(kb) -> list[tuple[str, object]]:
    return [(h.id, r) for h in kb.section("hardware") for r in h.required_elevator]


def _before(version: KernelVersion) -> str:
    return f"{version.major}.{version.minor - 1}"


def test_the_kb_knows_a_requirement_that_ends(kb) -> None:
    assert any(r.until is not None for _, r in _required(kb))


@pytest.mark.parametrize("queues", [None, "1", "8"])
def test_a_required_elevator_holds_whatever_the_queue_count(kb, queues: str | None) -> None:
    for hw, required in _required(kb):
        if required.until is None:
            continue
        context = {"hw_queues": queues} if queues else {}
        plan = advise(kb, Context(hw=hw, workload="db", kernel=_before(required.until), **context))
        assert plan.previous_scheduler == required.elevator, (hw, queues)


def test_after_the_requirement_the_plain_default_holds(kb) -> None:
    for hw, required in _required(kb):
        if required.until is None:
            continue
        preset = kb.get(hw)
        plan = advise(kb, Context(hw=hw, workload="db", kernel=str(required.until)))
        assert plan.previous_scheduler == preset.default_elevator[required.io_path], hw


def test_release_rows_plan_what_the_kernel_of_the_release_gives(kb) -> None:
    """Each release whose kernel is past a requirement plans the device from the plain default: no needless
    change is assumed (Debian 13 and RHEL 10 on 6.12 once gave a ZNS namespace mq-deadline)."""
    checked = 0
    for hw, required in _required(kb):
        preset = kb.get(hw)
        for distro in kb.section("distributions"):
            if required.holds_on(distro.kernel) or distro.kernel < (required.until or distro.kernel):
                continue
            rotational = bool(preset.facts.get("hw.rotational"))
            rows = [r for r in distro.default_schedulers
                    if r.applies(hw, preset.example_device, rotational, required.io_path, distro.kernel)]  # fmt: skip
            if any(r.via != "kernel" for r in rows):
                continue
            plan = advise(kb, Context(hw=hw, workload="db", distro=distro.id))
            assert plan.previous_scheduler == preset.default_elevator[required.io_path], (hw, distro.id)
            checked += 1
    assert checked
