"""The files of a KB directory: which they are, how to name them, and a hash of their content."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


def _yaml_files(directory: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """(path relative to the directory with / separators, full path) of every YAML file, sorted.

    os.walk rather than Path.rglob: this runs on every command, to key the KB cache."""
    found = []
    top = os.fspath(directory)
    for root, dirs, names in os.walk(top):
        dirs.sort()
        for name in names:
            full = os.path.join(root, name)
            if name.endswith((".yaml", ".yml")) and os.path.isfile(full):
                found.append((os.path.relpath(full, top).replace(os.sep, "/"), full))
    return sorted(found)


def kb_files(directory: str | os.PathLike[str]) -> list[Path]:
    """The YAML files of a KB directory, in a stable order."""
    from pathlib import Path

    return [Path(directory, rel) for rel, _ in _yaml_files(directory)]


def display(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the working directory when it is below it, else as given."""
    from pathlib import Path

    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def content_version(directories: Iterable[str | os.PathLike[str]]) -> str:
    """A hash of the KB's content (file names and bytes), shown in plans as the KB version and keying the cache."""
    digest = _hasher()
    for directory in directories:
        for rel, full in _yaml_files(directory):
            with open(full, "rb") as fh:
                digest.update(rel.encode() + b"\0" + fh.read() + b"\0")
        digest.update(b"\1")
    return digest.hexdigest()[:16]


def _hasher() -> Any:
    """BLAKE2b from CPython's built-in module: the same digest as hashlib's, without loading OpenSSL at start-up."""
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter without the built-in module
        from hashlib import blake2b
    return blake2b(digest_size=16)
