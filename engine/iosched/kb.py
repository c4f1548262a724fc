"""The checked KB: entities by section, a KB-wide id index, and where each came from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from iosched.kernel import KernelVersion, in_range

SECTION_NAMES = (
    "sources", "elevators", "queue_attributes", "sysctls", "boot_parameters", "mount_options", "distributions",
    "persistence", "caveats", "evidence", "disagreements", "hardware", "workloads", "rules", "assumptions",
)  # fmt: skip


@dataclass(frozen=True)
class TunableRef:
    """A tunable together with its elevator (tunables are nested in elevators)."""

    elevator: Any
    tunable: Any
    kind = "tunable"

    @property
    def id(self) -> str:
        return f"{self.elevator.name}.{self.tunable.name}"

    @property
    def sources(self) -> tuple[str, ...]:
        return self.tunable.sources


@dataclass(frozen=True)
class Kb:
    """A validated KB. Build it with :func:`iosched.kbload.load`; it never touches the disk itself."""

    sections: dict[str, tuple[Any, ...]]
    origins: dict[str, str] = field(default_factory=dict)
    version: str = ""
    index: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.index:
            self.index.update(self._build_index())

    def _build_index(self) -> Iterator[tuple[str, Any]]:
        for entities in self.sections.values():
            for entity in entities:
                yield entity.id, entity
        for elevator in self.section("elevators"):
            for tunable in elevator.tunables:
                ref = TunableRef(elevator, tunable)
                yield ref.id, ref

    def section(self, name: str) -> tuple[Any, ...]:
        return self.sections.get(name, ())

    def get(self, ident: str) -> Any | None:
        """Look an id up; rule names and ``elevator=`` style spellings resolve too."""
        if ident in self.index:
            return self.index[ident]
        for rule in self.section("rules"):
            if rule.name == ident:
                return rule
        return self.index.get(ident.rstrip("="))

    @property
    def elevators(self) -> dict[str, Any]:
        return {e.name: e for e in self.section("elevators")}

    def elevators_on(self, kernel: KernelVersion, io_path: str) -> list[Any]:
        """Elevators that exist on ``kernel`` for devices on ``io_path``."""
        return [
            e for e in self.section("elevators") if e.io_path == io_path and in_range(kernel, e.added_in, e.removed_in)
        ]

    def setting(self, ident: str) -> Any | None:
        """The Setting model behind a tunable, queue attribute or sysctl id."""
        entity = self.index.get(ident)
        return entity.tunable if isinstance(entity, TunableRef) else entity
