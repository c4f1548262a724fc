"""Caveats only where they hold, and value steps that compare with the default of that kernel and device."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError
from iosched.planning.engine import advise
from iosched.records.system import Tuner

KERNELS = ("4.12", "5.10", "5.14", "6.8", "6.18")


ELEVATOR_PARAM = (Tuner(kind="kernel-cmdline", name="/proc/cmdline", settings={"scheduler": "noop"}),)
"""A host booted with elevator=noop: what caveats about elevator= and about noop are about."""


def _plans(kb: Kb) -> Iterator[tuple[Context, Any]]:
    distros = [None, *(d.id for d in kb.section("distributions"))]
    for hw in kb.section("hardware"):
        for distro in distros:
            for workload in ("db", "streaming"):
                kernels = (None,) if distro else KERNELS
                for kernel, tuners in ((k, t) for k in kernels for t in ((), ELEVATOR_PARAM)):
                    ctx = Context(hw=hw.id, distro=distro, workload=workload, kernel=kernel)
                    try:
                        yield ctx, advise(kb, ctx, current={} if tuners else None, tuners=tuners)
                    except ContextError:
                        continue


def test_a_caveat_reaches_only_plans_its_scope_holds_for(kb: Kb) -> None:
    """Distribution, kernel range and the scope's condition on the plan's facts: a RAID caveat is not printed for a
    virtio disk, a RHEL caveat not where no distribution was given."""
    seen = 0
    for ctx, plan in _plans(kb):
        for warning in plan.warnings:
            caveat = kb.get(warning.id)
            scope = getattr(caveat, "scope", None) if hasattr(caveat, "risk") else None
            if scope is None:
                continue
            seen += 1
            where = (ctx.hw, ctx.distro, plan.kernel, warning.id)
            if scope.distributions:
                assert kb.get(ctx.distro).lineage.intersection(scope.distributions), where
            assert scope.holds_on(KernelVersion.parse(plan.kernel)), where
            assert scope.when is None or scope.when.evaluate(plan.facts), where
    assert seen > 0


def test_a_caveat_is_shown_only_where_its_subject_is(kb: Kb) -> None:
    """Every caveat says what it is about (kb check: KB117); a plan shows it only where that holds on the plan's
    facts and steps: no barrier caveat without a barrier-off mount or a barrier step, no elevator= caveat without
    elevator=, no virtio caveat for a Xen disk."""
    shown = 0
    for ctx, plan in _plans(kb):
        planned = {**plan.facts, "plan.targets": frozenset(s.target for s in plan.steps),
                   "plan.kinds": frozenset(s.kind for s in plan.steps),
                   "plan.persist": frozenset(s.persist_method for s in plan.steps),
                   "plan.scheduler": plan.scheduler or plan.previous_scheduler}  # fmt: skip
        for warning in plan.warnings:
            subject = getattr(kb.get(warning.id), "subject", None)
            if subject is not None:
                shown += 1
                assert subject.evaluate(planned), (ctx, warning.id)
    assert shown > 0


def test_every_caveat_condition_can_hold_somewhere(kb: Kb) -> None:
    """A scope condition written in facts is satisfiable by some plan: none hides its caveat for good."""
    scoped = {c.id for c in kb.section("caveats") if c.scope is not None and c.scope.when is not None}
    shown = {w.id for _, plan in _plans(kb) for w in plan.warnings}
    assert scoped and scoped <= shown, sorted(scoped - shown)


def _raising_targets(kb: Kb) -> set[str]:
    return {a.set for rule in kb.section("rules") for a in rule.actions if a.only == "raise"}


def test_a_raising_step_never_lowers_the_default_of_that_kernel(kb: Kb) -> None:
    """A read-ahead step on a 6.17+ rotational disk, whose default is 2 x max_sectors_kb, is not a decrease."""
    targets = _raising_targets(kb)
    assert "queue.read_ahead_kb" in targets
    for _, plan in _plans(kb):
        for step in plan.steps:
            if step.target in targets and step.previous is not None:
                assert float(step.value) > float(step.previous), (plan.kernel, plan.facts.get("hw"), step)


def test_the_previous_value_is_the_scoped_default_of_that_kernel_and_device(kb: Kb) -> None:
    """The value a step replaces (and its undo restores) is the KB's default for the kernel and device."""
    setting = kb.setting("queue.read_ahead_kb")
    rotational_618 = [d.value for d in setting.defaults if d.scope.since and d.scope.when is not None
                      and d.scope.when.evaluate({"hw.rotational": True})]  # fmt: skip
    assert rotational_618 == [8192]
    hdd = advise(kb, Context(hw="hdd", workload="streaming", kernel="6.18", device="sdb"))
    assert not [s for s in hdd.steps if s.target == "queue.read_ahead_kb"]
    (lost,) = [o for o in hdd.overridden if o.target == "queue.read_ahead_kb"]
    assert str(rotational_618[0]) in lost.why
    ssd = advise(kb, Context(hw="ssd", workload="streaming", kernel="6.18", device="sdb"))
    (step,) = [s for s in ssd.steps if s.target == "queue.read_ahead_kb"]
    assert step.previous == str(setting.default)


