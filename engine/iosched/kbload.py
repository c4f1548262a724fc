"""Read KB directories (the bundled one, then ``--kb`` layers) into a checked :class:`Kb`."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iosched.diagnostics import Diagnostic
from iosched.kb import Kb
from iosched.yamlsrc import YamlError, read

_ERROR_CODES = {"extra_forbidden": "KB010", "missing": "KB011"}


@dataclass
class _Collected:
    entities: dict[str, dict[str, Any]] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def kb_files(directory: Path) -> list[Path]:
    """The YAML files of a KB directory, in a stable order."""
    return sorted(p for p in directory.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _describe(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "name"):
            if isinstance(item.get(key), str):
                return item[key]
    return f"entry {index + 1}"


def _validate(model: type, item: Any) -> tuple[Any, list[dict[str, Any]]]:
    from pydantic import ValidationError

    try:
        return model.model_validate(item), []
    except ValidationError as exc:
        return None, exc.errors(include_url=False)
    except (ValueError, TypeError, RecursionError) as exc:
        return None, [{"type": "value_error", "loc": (), "msg": str(exc) or type(exc).__name__}]


def _collect_file(path: Path, layer: dict[str, dict[str, Any]], out: _Collected) -> None:
    from iosched.model import SECTIONS

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
        if section not in SECTIONS:
            known = ", ".join(SECTIONS)
            out.diagnostics.append(Diagnostic("KB003", name, line, f"unknown section {section!r}; known: {known}"))
            continue
        if not isinstance(items, list):
            out.diagnostics.append(Diagnostic("KB004", name, line, f"section {section!r} must be a list"))
            continue
        for i, item in enumerate(items):
            entity, errors = _validate(SECTIONS[section], item)
            for err in errors:
                loc = tuple(err.get("loc", ()))
                code = _ERROR_CODES.get(err.get("type", ""), "KB012")
                where = ".".join(str(p) for p in loc) or "entry"
                message = f"{section}: {_describe(item, i)}: {where}: {err.get('msg', 'invalid')}"
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


def fingerprint(directories: Iterable[Path]) -> str:
    """A cheap key over file names, sizes and mtimes: changes whenever a KB file changes."""
    from iosched import __version__

    digest = hashlib.sha256(__version__.encode())
    for directory in directories:
        for path in kb_files(directory):
            st = path.stat()
            digest.update(f"{path.resolve()}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def content_version(directories: Iterable[Path]) -> str:
    """A content hash of the KB, shown in plans as the KB version."""
    digest = hashlib.sha256()
    for directory in directories:
        for path in kb_files(directory):
            digest.update(path.relative_to(directory).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def load(directories: list[Path]) -> tuple[Kb, list[Diagnostic]]:
    """Load and check the KB layers in order; a later layer's entity replaces one with the same id."""
    from iosched.kbcheck import check

    out = _Collected()
    for directory in directories:
        if not directory.is_dir():
            out.diagnostics.append(Diagnostic("KB001", display(directory), 0, "not a directory"))
            continue
        layer: dict[str, dict[str, Any]] = {}
        for path in kb_files(directory):
            _collect_file(path, layer, out)
    kb = Kb(
        sections={s: tuple(v.values()) for s, v in out.entities.items()},
        origins=out.origins,
        version=content_version(d for d in directories if d.is_dir()),
    )
    return kb, out.diagnostics + check(kb)
