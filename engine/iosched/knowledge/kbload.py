"""Read KB directories (the bundled one, then ``--kb`` layers) into a checked :class:`Kb`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iosched.diagnostics import Diagnostic
from iosched.kbfiles import AnyPath, content_version, display, kb_files
from iosched.knowledge.base import Kb
from iosched.knowledge.kinds import BY_SECTION, KINDS
from iosched.knowledge.schema import inherited
from iosched.struct import Invalid, Struct
from iosched.yamlsrc import MAX_BYTES, YamlError, parse, read_bytes

_ERROR_CODES = {"extra_forbidden": "KB010", "missing": "KB011"}
_UNION_TAGS = {"all", "any", "not", "fact"}  # pydantic names the union member in error locations


class _Collected:
    def __init__(self) -> None:
        self.entities: dict[str, dict[str, Any]] = {}
        self.origins: dict[str, str] = {}
        self.diagnostics: list[Diagnostic] = []


def _describe(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "name"):
            if isinstance(name := item.get(key), str):
                return name
    return f"entry {index + 1}"


def _without_tags(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """An error location as a YAML path: pydantic repeats the union tag of ``all``/``any``/``not`` before the key."""
    kept: list[str | int] = []
    for i, part in enumerate(loc):
        if part in _UNION_TAGS and i + 1 < len(loc) and loc[i + 1] == part:
            continue
        kept.append(part)
    return tuple(kept)


def _code(error: dict[str, Any]) -> str:
    """The diagnostic code of one pydantic error: unknown key, missing key, a broken invariant, else invalid."""
    cause = (error.get("ctx") or {}).get("error")
    return getattr(cause, "code", None) or _ERROR_CODES.get(error.get("type", ""), "KB012")


def _validate(schema: type, item: Any) -> tuple[Any, list[Any]]:
    from iosched.knowledge.validate import ValidationError, validate

    try:
        return validate(schema, item), []
    except ValidationError as exc:
        return None, exc.errors(include_url=False)
    except (ValueError, TypeError, RecursionError) as exc:
        return None, [{"type": "value_error", "loc": (), "msg": str(exc) or type(exc).__name__}]


class _Entry(Struct, kw_only=False):
    """One valid entity of a file: its section, the entity, the line it starts on, and how many of the file's
    diagnostics come before it."""

    section: str
    entity: Any
    line: int
    after: int


_MEMO_FILES = 256
_memo: dict[tuple[str, bytes], tuple[tuple[_Entry, ...], tuple[Diagnostic, ...]]] = {}
"""The entries and diagnostics of each file this process read, by its name and a digest of its bytes: a KB
loaded again (a ``--kb`` layer over the bundled KB, a rebuilt cache) parses and validates only the files whose
bytes changed."""


def _file_entries(name: str, data: bytes) -> tuple[tuple[_Entry, ...], tuple[Diagnostic, ...]]:
    """The valid entities of one file's ``data`` and the diagnostics of the rest, remembered by content."""
    from hashlib import blake2b

    key = (name, blake2b(data, digest_size=32).digest())
    found = _memo.get(key)
    if found is None:
        found = _parse_file(name, data)
        if len(_memo) >= _MEMO_FILES:
            _memo.clear()
        _memo[key] = found
    return found


def _parse_file(name: str, data: bytes) -> tuple[tuple[_Entry, ...], tuple[Diagnostic, ...]]:
    entries: list[_Entry] = []
    diagnostics: list[Diagnostic] = []
    try:
        doc = parse(data)
    except YamlError as exc:
        return (), (Diagnostic("KB001", name, exc.line, str(exc)),)
    if doc.data is None:
        return (), ()
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__
        return (), (Diagnostic("KB002", name, 1, f"expected a mapping of sections, found {kind}"),)
    for section, items in doc.data.items():
        line = doc.line_of((section,))
        if section not in BY_SECTION:
            known = ", ".join(BY_SECTION)
            diagnostics.append(Diagnostic("KB003", name, line, f"unknown section {section!r}; known: {known}"))
            continue
        if not isinstance(items, list):
            diagnostics.append(Diagnostic("KB004", name, line, f"section {section!r} must be a list"))
            continue
        for i, item in enumerate(items):
            entity, errors = _validate(BY_SECTION[section].schema, item)
            for err in errors:
                loc = _without_tags(tuple(err.get("loc", ())))
                code = _code(err)
                where = ".".join(str(p) for p in loc) or "entry"
                cause = (err.get("ctx") or {}).get("error")
                text = str(cause) if isinstance(cause, Invalid) else err.get("msg", "invalid")
                message = f"{section}: {_describe(item, i)}: {where}: {text}"
                diagnostics.append(Diagnostic(code, name, doc.line_of((section, i, *loc)), message))
            if entity is not None:
                entries.append(_Entry(section, entity, doc.line_of((section, i)), len(diagnostics)))
    return tuple(entries), tuple(diagnostics)


def _collect_file(path: Path, layer: dict[str, dict[str, Any]], out: _Collected) -> None:
    name = display(path)
    try:
        data = read_bytes(path, MAX_BYTES)
    except YamlError as exc:
        out.diagnostics.append(Diagnostic("KB001", name, exc.line, str(exc)))
        return
    entries, diagnostics = _file_entries(name, data)
    shown = 0
    for entry in entries:
        entity = entry.entity
        if entity.id in layer:
            out.diagnostics.extend(diagnostics[shown : entry.after])
            shown = entry.after
            first = out.origins.get(entity.id, "?")
            out.diagnostics.append(Diagnostic("KB104", name, entry.line, f"{entity.id!r} is also defined at {first}"))
            continue
        layer[entity.id] = entity
        out.entities.setdefault(entry.section, {})[entity.id] = entity
        out.origins[entity.id] = f"{name}:{entry.line}"
    out.diagnostics.extend(diagnostics[shown:])


def load(layers: Sequence[AnyPath]) -> tuple[Kb, list[Diagnostic]]:
    """Load and check the KB layers in order; a later layer's entity replaces one with the same id."""
    from iosched.knowledge.kbcheck import check

    out = _Collected()
    directories = [Path(d) for d in layers]
    for directory in directories:
        if not directory.is_dir():
            out.diagnostics.append(Diagnostic("KB001", display(directory), 0, "not a directory"))
            continue
        layer: dict[str, dict[str, Any]] = {}
        for path in kb_files(directory):
            _collect_file(path, layer, out)
    _inherit(out.entities.get("distributions", {}))
    kb = Kb(
        sections={k.section: tuple(out.entities[k.section].values()) for k in KINDS if k.section in out.entities},
        origins=out.origins,
        version=content_version(d for d in directories if d.is_dir()),
    )
    return kb, out.diagnostics + check(kb)


def _inherit(distributions: dict[str, Any]) -> None:
    """Each release that names ``facts_from`` completed from that release (one level: kbcheck refuses a chain)."""
    for ident, distro in distributions.items():
        base = distributions.get(distro.facts_from) if distro.facts_from else None
        if base is not None and base.facts_from is None and base.family == distro.family:
            distributions[ident] = inherited(distro, base)
