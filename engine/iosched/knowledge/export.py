"""The whole KB as one JSON-ready document: the stable contract for scripts and the site."""

from __future__ import annotations

from iosched import __version__
from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.kinds import KINDS
from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 2


def export_kb(kb: Kb) -> dict[str, Any]:
    """Every section as a list of plain dicts, in KB order, with each entity's ``id``."""
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "iosched_version": __version__,
        "kb_version": kb.version,
    }
    for kind in KINDS:
        if kind.section:
            document[kind.section] = [export_entity(e) for e in kb.section(kind.section)]
    return document


def export_entity(entity: Any) -> dict[str, Any]:
    return {"id": entity.id, **plain(entity)}


def plain(value: Any) -> Any:
    """JSON-ready data: schema fields only (YAML spellings of aliased keys), kernel versions as strings."""
    if isinstance(value, Struct):
        return {value.__aliases__.get(n, n): plain(v) for n, v in value.fields()}
    if isinstance(value, KernelVersion):
        return str(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
