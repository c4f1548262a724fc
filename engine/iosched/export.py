"""The whole KB as one JSON-ready document: the stable contract for scripts and the site.

Works on validated models and on compiled records alike, so ``kb export`` needs no pydantic.
"""

from __future__ import annotations

from typing import Any

from iosched import __version__
from iosched.kb import SECTION_NAMES, Kb
from iosched.kernel import KernelVersion
from iosched.records import field_names

SCHEMA_VERSION = 1
ALIASES = {"in_": "in", "not_": "not"}


def export_kb(kb: Kb) -> dict[str, Any]:
    """Every section as a list of plain dicts, in KB order, with each entity's ``id``."""
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "iosched_version": __version__,
        "kb_version": kb.version,
    }
    for section in SECTION_NAMES:
        document[section] = [export_entity(e) for e in kb.section(section)]
    return document


def export_entity(entity: Any) -> dict[str, Any]:
    return {"id": entity.id, **plain(entity)}


def plain(value: Any) -> Any:
    """JSON-ready data: schema fields only (aliases restored), kernel versions as strings."""
    names = field_names(value)
    if names is not None:
        return {ALIASES.get(n, n): plain(getattr(value, n)) for n in names}
    if isinstance(value, KernelVersion):
        return str(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
