"""Compiling the checked KB into the cache file that :mod:`iosched.knowledge.kbcache` reads (its layout is in
:mod:`iosched.kbfiles`), once per KB: the KB as plain
JSON data, an index of where each section and entity's text is, and the parts a plan reads without a section
(each rule's guard, each caveat's scope, each elevator's path and kernel range).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from iosched.kbfiles import HEAD, INDEX, KERNEL_TAG, PREFIX, SECTIONS, TYPE_TAG, AnyPath, trusted
from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.rules import guard
from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def to_plain(value: Any) -> Any:
    """A KB value as JSON data: Structs tagged with their class name (fields at their default left out: the
    class holds them), kernel versions as tagged strings."""
    if isinstance(value, Struct):
        cls = type(value)
        kept = {n: to_plain(v) for n, v in value.fields() if n in cls.__required__ or v != getattr(cls, n)}
        return {TYPE_TAG: cls.__name__, **kept}
    if isinstance(value, KernelVersion):
        return {KERNEL_TAG: list(value)}
    if isinstance(value, tuple | list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def _json(value: Any) -> str:
    """Compact JSON in ASCII: the few characters beyond it are escaped, so that the file decodes and its
    sections slice as one-byte text, and a character's offset is its byte's."""
    return json.dumps(value, separators=(",", ":"))


def dumps(kb: Kb) -> str:
    """The cache file's text for ``kb``: one JSON document, ``{"head": N, "index": ..., "rules": ...,
    "caveats": ..., "origins": ..., "sections": ...}``. The first N characters end with the index (version, the
    length of each part's text, where each section's text starts and ends, and the ids of each section with
    where each entity's text starts), so that a command decodes the index only, then only the sections and
    entities it reads, and each part only when it reads that."""
    pieces: list[str] = []
    spans: dict[str, list[int]] = {}
    places: dict[str, list[Any]] = {}
    offset = 0
    for name, entities in kb.sections.items():
        key = ("," if pieces else "") + _json(name) + ":"
        texts = [_json(to_plain(entity)) for entity in entities]
        value = "[" + ",".join(texts) + "]"
        start = offset + len(key)
        spans[name] = [start, start + len(value)]
        ids: list[str] = []
        starts: list[int] = []
        position = start + 1
        for entity, text in zip(entities, texts, strict=True):
            tunables = entity.tunables if name == "elevators" else ()
            for ident in (entity.id, *(f"{entity.id}.{tunable.name}" for tunable in tunables)):
                ids.append(ident)
                starts.append(position)
            position += len(text) + 1
        places[name] = [f" {' '.join(ids)} ", starts]  # ids are words (the ID grammar)
        pieces.append(key + value)
        offset = start + len(value)
    parts = {"rules": _json(_rules(kb)), "caveats": _json(_caveats(kb)), "elevators": _json(_elevators(kb)),
             "origins": _json(dict(kb.origins))}  # fmt: skip
    index = {"version": kb.version, "parts": {name: len(text) for name, text in parts.items()}, "spans": spans,
             "places": places}  # fmt: skip
    return head(_json(index)) + "".join(f",{_json(name)}:{text}" for name, text in parts.items()) + (
        SECTIONS.decode() + "".join(pieces) + "}}")  # fmt: skip


def head(index: str) -> str:
    """A cache file's text up to the end of its index: ``{"head": N, "index": ...`` whose N characters it is."""
    rest = "," + INDEX.decode() + index
    digits = 1
    while len(str(len(HEAD) + digits + len(rest))) != digits:
        digits += 1
    return HEAD.decode() + str(len(HEAD) + digits + len(rest)) + rest


def _rules(kb: Kb) -> list[list[Any]]:
    """Each rule's id, name and guard (:func:`iosched.knowledge.rules.guard`, as ``[fact, operator, operand]``
    lists), in KB order."""
    return [[rule.id, rule.name, [[c.fact, *to_plain(c.operation)] for c in guard(rule.when)]]
            for rule in kb.section("rules")]  # fmt: skip


def _caveats(kb: Kb) -> list[list[Any]]:
    """Each caveat's id, the distributions its scope names and its related ids, in KB order."""
    return [list(scope) for scope in kb.caveat_scopes()]


def _elevators(kb: Kb) -> list[list[Any]]:
    """Each elevator's name, I/O path, kernel range (``[major, minor, patch]`` or null) and aliases, in KB order."""
    return [[name, path, *(list(v) if v is not None else None for v in (since, until)), list(aliases)]
            for name, path, since, until, aliases in kb.elevator_facts()]  # fmt: skip


def write(path: AnyPath, kb: Kb) -> None:
    """Store ``kb`` at ``path`` atomically, private to the user, and remove older cache files beside it."""
    if write_private(path, dumps(kb)):
        _evict(path)


def write_json(path: AnyPath, value: Mapping[str, Any]) -> bool:
    """Write ``value`` as compact JSON to ``path``, atomically and private to the user; False when that failed."""
    return write_private(path, _json(value))


def write_private(path: AnyPath, text: str) -> bool:
    """Write ``text`` to ``path`` atomically, in a directory private to the user; False when that failed."""
    import contextlib  # like tempfile, only for writing: a command that reads the cache needs neither
    import tempfile

    directory = os.path.dirname(path) or "."
    with contextlib.suppress(OSError):
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".kb-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
            return True
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return False


def _evict(keep: AnyPath, most: int = 8) -> None:
    """Keep the ``most`` newest cache files of this user (one per KB layering in use), ``keep`` among them."""
    import contextlib

    directory = os.path.dirname(keep) or "."
    names = [n for n in os.listdir(directory) if n.startswith(PREFIX)]
    mine = [p for p in (os.path.join(directory, n) for n in names) if p != os.fspath(keep) and trusted(p)]
    mine.sort(key=os.path.getmtime, reverse=True)
    for old in mine[most - 1 :]:
        with contextlib.suppress(OSError):
            os.unlink(old)
