"""The KB's entities that no plan is made of: cgroup files, persistence methods, TuneD profiles, vendor udev
rules, evidence, disagreements, topics and the causes ``iosched diagnose`` names.

The reference pages, ``kb check`` and ``diagnose`` read them; :mod:`iosched.knowledge.schema` holds the rest of the
schema. They are kept apart so that a command that plans does not create their classes:
:data:`iosched.knowledge.kinds.KINDS` names each kind's class, and this module is imported when one of these is first
read.
"""

from __future__ import annotations

from iosched.grammar import Constrain
from iosched.hints import Annotated, Literal
from iosched.knowledge.rules import Condition
from iosched.knowledge.schema import Glob, Id, KernelRange, Number, Path, Scope, Setting, Sourced, Text, Value, Word
from iosched.struct import Invalid, Struct
from iosched.vocab import StepKindName

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


class CgroupFile(Setting):
    """A file of the cgroup v2 I/O controller (``io.weight``, ``io.max`` ...)."""

    policy: Literal["blk-cgroup", "blk-throttle", "blk-iocost", "blk-iolatency", "blk-ioprio", "bfq"]
    format: Text | None = None
    root_only: bool = False
    kconfig: Id | None = None

    @property
    def id(self) -> str:
        return self.name


class PersistenceMethod(Sourced, KernelRange):
    id: Id
    title: Text
    summary: Text
    applies_to: tuple[StepKindName, ...]
    how: Text
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    def check(self) -> None:
        if not self.applies_to:
            raise Invalid("applies_to: name at least one kind of setting", "KB011")


class VersionRange(Struct):
    """A range of package versions (``"2.0"`` to before ``"2.17"``), compared number by number."""

    since: Annotated[str, Constrain(r"\d+(?:\.\d+){0,3}")] | None = None
    until: Annotated[str, Constrain(r"\d+(?:\.\d+){0,3}")] | None = None

    def check(self) -> None:
        if self.since and self.until and _version(self.until) <= _version(self.since):
            raise Invalid(f"versions: until {self.until} is not after since {self.since}", "KB013")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


class ProfileSetting(Struct):
    target: Id
    """As plans name settings: a sysctl (``vm.dirty_ratio``), ``queue.read_ahead_kb``, ``scheduler``."""
    value: Value
    note: Text | None = None


class TunedProfile(Sourced):
    """A TuneD profile and the block and writeback settings it makes effective."""

    id: Id
    name: Id
    summary: Text
    include: Id | None = None
    settings: tuple[ProfileSetting, ...] = ()
    distributions: tuple[Id, ...] = ()
    tuned_versions: VersionRange | None = None
    recommended_when: Text | None = None
    notes: tuple[Text, ...] = ()


class VendorRule(Sourced):
    """A udev rule file a package ships whatever the distribution (IBM's s390-tools, for example)."""

    id: Id
    package: Id
    path: Path
    versions: VersionRange | None = None
    devices: Glob
    sets: tuple[ProfileSetting, ...]
    content: Text | None = None
    note: Text | None = None


class EvidenceRow(Struct):
    label: Text
    values: tuple[Number | None, ...]
    note: Text | None = None


class Evidence(Sourced):
    id: Id
    title: Text
    setup: Text
    hardware: Text
    kernel: Text | None = None
    distribution: Text | None = None
    metric: Text
    unit: Text
    direction: Literal["higher", "lower"]
    columns: tuple[Text, ...]
    rows: tuple[EvidenceRow, ...]
    conclusion: Text
    limitations: tuple[Text, ...] = ()
    related: tuple[Id, ...] = ()

    def check(self) -> None:
        if not self.columns or not self.rows:
            raise Invalid("evidence needs columns and rows", "KB011")
        for row in self.rows:
            if len(row.values) != len(self.columns):
                raise Invalid(f"row {row.label!r} has {len(row.values)} values for {len(self.columns)} columns")


class Disagreement(Struct):
    """A source that contradicts the kernel: the claim, the truth, and both sources."""

    id: Id
    subject: Id
    claim: Text
    claim_sources: tuple[Id, ...]
    truth: Text
    truth_sources: tuple[Id, ...]
    scope: Scope | None = None
    note: Text | None = None

    @property
    def sources(self) -> tuple[str, ...]:
        return self.claim_sources + self.truth_sources

    def check(self) -> None:
        if not self.claim_sources or not self.truth_sources:
            raise Invalid("a disagreement names the sources of both the claim and the truth", "KB011")


class Topic(Sourced, KernelRange):
    """A subject that spans many entities (writeback throttling, stacking ...): one reference page each."""

    id: Id
    title: Text
    summary: Text
    sections: tuple[TopicSection, ...]
    related: tuple[Id, ...] = ()


class TopicSection(Struct):
    title: Text
    text: Text
    sources: tuple[Id, ...] = ()


class CauseExample(Struct):
    """Observed facts and whether the cause is named on them; ``kb check`` verifies each."""

    facts: dict[Annotated[str, Constrain(r"[a-z][a-z0-9_.]{0,63}")], bool | int | float | str]
    expect: Literal["fires", "silent"]


class Cause(Sourced):
    """Why a disk is slow, as ``iosched diagnose`` names it: a condition over observed facts (numbers read
    from iostat, sar, /proc snapshots), the facts it cites as evidence, and the context it gives the plan."""

    id: Annotated[str, Constrain(r"IOD\d{3}")]
    name: Annotated[str, Constrain(r"[a-z0-9][a-z0-9-]*")]
    summary: Text
    priority: int = 50
    """Higher first, when several causes fit one device."""
    when: Condition
    evidence: tuple[Annotated[str, Constrain(r"[a-z][a-z0-9_.]{0,63}")], ...]
    """The facts a diagnosis shows, in this order: those the condition compares only where they make it hold
    (:meth:`shown`), the others (a longest run, a rate) as the numbers that go with them."""
    healthy: bool = False
    """The cause is "no I/O problem here": it leads to no plan."""
    below: bool = False
    """The time is spent below the device, not in its queue: on a stacked device, under what it is built on."""
    plan: dict[Literal["goal", "symptoms", "workload"], Word] = {}  # noqa: RUF012 - Structs are frozen
    """The context the cause gives ``advise`` for this device."""
    advice: Text
    rationale: Text
    examples: tuple[CauseExample, ...]

    def shown(self, facts: Mapping[str, Any]) -> tuple[str, ...]:
        """The evidence this cause shows on ``facts``: a fact its condition compares only where a comparison of it
        makes the condition hold (a branch of an ``any`` that failed shows nothing), every other one that is known."""
        held = {c.fact for c in self.when.holding(facts)}
        compared = {c.fact for c in self.when.comparisons()}
        return tuple(f for f in self.evidence if f in facts and (f in held or f not in compared))

    def check(self) -> None:
        from iosched.knowledge.facts import FACTS
        from iosched.knowledge.rules import unknown_facts

        unknown = sorted({*unknown_facts(self.when), *(f for f in self.evidence if f not in FACTS)})
        if unknown:
            raise Invalid(f"unknown facts {', '.join(unknown)}", "KB105")
        if {e.expect for e in self.examples} != {"fires", "silent"}:
            raise Invalid("examples: give at least one that fires and one that stays silent", "KB110")
        for n, example in enumerate(self.examples, 1):
            if self.when.evaluate(example.facts) != (example.expect == "fires"):
                raise Invalid(f"example {n} expects {example.expect}, but the cause does not agree", "KB109")
