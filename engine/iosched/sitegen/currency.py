"""What is current: a removed thing's marker and search rank, and the old names that lead to its successor.

Search ranks a page by its front matter (mkdocs-material's ``search.boost`` and ``tags``; tags weigh most in
its index and are not shown without the tags plugin): a current page carries its own names and the names of
what it replaced as tags, a removed one is boosted down, so a search for ``noop`` or ``slice_idle`` opens the
current page first and the removed one after it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from iosched.knowledge.base import TunableRef
from iosched.knowledge.kinds import Kind, kind_of
from iosched.render.reference import Style, ref

if TYPE_CHECKING:
    from iosched.kernel import KernelVersion
    from iosched.knowledge.base import Kb

NAMED = frozenset({"elevators", "tunables", "queue-attributes", "sysctls", "boot-parameters", "distributions"})
"""Kinds whose pages are what a search for their name means (a rule's or cause's name is not)."""
REMOVED_BOOST = 0.1
CURRENT_BOOST = 2


def removed_in(entity: Any) -> KernelVersion | None:
    """The first kernel without the thing (a tunable goes with its elevator); None while it is current."""
    if isinstance(entity, TunableRef):
        ends = [v for v in (entity.tunable.until, entity.elevator.until) if v]
        return min(ends) if ends else None
    return getattr(entity, "until", None)


def successor(kb: Kb, entity: Any) -> Any:
    """What replaced a removed elevator (its equivalent) or tunable (the same file of that equivalent), or None."""
    if removed_in(entity) is None:
        return None
    if isinstance(entity, TunableRef):
        after = successor(kb, entity.elevator) if entity.elevator.until else None
        found = after and kb.get(f"{after.name}.{entity.tunable.name}")
        return found if found is not None and removed_in(found) is None else None
    after = kb.get(entity.equivalent) if getattr(entity, "equivalent", None) else None
    return after if after is not None and removed_in(after) is None else None


def names(kb: Kb, entity: Any) -> list[str]:
    """What a search for this page may type: its names, aliases and the names of what it replaced."""
    if isinstance(entity, TunableRef):
        return [entity.tunable.name]
    own = [getattr(entity, "name", entity.id), entity.id, *getattr(entity, "aliases", ())]
    if kind_of(entity).slug == "elevators":
        own += [e.name for e in kb.section("elevators") if _same(successor(kb, e), entity)]
    elif kind_of(entity).slug == "sysctls":
        own.append(entity.name.rsplit(".", 1)[-1])
    return list(dict.fromkeys(own))


def front_matter(kb: Kb, entity: Any, extra: tuple[str, ...] = ()) -> str:
    """YAML front matter ranking the entity's page: boosted and tagged with its names while current, ranked
    after current pages once removed."""
    if removed_in(entity) is not None:
        return f"---\nsearch:\n  boost: {REMOVED_BOOST}\n---"
    if kind_of(entity).slug not in NAMED:
        return ""
    tags = ", ".join(json.dumps(t) for t in dict.fromkeys([*extra, *names(kb, entity)]))
    return f"---\nsearch:\n  boost: {CURRENT_BOOST}\ntags: [{tags}]\n---"


def index_front_matter(kind: Kind) -> str:
    """Front matter of a kind's index page: found first by the kind's own name (``elevator``), before any one
    entity that carries that word (the ``elevator=`` boot parameter)."""
    if kind.slug not in NAMED:
        return ""
    tags = ", ".join(json.dumps(t) for t in (kind.name, kind.title))
    return f"---\nsearch:\n  boost: {CURRENT_BOOST}\ntags: [{tags}]\n---"


def removed_note(kb: Kb, entity: Any, style: Style) -> str:
    """An admonition on a removed thing's page: since when it is gone and what replaced it."""
    until = removed_in(entity)
    if until is None:
        return ""
    after = successor(kb, entity)
    instead = f" Its successor is {ref(kb, style, after.id)}." if after is not None else ""
    return f'!!! warning "Removed in Linux {until}"\n\n    Kernels from {until} on do not have it.{instead}'


def replaced_note(kb: Kb, entity: Any, style: Style) -> str:
    """On a current page, the removed things it replaced, so a reader who came by an old name knows."""
    old = [e for e in _removed_of_kind(kb, entity) if _same(successor(kb, e), entity)]
    if not old:
        return ""
    listed = ", ".join(f"{ref(kb, style, e.id, f'`{_name(e)}`')} (removed in {removed_in(e)})" for e in old)
    return f"**Replaces:** {listed}."


def _same(a: Any, b: Any) -> bool:
    return a is not None and a.id == b.id


def _name(entity: Any) -> str:
    return entity.tunable.name if isinstance(entity, TunableRef) else str(getattr(entity, "name", entity.id))


def _removed_of_kind(kb: Kb, entity: Any) -> list[Any]:
    return [e for e in kb.entities(kind_of(entity)) if removed_in(e) is not None]