def test_a_value_read_from_the_device_beats_the_default(kb: Kb) -> None:
    """A user who raised read-ahead to 16384 is not lowered to 4096."""
    ctx = Context(hw="ssd", workload="streaming", kernel="6.8", device="sdb")
    plan = advise(kb, ctx, current={"queue.read_ahead_kb": "16384"})
    assert not [s for s in plan.steps if s.target == "queue.read_ahead_kb"]
    assert not [u for u in plan.unchanged if u.step.target == "queue.read_ahead_kb"]


def test_a_caveat_summary_is_one_or_two_sentences_and_the_ticket_shows_it(kb: Kb) -> None:
    from iosched.render.plan_markdown import render as render_markdown

    summarised = [c for c in kb.section("caveats") if c.summary]
    assert summarised
    for caveat in summarised:
        sentences = [s for s in caveat.summary.replace("e.g.", "eg").split(". ") if s.strip()]
        assert len(sentences) <= 2 and len(caveat.summary) < len(caveat.text), caveat.id
    plan = advise(kb, Context(hw="virtual", workload="db", distro="ubuntu2404", device="vda"))
    text = render_markdown(kb, plan)
    shown = [c for c in (kb.get(w.id) for w in plan.warnings) if hasattr(c, "risk") and c.summary]
    assert shown
    for caveat in shown:
        assert caveat.summary in text and caveat.text not in text, caveat.id


def test_caveats_carry_the_device_classes_they_are_about(kb: Kb) -> None:
    """A Xen xvd disk does not get SLES 12's SCSI legacy-path caveat, a SCSI disk does; a KVM guest's virtio disk
    whose queue count is unknown hears that it is decided on the machine (IOS150)."""
    from iosched.planning.engine import HOST_VIRT

    def ids(device: str, virt: str | None = None, distro: str = "sles12sp5", queues: str | None = "4") -> set[str]:
        ctx = Context(hw="virtual", distro=distro, workload="db", device=device, hw_queues=queues)
        current = {HOST_VIRT: virt} if virt else None
        return {w.id for w in advise(kb, ctx, current=current).warnings}

    assert "sles12-scsi-legacy-path" not in ids("xvda")
    assert "sles12-scsi-legacy-path" in ids("sda")
    assert "IOS150" in ids("vda", "kvm", "rhel9", None)


def test_a_host_read_without_elevator_param_hears_nothing_of_it(kb: Kb) -> None:
    """What the host has decides: a host whose command line was read and holds no elevator= gets no warning or
    advice about elevator= (the plan from flags, which cannot know, still does)."""
    heard = 0
    for hw in kb.section("hardware"):
        for distro in (d.id for d in kb.section("distributions")):
            ctx = Context(hw=hw.id, distro=distro, workload="db")
            try:
                flags, read = advise(kb, ctx), advise(kb, ctx, current={}, tuners=())
            except ContextError:
                continue
            heard += sum("elevator=" in n.text for n in (*flags.warnings, *flags.advice))
            about = [n.id for n in (*read.warnings, *read.advice) if "elevator=" in n.text]
            assert not about, (hw.id, distro, about)
    assert heard > 0
