"""The files of a KB directory: which they are, how to name them, and a hash of their content."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any


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
    digest = _hasher()
    for directory in directories:
        for path in kb_files(directory):
            digest.update(path.relative_to(directory).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        digest.update(b"\1")
    return digest.hexdigest()[:16]


def _hasher() -> Any:
    """BLAKE2b from CPython's built-in module: the same digest as hashlib's, without loading OpenSSL at start-up."""
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter without the built-in module
        from hashlib import blake2b
    return blake2b(digest_size=16)
