"""Step kinds: one class per kind of change, owning how it is applied, persisted, verified and undone.

A new kind of step is one class here plus the KB entities it sets; every renderer (Markdown, JSON, sh,
Ansible) and ``iosched verify`` ask these classes, never spell a command themselves. The sh script and the
playbook run each step through one shell library (:mod:`iosched.steps.shell`), which reads the value first,
changes only what differs and keeps what it found; a kind gives it its arguments
(:meth:`~iosched.steps.base.StepKind.converge_args`).
"""

from __future__ import annotations

from iosched.plan import Step
from iosched.steps.base import StepKind
from iosched.steps.boot import BootParameter
from iosched.steps.mount import MountOption
from iosched.steps.sysctl import Sysctl
from iosched.steps.sysfs import QueueAttribute, Scheduler, Tunable
from iosched.vocab import StepKindName

STEP_KINDS: dict[StepKindName, StepKind] = {k.name: k for k in (Scheduler(), Tunable(), QueueAttribute(), Sysctl(),
                                                      MountOption(), BootParameter())}  # fmt: skip
STEP_ORDER: tuple[StepKindName, ...] = tuple(sorted(STEP_KINDS, key=lambda name: STEP_KINDS[name].order))


def kind_of(step: Step) -> StepKind:
    return STEP_KINDS[step.kind]
