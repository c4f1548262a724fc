"""The plan advise returns: ordered steps with commands, persistence, verification and undo."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

StepKind = Literal["scheduler", "tunable", "queue-attribute", "sysctl", "mount-option", "boot-parameter"]
STEP_ORDER: tuple[StepKind, ...] = ("scheduler", "tunable", "queue-attribute", "sysctl", "mount-option",
                                    "boot-parameter")  # fmt: skip
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Step:
    """One change: what, why, and the commands to apply, persist, verify and undo it."""

    kind: StepKind
    target: str
    value: str
    title: str
    because: tuple[str, ...]
    reasons: tuple[str, ...]
    sources: tuple[str, ...]
    command: str
    persist: str
    persist_method: str
    verify: str
    expect: str
    undo: str
    previous: str | None = None
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class Warning:
    id: str
    severity: Literal["recommend", "consider", "warn"]
    text: str
    risk: str | None = None
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class Overridden:
    """A rule that lost a conflict (or could not apply), and why."""

    rule: str
    target: str
    value: str
    winner: str | None
    why: str


@dataclass(frozen=True)
class Assumption:
    fact: str
    value: str
    text: str
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class Plan:
    scheduler: str | None
    scheduler_rules: tuple[str, ...]
    device: str
    io_path: str
    kernel: str
    steps: tuple[Step, ...]
    warnings: tuple[Warning, ...]
    advice: tuple[Warning, ...]
    overridden: tuple[Overridden, ...]
    assumptions: tuple[Assumption, ...]
    files: dict[str, str]
    context: dict[str, Any]
    facts: dict[str, Any]
    fired: tuple[str, ...]
    measured: tuple[str, ...] = ()
    kb_version: str = ""
    iosched_version: str = ""
    schema_version: int = SCHEMA_VERSION
    sources: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
