"""The files of a KB: where the bundled KB and the compiled-KB cache live, which files a KB directory has, how
to name them, and a hash of their content (plain strings and os.scandir: pathlib costs start-up time); the
layout of a cache file, which its writer (:mod:`iosched.knowledge.kbcompile`) and its reader
(:mod:`iosched.knowledge.kbcache`) share, and which cache files are trusted."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hashlib import blake2b
    from pathlib import Path

AnyPath = str | os.PathLike[str]
"""A file or directory as the caller has it: a string or a ``pathlib.Path``."""

PREFIX = "kb-"
"""Of every cache file's name."""
TYPE_TAG = "\x00t"
"""In a cache file, the key of a Struct's class name."""
KERNEL_TAG = "\x00k"
"""In a cache file, the key of a kernel version."""
HEAD = b'{"head":'
"""A cache file's first bytes, then the length of its head (up to the sections) ..."""
INDEX = b'"index":'
"""... then its index ..."""
SECTIONS = b',"sections":{'
"""... and, after the head, its sections."""


def bundled_kb() -> str:
    """The KB shipped in the wheel (``iosched/_kb``), or ``kb/`` of a source checkout."""
    packaged = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_kb")
    if os.path.isdir(packaged):
        return packaged
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    return os.path.join(checkout, "kb")


def cache_dir() -> str:
    """``$IOSCHED_CACHE_DIR``, else ``$XDG_CACHE_HOME/iosched``, else ``~/.cache/iosched``."""
    if explicit := os.environ.get("IOSCHED_CACHE_DIR"):
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "iosched")


Scanned = list[tuple[str, str, os.stat_result]]
"""(path relative to the directory with / separators, full path, stat) of each YAML file, sorted."""


def scan(directory: AnyPath) -> Scanned:
    """Every YAML file below ``directory`` (symbolic links to directories are not followed, as ``os.walk``).

    os.scandir rather than Path.rglob: this runs on every command, to key the KB cache, and the directory
    entries give each file's stat without another system call per file."""
    top = os.fspath(directory)
    found: Scanned = []
    pending = [top]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.name.endswith((".yaml", ".yml")) and entry.is_file():
                    rel = entry.path[len(top) :].lstrip(os.sep).replace(os.sep, "/")
                    found.append((rel, entry.path, entry.stat()))
    found.sort(key=lambda file: file[0])
    return found


def kb_files(directory: AnyPath) -> list[Path]:
    """The YAML files of a KB directory, in a stable order."""
    from pathlib import Path

    return [Path(directory, rel) for rel, _, _ in scan(directory)]


def display(path: AnyPath) -> str:
    """``path`` relative to the working directory when it is below it, else as given."""
    from pathlib import Path

    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def content_version(directories: Iterable[AnyPath]) -> str:
    """A hash of the KB's content (file names and bytes), shown in plans as the KB version and keying the cache."""
    return version_of([scan(d) for d in directories])


def version_of(layers: Iterable[Scanned]) -> str:
    """:func:`content_version` of directories already scanned."""
    digest = _hasher()
    for files in layers:
        for rel, full, _ in files:
            with open(full, "rb") as fh:
                digest.update(rel.encode() + b"\0" + fh.read() + b"\0")
        digest.update(b"\1")
    return digest.hexdigest()[:16]


def identity(layers: Iterable[Scanned]) -> tuple[str, int]:
    """A hash of what the file system says of each file (name, size, inode, modification and change times),
    and the newest of those times in nanoseconds. Equal identities mean unchanged files as long as the
    newest time is well in the past: a write within the file system's clock tick of an earlier one may leave
    every time as it was."""
    digest = _hasher()
    newest = 0
    for files in layers:
        for rel, _, st in files:
            digest.update(f"{rel}\0{st.st_size}:{st.st_dev}:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}\0".encode())
            newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
        digest.update(b"\1")
    return digest.hexdigest(), newest


def _hasher() -> blake2b:
    """BLAKE2b from CPython's built-in module: the same digest as hashlib's, without loading OpenSSL at start-up."""
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter without the built-in module
        from hashlib import blake2b
    return blake2b(digest_size=16)


def trusted(path: AnyPath) -> bool:
    """A regular file owned by us, in a directory owned by us or root that no one else may write to."""
    try:
        st = os.lstat(path)
        parent = os.stat(os.path.dirname(path) or ".")
    except OSError:
        return False
    euid = os.geteuid()
    if not stat.S_ISREG(st.st_mode) or st.st_uid != euid or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    shared = parent.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return parent.st_uid in (euid, 0) and (not shared or bool(parent.st_mode & stat.S_ISVTX))
