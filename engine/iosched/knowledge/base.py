"""The checked KB: entities by section, a KB-wide id index, and where each came from."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from iosched.kernel import KernelVersion, in_range
from iosched.knowledge.kinds import BY_SECTION, BY_SLUG, KINDS, Kind
from iosched.knowledge.schema import Elevator, Rule, Setting, Tunable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    class IndexQueries(Protocol):
        """What an index of the KB answers without rebuilding a section
        (:class:`iosched.knowledge.kbcache.IndexQueries`);
        None where it cannot say."""

        def rules_that_may_fire(self, facts: Mapping[str, Any]) -> list[str] | None: ...

        def rule_named(self, name: str) -> str | None: ...

        def caveat_scopes(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]] | None: ...

        def elevator_facts(self) -> list[ElevatorFacts] | None: ...

    ElevatorFacts = tuple[str, str, KernelVersion | None, KernelVersion | None, tuple[str, ...]]
    """An elevator's name, I/O path, kernel range (since, until) and aliases."""


class TunableRef:
    """A tunable together with its elevator (tunables are nested in elevators)."""

    __slots__ = ("elevator", "tunable")

    def __init__(self, elevator: Elevator, tunable: Tunable) -> None:
        self.elevator = elevator
        self.tunable = tunable

    @property
    def id(self) -> str:
        return f"{self.elevator.name}.{self.tunable.name}"

    @property
    def sources(self) -> tuple[str, ...]:
        return self.tunable.sources

    @property
    def caveats(self) -> tuple[str, ...]:
        return self.tunable.caveats

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TunableRef) and (self.elevator, self.tunable) == (other.elevator, other.tunable)

    __hash__ = None  # type: ignore[assignment]


