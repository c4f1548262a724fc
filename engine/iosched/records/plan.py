"""The plan advise returns: ordered steps (what, why, and from which rules), warnings, and the files that
persist them. How each step is applied, persisted, verified and undone belongs to its step kind
(:mod:`iosched.steps`), so every renderer asks the same code."""

from __future__ import annotations

from collections.abc import Sequence

from iosched.struct import Struct
from iosched.vocab import CurrentFrom, Severity, StepKindName, StepSeverity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 3


class Choice(Struct):
    """One case of a decision made on the machine: where the device is in case ``case`` (as a person sees it:
    ``seen``), the step sets ``value`` (``-``: changes nothing), by the rules ``because``."""

    case: str
    seen: str
    value: str
    because: tuple[str, ...]


class Decision(Struct):
    """A value the target decides when the step runs, by a fact it reads then (:mod:`iosched.records.runtime`)."""

    fact: str
    reader: str
    """What a person runs to read the fact on this device (``ls /sys/block/vda/mq/``)."""
    choices: tuple[Choice, ...]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(c.value for c in self.choices)


class Step(Struct):
    """One change: what, on which device (None: the whole host), why, and the value it replaces."""

    kind: StepKindName
    target: str
    """As the KB names it: ``scheduler``, ``mq-deadline.read_expire``, ``queue.read_ahead_kb``, ``vm.dirty_ratio``."""
    value: str
    title: str
    because: tuple[str, ...]
    reasons: tuple[str, ...]
    sources: tuple[str, ...]
    device: str | None = None
    previous: str | None = None
    severity: StepSeverity = "recommend"
    persist_method: str = ""
    mountpoint: str | None = None
    confirm: str | None = None
    """The measurement that would confirm the change helps (for settings proposed on general guidance)."""
    alternatives: tuple[str, ...] = ()
    current_from: CurrentFrom = "assumed"
    """Whether ``previous`` was read from the machine (``observed``) or assumed (the plan's assumption
    ``assumption``): an assumed value is checked on the device when the step runs, never taken for granted."""
    assumption: str | None = None
    coupled: tuple[str, ...] = ()
    """Settings the kernel resets when this one is written (writing ``vm.dirty_ratio`` zeroes
    ``vm.dirty_bytes``): journals keep them with it and restore the group."""
    decide: Decision | None = None
    """Where the value depends on a fact the target reads when the step runs: each case and its value (``value``
    is then the token the shell library decides, :func:`iosched.records.runtime.token`)."""

    @property
    def values(self) -> tuple[str, ...]:
        """Every value the step may set: its own, or, decided on the machine, each case's that changes something."""
        if self.decide is None:
            return (self.value,)
        return tuple(v for v in self.decide.values if v != "-")

    @property
    def shown(self) -> str:
        """The value as people read it: decided on the machine, each case's (``mq-deadline (one entry) or none
        (several)``)."""
        if self.decide is None:
            return self.value
        return " or ".join(f"{c.value} ({c.seen})" for c in self.decide.choices if c.value != "-")

    @property
    def expected_already(self) -> bool:
        """An assumed current value equal to the plan's: the step checks the device and changes it only if
        it differs."""
        return self.current_from == "assumed" and self.previous == self.value


class Notice(Struct):
    """A warning or a piece of advice, with the risk it is about (None for advice)."""

    id: str
    severity: Severity
    text: str
    risk: str | None = None
    sources: tuple[str, ...] = ()
    detail: str | None = None
    """What of ``text`` is about this device alone (the setter that overrides it): an answer about several devices
    says the warning once and this per device."""


class Overridden(Struct):
    """A rule that lost a conflict (or could not apply), and why."""

    rule: str
    target: str
    value: str
    winner: str | None
    why: str


class Assumption(Struct):
    """A fact the plan takes without reading it; ``fact`` is its id (``scheduler.now``, ``vm.dirty_ratio.now``)."""

    fact: str
    value: str
    text: str
    sources: tuple[str, ...] = ()


class Unchanged(Struct):
    """A setting a rule chose that the device was read to have already: said, not done (``step`` is what it
    would be). A value only assumed to be there is a step (:attr:`Step.expected_already`), never this.

    ``at_boot`` is what the device would get at boot without iosched's files: when it differs, the value holds
    only as long as something persists it."""

    step: Step
    at_boot: str | None = None


class TunedBase(Struct):
    """The TuneD profiles active on the host (read from it), which a TuneD profile of iosched includes, and the
    ``[disk]`` options the unit that has the plan's disk sets (``readahead: ">4096"``), which it carries on when it
    takes the disk over: TuneD tunes each disk with one ``[disk]`` unit only."""

    profiles: tuple[str, ...]
    disk: dict[str, str]
    priority: int = -1
    """The ``priority`` of iosched's unit for the plan's disk: -1 (before the included ``[disk]`` unit, priority
    0), or lower than the included section limited to the disk, so that TuneD gives the disk to iosched's unit."""


class Plan(Struct):
    """The plan for one device."""

    scheduler: str | None
    scheduler_rules: tuple[str, ...]
    device: str
    io_path: str
    kernel: str
    steps: tuple[Step, ...]
    warnings: tuple[Notice, ...]
    advice: tuple[Notice, ...]
    overridden: tuple[Overridden, ...]
    assumptions: tuple[Assumption, ...]
    context: dict[str, Any]
    facts: dict[str, Any]
    fired: tuple[str, ...]
    previous_scheduler: str | None = None
    unchanged: tuple[Unchanged, ...] = ()
    udev_match: str = ""
    """The udev terms that select this device (its serial or WWN when known, else its kernel name)."""
    measured: tuple[str, ...] = ()
    kb_version: str = ""
    iosched_version: str = ""
    schema_version: int = SCHEMA_VERSION
    sources: tuple[str, ...] = ()
    tuned: TunedBase | None = None
    """The active TuneD profiles, when the host runs TuneD: what a TuneD profile of iosched builds on."""

    @property
    def names_device(self) -> bool:
        """Whether the plan is for one device the user named (by kernel name, serial or WWN); else its ``device``
        is an example and its persistent files cover every disk of its preset."""
        return any(self.context.get(k) for k in ("device", "serial", "wwn"))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = plain(self)
        return data


def host_steps(plans: Sequence[Plan]) -> list[Step]:
    """Every step of a host once: host-wide steps (sysctls) come from several device plans alike."""
    seen: dict[tuple[str | None, str], Step] = {}
    for plan in plans:
        for step in plan.steps:
            seen.setdefault((step.device, step.target), step)
    return list(seen.values())


def unattended(step: Step) -> bool:
    """Whether scripts and playbooks apply a step without being asked: ``consider`` steps need an opt-in."""
    return step.severity != "consider"


def plain(value: Any) -> Any:
    """A plan value as JSON-ready data."""
    if type(value) in _SCALARS:  # most values of a plan: told first, by one look-up
        return value
    if isinstance(value, Struct):
        return {name: plain(v) for name, v in zip(value.__fields__, type(value).__values__(value), strict=True)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})
