"""The files of a KB directory: which they are, how to name them, and a hash of their content."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def kb_files(directory: Path) -> list[Path]:
    """The YAML files of a KB directory, in a stable order."""
    return sorted(p for p in directory.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def content_version(directories: Iterable[Path]) -> str:
    """A hash of the KB's content (file names and bytes), shown in plans as the KB version and keying the cache."""
    digest = hashlib.sha256()
    for directory in directories:
        for path in kb_files(directory):
            digest.update(path.relative_to(directory).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        digest.update(b"\1")
    return digest.hexdigest()[:16]
