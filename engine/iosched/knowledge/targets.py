"""What a rule action sets: the step kind of a target, and whether a constant value can ever apply.

Pure KB knowledge, below the engine: the engine builds steps with it and ``kb check`` refuses actions that no
context could apply (KB108), without either importing the other.
"""

from __future__ import annotations

from iosched.grammar import WORD, matches
from iosched.knowledge.base import Kb, TunableRef
from iosched.knowledge.rules import Action
from iosched.knowledge.schema import BootParameter, MountOption, QueueAttribute, Sysctl
from iosched.vocab import StepKindName


def step_value(value: object) -> str:
    """A rule value as a step shows and writes it: booleans as ``1``/``0``."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def step_kind_of(kb: Kb, target: str) -> StepKindName | None:
    """The step kind that sets a rule target, or None when the target names nothing settable."""
    if target == "scheduler":
        return "scheduler"
    entity = kb.get(target)
    if isinstance(entity, TunableRef):
        return "tunable"
    if isinstance(entity, BootParameter):
        return "boot-parameter"
    if isinstance(entity, MountOption):
        return "mount-option"
    if isinstance(entity, QueueAttribute):
        return "queue-attribute"
    return "sysctl" if isinstance(entity, Sysctl) else None


def action_problem(kb: Kb, action: Action) -> str | None:
    """Why a rule action cannot apply in any context (None when it can)."""
    if action.to_fact is not None:
        return None
    value, kind = action.to, step_kind_of(kb, action.set)
    if kind is None:
        return f"{action.set!r} is not a scheduler, tunable, queue attribute, sysctl, boot parameter or mount option"
    if kind == "scheduler":
        return None if value in kb.elevators else f"scheduler {value!r} is not an elevator"
    entity = kb.get(action.set)
    if isinstance(entity, BootParameter):
        text = step_value(value)
        ok = (not entity.values or text in entity.values) and matches(WORD, text)
        return None if ok else f"{action.set} does not accept {value!r}"
    if isinstance(entity, MountOption):
        if entity.disables_barriers:
            return f"{action.set} turns write barriers off; a plan never does (say it in a warning instead)"
        return None if value is True else f"mount option {action.set} takes to: true"
    setting = kb.setting(action.set)
    assert setting is not None
    if not setting.writable:
        return f"{action.set} is read-only"
    return None if setting.accepts(value) else f"{action.set} does not accept {value!r}"
