"""Rendering KB entities: how an id the user typed is found, and the renderers.

The Markdown itself comes from :mod:`iosched.render.reference`, shared by the CLI and the site.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.knowledge.base import Kb


def find(kb: Kb, ident: str) -> Any | None:
    """The entity an id names, with the spellings people type: ``elevator=``, ``nr_requests``, ``ios101``."""
    text = ident.strip()
    for candidate in (text, f"queue.{text}", text.upper()):
        if (entity := kb.get(candidate)) is not None:
            return entity
    return None


def suggestions(kb: Kb, ident: str, n: int = 3) -> list[str]:
    """Close matches for an unknown id (ids and rule names)."""
    from iosched.knowledge.normalise import close_matches

    return close_matches(ident, [*kb.index, *(r.name for r in kb.section("rules"))], n)
