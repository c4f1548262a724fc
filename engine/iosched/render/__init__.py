"""Rendering KB entities: which kinds can be listed, how an id the user typed is found, and the renderers.

The Markdown itself comes from :mod:`iosched.render.reference`, shared by the CLI and the site.
"""

from __future__ import annotations

import difflib
from typing import Any

# ``iosched list KIND`` -> KB section (tunables live inside elevators).
KINDS: dict[str, str] = {
    "elevators": "elevators",
    "tunables": "elevators",
    "queue-attributes": "queue_attributes",
    "sysctls": "sysctls",
    "boot-parameters": "boot_parameters",
    "mount-options": "mount_options",
    "distributions": "distributions",
    "persistence": "persistence",
    "caveats": "caveats",
    "evidence": "evidence",
    "disagreements": "disagreements",
    "sources": "sources",
    "hardware": "hardware",
    "workloads": "workloads",
    "rules": "rules",
    "assumptions": "assumptions",
}


def entities(kb: Any, kind: str) -> list[Any]:
    """The entities of a list kind, in KB order; tunables as ``TunableRef``."""
    if kind == "tunables":
        return [kb.get(f"{e.name}.{t.name}") for e in kb.section("elevators") for t in e.tunables]
    return list(kb.section(KINDS[kind]))


def find(kb: Any, ident: str) -> Any | None:
    """The entity an id names, with the spellings people type: ``elevator=``, ``nr_requests``, ``ios101``."""
    text = ident.strip()
    for candidate in (text, f"queue.{text}", text.upper()):
        if (entity := kb.get(candidate)) is not None:
            return entity
    return None


def suggestions(kb: Any, ident: str, n: int = 3) -> list[str]:
    """Close matches for an unknown id (ids and rule names)."""
    names = [*kb.index, *(r.name for r in kb.section("rules"))]
    return difflib.get_close_matches(ident, names, n=n, cutoff=0.6)
