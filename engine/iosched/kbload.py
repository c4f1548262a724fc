"""Read KB directories (the bundled one, then ``--kb`` layers) into a checked :class:`Kb`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from iosched.diagnostics import Diagnostic
from iosched.kb import Kb
from iosched.kbfiles import AnyPath, content_version, display, kb_files
from iosched.kinds import BY_SECTION, KINDS
from iosched.model import inherited
from iosched.struct import Invalid
from iosched.yamlsrc import YamlError, read

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
    from iosched.validate import ValidationError, validate

    try:
        return validate(schema, item), []
    except ValidationError as exc:
        return None, exc.errors(include_url=False)
    except (ValueError, TypeError, RecursionError) as exc:
        return None, [{"type": "value_error", "loc": (), "msg": str(exc) or type(exc).__name__}]


def _collect_file(path: Path, layer: dict[str, dict[str, Any]], out: _Collected) -> None:
    name = display(path)
    try:
        doc = read(path)
    except YamlError as exc:
        out.diagnostics.append(Diagnostic("KB001", name, exc.line, str(exc)))
        return
    if doc.data is None:
        return
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__
        out.diagnostics.append(Diagnostic("KB002", name, 1, f"expected a mapping of sections, found {kind}"))
        return
    for section, items in doc.data.items():
        line = doc.line_of((section,))
        if section not in BY_SECTION:
            known = ", ".join(BY_SECTION)
            out.diagnostics.append(Diagnostic("KB003", name, line, f"unknown section {section!r}; known: {known}"))
            continue
        if not isinstance(items, list):
            out.diagnostics.append(Diagnostic("KB004", name, line, f"section {section!r} must be a list"))
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
                out.diagnostics.append(Diagnostic(code, name, doc.line_of((section, i, *loc)), message))
            if entity is None:
                continue
            origin = f"{name}:{doc.line_of((section, i))}"
            if entity.id in layer:
                first = out.origins.get(entity.id, "?")
                out.diagnostics.append(
                    Diagnostic("KB104", name, doc.line_of((section, i)), f"{entity.id!r} is also defined at {first}")
                )
                continue
            layer[entity.id] = entity
            out.entities.setdefault(section, {})[entity.id] = entity
            out.origins[entity.id] = origin


def load(layers: Sequence[AnyPath]) -> tuple[Kb, list[Diagnostic]]:
    """Load and check the KB layers in order; a later layer's entity replaces one with the same id."""
    from iosched.kbcheck import check

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
