"""The KB schema: pydantic models that every YAML fact must satisfy.

Every model is frozen and closed (unknown keys are errors). Every fact carries ``sources``.
Kernel versions are :class:`~iosched.kernel.KernelVersion`, compared as versions.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    StringConstraints,
    model_validator,
)

from iosched.behavior import RangeBehavior, SettingBehavior
from iosched.kernel import KernelVersion
from iosched.rules import Action, Condition, RuleExample

Kernel = Annotated[KernelVersion, BeforeValidator(KernelVersion.parse), PlainSerializer(str, return_type=str)]
Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._=-]{0,79}$")]
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True)]
SourceIds = Annotated[tuple[Id, ...], Field(min_length=1)]
Value = StrictBool | StrictInt | StrictFloat | StrictStr | None

Unit = Literal[
    "ms", "us", "ns", "s", "centisecs", "jiffies",
    "KiB", "bytes", "sectors", "pages",
    "requests", "count", "factor", "percent", "bool", "enum", "name", "string",
]  # fmt: skip
IoPath = Literal["legacy", "blk-mq"]
Risk = Literal["data-loss", "availability", "performance"]
Severity = Literal["recommend", "consider", "warn"]
Goal = Literal["latency", "throughput", "fairness"]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Sourced(Model):
    """A fact: it names at least one source."""

    sources: SourceIds


class Scope(Model):
    """Where a value or statement holds: distributions, kernel range, other conditions."""

    distributions: tuple[Id, ...] = ()
    since: Kernel | None = None
    until: Kernel | None = None
    condition: Text | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.since and self.until and self.until <= self.since:
            raise ValueError(f"until {self.until} is not after since {self.since}")
        return self


class ScopedValue(Sourced):
    """A value that holds within a scope (a distribution, a kernel range, a CONFIG_HZ)."""

    value: Value
    scope: Scope
    note: Text | None = None


class Range(Model, RangeBehavior):
    min: StrictInt | StrictFloat | None = None
    max: StrictInt | StrictFloat | None = None


class Setting(Sourced, SettingBehavior):
    """Common shape of anything with a value: tunables, queue attributes, sysctls."""

    name: Id
    summary: Text
    details: Text | None = None
    unit: Unit
    default: Value
    default_note: Text | None = None
    defaults: tuple[ScopedValue, ...] = ()
    range: Range | None = None
    choices: tuple[StrictStr, ...] = ()
    writable: bool = True
    since: Kernel | None = None
    until: Kernel | None = None
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.since and self.until and self.until <= self.since:
            raise ValueError(f"until {self.until} is not after since {self.since}")
        if self.range and isinstance(self.default, int | float) and not self.range.accepts(self.default):
            raise ValueError(f"default {self.default!r} is outside range {self.range.min}..{self.range.max}")
        if self.choices and isinstance(self.default, str) and self.default not in self.choices:
            raise ValueError(f"default {self.default!r} is not one of {list(self.choices)}")
        return self


class Tunable(Setting):
    """A file in ``queue/iosched/`` of one elevator."""

    jiffies: bool = False
    twin: Id | None = None


class IoPriority(Sourced):
    support: Literal["full", "class-only", "none"]
    since: Kernel | None = None
    note: Text | None = None


class Elevator(Sourced):
    kind: ClassVar[str] = "elevator"
    name: Id
    title: Text
    io_path: IoPath
    added_in: Kernel
    removed_in: Kernel | None = None
    summary: Text
    purpose: Text
    description: Text | None = None
    equivalent: Id | None = None
    aliases: tuple[Id, ...] = ()
    kconfig: Id | None = None
    ioprio: IoPriority
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()
    tunables: tuple[Tunable, ...] = ()

    @property
    def id(self) -> str:
        return self.name

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.removed_in and self.removed_in <= self.added_in:
            raise ValueError(f"removed_in {self.removed_in} is not after added_in {self.added_in}")
        names = [t.name for t in self.tunables]
        if len(names) != len(set(names)):
            raise ValueError("tunable names repeat")
        return self


class QueueAttribute(Setting):
    kind: ClassVar[str] = "queue attribute"

    @property
    def id(self) -> str:
        return f"queue.{self.name}"


class Sysctl(Setting):
    kind: ClassVar[str] = "sysctl"
    pairs_with: Id | None = None

    @property
    def id(self) -> str:
        return self.name


class Effect(Sourced):
    """What a parameter or option does within a kernel range."""

    since: Kernel | None = None
    until: Kernel | None = None
    effect: Literal["works", "legacy-only", "no-op", "warns", "removed", "fails"]
    text: Text


class BootParameter(Sourced):
    kind: ClassVar[str] = "boot parameter"
    name: Id
    summary: Text
    values: tuple[StrictStr, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    @property
    def id(self) -> str:
        return self.name


class MountOption(Sourced):
    kind: ClassVar[str] = "mount option"
    filesystem: Id
    option: Id
    summary: Text
    disables_barriers: bool = False
    default: bool = False
    effects: tuple[Effect, ...] = ()
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.filesystem}.{self.option}"


class DefaultScheduler(Sourced):
    """How a distribution (or kernel) picks the elevator for a class of device."""

    devices: Text
    elevator: Id
    via: Literal["kernel", "kconfig", "udev", "driver", "tuned"]
    io_path: IoPath
    note: Text | None = None


class UdevRuleFile(Sourced):
    path: Text
    content: Text
    note: Text | None = None


class Distribution(Sourced):
    kind: ClassVar[str] = "distribution"
    id: Id
    name: Text
    family: Literal["sles", "opensuse", "rhel", "fedora", "ubuntu", "debian"]
    kernel: Kernel
    scsi_blk_mq: bool = Field(description="SCSI disks use blk-mq by default")
    default_schedulers: tuple[DefaultScheduler, ...] = ()
    udev_rules: tuple[UdevRuleFile, ...] = ()
    grub_update: Text | None = None
    grub_legacy_config: Text | None = None
    persistence: tuple[Id, ...] = ()
    notes: tuple[Text, ...] = ()

    @model_validator(mode="after")
    def _one_boot_loader(self) -> Self:
        if (self.grub_update is None) == (self.grub_legacy_config is None):
            raise ValueError("give exactly one of grub_update (GRUB 2) and grub_legacy_config (GRUB legacy)")
        return self


class PersistenceMethod(Sourced):
    kind: ClassVar[str] = "persistence method"
    id: Id
    title: Text
    summary: Text
    applies_to: tuple[Literal["scheduler", "tunable", "queue-attribute", "sysctl", "boot-parameter",
                              "mount-option"], ...] = Field(min_length=1)  # fmt: skip
    since: Kernel | None = None
    until: Kernel | None = None
    how: Text
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()


class Caveat(Sourced):
    kind: ClassVar[str] = "caveat"
    id: Id
    title: Text
    risk: Risk
    text: Text
    scope: Scope | None = None
    related: tuple[Id, ...] = ()


class EvidenceRow(Model):
    label: Text
    values: tuple[StrictInt | StrictFloat | None, ...]
    note: Text | None = None


class Evidence(Sourced):
    kind: ClassVar[str] = "evidence"
    id: Id
    title: Text
    setup: Text
    hardware: Text
    kernel: Text | None = None
    distribution: Text | None = None
    metric: Text
    unit: Text
    direction: Literal["higher", "lower"]
    columns: tuple[Text, ...] = Field(min_length=1)
    rows: tuple[EvidenceRow, ...] = Field(min_length=1)
    conclusion: Text
    limitations: tuple[Text, ...] = ()
    related: tuple[Id, ...] = ()

    @model_validator(mode="after")
    def _rectangular(self) -> Self:
        for row in self.rows:
            if len(row.values) != len(self.columns):
                raise ValueError(f"row {row.label!r} has {len(row.values)} values for {len(self.columns)} columns")
        return self


class Disagreement(Model):
    """A source that contradicts the kernel: the claim, the truth, and both sources."""

    kind: ClassVar[str] = "disagreement"
    id: Id
    subject: Id
    claim: Text
    claim_sources: SourceIds
    truth: Text
    truth_sources: SourceIds
    scope: Scope | None = None
    note: Text | None = None

    @property
    def sources(self) -> tuple[str, ...]:
        return self.claim_sources + self.truth_sources


class Source(Model):
    kind: ClassVar[str] = "source"
    id: Id
    title: Text
    type: Literal["kernel-source", "kernel-doc", "vendor-doc", "seed", "mailing-list", "article",
                  "tool", "live-system", "manual"]  # fmt: skip
    url: Text | None = None
    path: Text | None = None
    publisher: Text | None = None
    date: Text | None = None
    version: Text | None = None
    note: Text | None = None

    @property
    def sources(self) -> tuple[str, ...]:
        return ()

    @model_validator(mode="after")
    def _locatable(self) -> Self:
        if not (self.url or self.path):
            raise ValueError("a source needs a url or a path")
        return self


class HardwarePreset(Sourced):
    """A class of device for ``--hw``: the facts rules see, and how its driver reaches the block layer."""

    kind: ClassVar[str] = "hardware preset"
    id: Id
    title: Text
    summary: Text
    facts: dict[Id, Value]
    scsi: bool = False
    blk_mq_since: Kernel | None = None
    default_elevator: dict[Literal["legacy", "blk-mq"], Id] = {}
    udev_match: Text
    example_device: Id
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()


class Workload(Sourced):
    kind: ClassVar[str] = "workload"
    id: Id
    title: Text
    summary: Text
    goal: Goal
    facts: dict[Id, Value] = {}
    notes: tuple[Text, ...] = ()


class Assumption(Sourced):
    """What advise assumes when the context does not say."""

    kind: ClassVar[str] = "assumption"
    id: Id
    fact: Id
    value: Value
    text: Text


class Rule(Sourced):
    kind: ClassVar[str] = "rule"
    id: Annotated[str, StringConstraints(pattern=r"^IOS\d{3}$")]
    name: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    summary: Text
    severity: Severity
    priority: int = 50
    when: Condition
    actions: tuple[Action, ...] = ()
    rationale: Text
    caveats: tuple[Id, ...] = ()
    examples: tuple[RuleExample, ...] = Field(min_length=2)


SECTIONS: dict[str, type[Model]] = {
    "sources": Source,
    "elevators": Elevator,
    "queue_attributes": QueueAttribute,
    "sysctls": Sysctl,
    "boot_parameters": BootParameter,
    "mount_options": MountOption,
    "distributions": Distribution,
    "persistence": PersistenceMethod,
    "caveats": Caveat,
    "evidence": Evidence,
    "disagreements": Disagreement,
    "hardware": HardwarePreset,
    "workloads": Workload,
    "rules": Rule,
    "assumptions": Assumption,
}


def entity_id(entity: Any) -> str:
    """The KB-wide id of an entity (``mq-deadline``, ``queue.nr_requests``, ``IOS101`` ...)."""
    return str(entity.id)
