"""The whole KB as one JSON-ready document: the stable contract for scripts and the site."""

from __future__ import annotations

from typing import Any

from iosched import __version__
from iosched.kb import Kb
from iosched.model import SECTIONS

SCHEMA_VERSION = 1


def export_kb(kb: Kb) -> dict[str, Any]:
    """Every section as a list of plain dicts, in KB order, with each entity's ``id``."""
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "iosched_version": __version__,
        "kb_version": kb.version,
    }
    for section in SECTIONS:
        document[section] = [export_entity(e) for e in kb.section(section)]
    return document


def export_entity(entity: Any) -> dict[str, Any]:
    data = entity.model_dump(mode="json", by_alias=True)
    return {"id": entity.id, **data}