class Kb:
    """A validated KB. Build it with :func:`iosched.knowledge.kbload.load`; it never touches the disk itself."""

    def __init__(self, sections: Mapping[str, tuple[Any, ...]], origins: Mapping[str, str] | None = None,
                 version: str = "", where: Mapping[str, str] | None = None,
                 entity: Callable[[str, str], Any | None] | None = None,
                 queries: IndexQueries | None = None) -> None:  # fmt: skip
        """``where`` (id -> section name, as the cache records it) lets :meth:`get` read only the section an
        id lives in, when ``sections`` builds its sections on first use; ``entity(section, id)``, when given,
        rebuilds only the entity an id names (an elevator, for a tunable), or says None; ``queries`` (the
        cache's index) names the rules, caveats and elevators a question may concern, so that only those are
        rebuilt."""
        self.sections = sections
        self.origins = origins if origins is not None else {}
        self.version = version
        self.where = where
        self._entity = entity
        self._queries = queries
        self._index: dict[str, Any] | None = None
        self._by_section: dict[str, dict[str, Any]] = {}
        self._one: dict[str, Any] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Kb) and (dict(self.sections), self.origins, self.version) == (
            dict(other.sections), other.origins, other.version)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Kb(version={self.version!r}, {sum(map(len, self.sections.values()))} entities)"

    @property
    def index(self) -> dict[str, Any]:
        """Every id of the KB (tunables as ``elevator.tunable``) to its entity, in KB order."""
        if self._index is None:
            self._index = {e.id: e for name in self.sections for e in self.section(name)}
            self._index.update((ref.id, ref) for ref in self.tunables())
        return self._index

    def _ids(self, section: str) -> dict[str, Any]:
        """The ids of one section to their entities; the elevators' section holds their tunables too."""
        found = self._by_section.get(section)
        if found is None:
            found = {entity.id: entity for entity in self.section(section)}
            if section == "elevators":
                found.update((ref.id, ref) for ref in self.tunables())
            self._by_section[section] = found
        return found

    def _lookup(self, ident: str) -> Any | None:
        if self._index is None and self.where is not None:
            section = self.where.get(ident)
            if section is None:
                return None
            if section not in self._by_section:
                found = self._one.get(ident) or self._alone(section, ident)
                if found is not None:
                    return found
            found = self._ids(section).get(ident)
            if found is not None:
                return found  # else the index placed the id in another section: every section is read
        return self.index.get(ident)

    def _alone(self, section: str, ident: str) -> Any | None:
        """The entity ``ident`` rebuilt by itself (a command that looks up a few sources need not rebuild a
        thousand); None when it cannot be, and the whole section is read."""
        entity = self._entity(section, ident) if self._entity else None
        if entity is None:
            return None
        if entity.id != ident:
            refs = (TunableRef(entity, t) for t in getattr(entity, "tunables", ()))
            entity = next((ref for ref in refs if ref.id == ident), None)
        if entity is not None:
            self._one[ident] = entity
        return entity

    def _named(self, section: str, ids: list[str] | None) -> Iterable[Any]:
        """The entities of ``section`` that ``ids`` name, in that order; the whole section when ``ids`` is None
        or one of them is not an entity of the section."""
        if ids is None:
            return self.section(section)
        schema = BY_SECTION[section].schema
        found: list[Any] = [self._lookup(ident) for ident in ids]
        if all(type(e) is schema for e in found) and [e.id for e in found] == ids:
            return found
        return self.section(section)

    def rules_that_fire(self, facts: Mapping[str, Any]) -> list[Rule]:
        """The rules whose condition holds on ``facts``, in KB order (the index rebuilds only those whose guard
        holds: :func:`iosched.knowledge.rules.guard`)."""
        ids = self._queries.rules_that_may_fire(facts) if self._queries else None
        return [rule for rule in self._named("rules", ids) if rule.when.evaluate(facts)]

    def rule_named(self, name: str) -> Rule | None:
        """The rule called ``name`` (the index names its id: only that rule is rebuilt)."""
        ident = self._queries.rule_named(name) if self._queries else None
        if ident == "":
            return None
        rule = self._lookup(ident) if ident else None
        if isinstance(rule, Rule) and rule.name == name:
            return rule
        return next((rule for rule in self.section("rules") if rule.name == name), None)

    def caveat_scopes(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        """Each caveat's id, the distributions its scope names and its related ids, in KB order (the index
        has them: no caveat is rebuilt)."""
        found = self._queries.caveat_scopes() if self._queries else None
        if found is None:
            found = [(c.id, c.scope.distributions if c.scope else (), c.related) for c in self.section("caveats")]
        return found

    def id_sections(self) -> dict[str, str]:
        """Every id to the name of the section it lives in (what the cache records as ``where``)."""
        return {i: name for name in self.sections for i in self._ids(name)}

    def section(self, name: str) -> tuple[Any, ...]:
        return self.sections.get(name, ())

    def entities(self, kind: Kind | str) -> tuple[Any, ...]:
        """The entities of a kind (or its slug), in KB order; tunables as :class:`TunableRef`."""
        kind = BY_SLUG[kind] if isinstance(kind, str) else kind
        if kind.section is None:
            return tuple(self.tunables())
        return self.section(kind.section)

    def all(self) -> Iterator[Any]:
        """Every top-level entity, kind by kind."""
        for kind in KINDS:
            if kind.section:
                yield from self.section(kind.section)

    def tunables(self) -> Iterator[TunableRef]:
        for elevator in self.section("elevators"):
            for tunable in elevator.tunables:
                yield TunableRef(elevator, tunable)

    def get(self, ident: str) -> Any | None:
        """Look an id up; rule names and ``elevator=`` style spellings resolve too."""
        found = self._lookup(ident)
        if found is None:
            found = self.rule_named(ident)
        return found if found is not None else self._lookup(ident.rstrip("="))

    @property
    def elevators(self) -> dict[str, Elevator]:
        return {e.name: e for e in self.section("elevators")}

    def elevator_facts(self) -> list[ElevatorFacts]:
        """Each elevator's name, I/O path, kernel range and aliases, in KB order (the index has them: no
        elevator is rebuilt)."""
        found = self._queries.elevator_facts() if self._queries else None
        if found is None:
            found = [(e.name, e.io_path, e.since, e.until, e.aliases) for e in self.section("elevators")]
        return found

    def elevator_names(self) -> list[str]:
        return [name for name, *_ in self.elevator_facts()]

    def elevator(self, name: str) -> Elevator:
        """The elevator called ``name``, rebuilt alone; KeyError when there is none."""
        found = self._lookup(name)
        return found if isinstance(found, Elevator) and found.name == name else self.elevators[name]

    def offered_on(self, kernel: KernelVersion, io_path: str) -> list[str]:
        """The names of the elevators that exist on ``kernel`` for devices on ``io_path``, in KB order."""
        return [name for name, path, since, until, _ in self.elevator_facts()
                if path == io_path and in_range(kernel, since, until)]  # fmt: skip

    def setting(self, ident: str) -> Setting | None:
        """The Setting behind a tunable, queue attribute, sysctl or cgroup file id."""
        entity = self._lookup(ident)
        entity = entity.tunable if isinstance(entity, TunableRef) else entity
        return entity if isinstance(entity, Setting) else None
