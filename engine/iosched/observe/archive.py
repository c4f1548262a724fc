"""A capture given as a tarball (``iosched collect``, ``sos report``, supportconfig): unpacked into a temporary
directory, only what a reader could use: directories, regular files of at most ``PROBE_LIMIT``, and symbolic
links that stay inside (``tarfile.data_filter``), no name through ``..``. Anything else in the archive is skipped,
not refused, as is a member that cannot be written."""

from __future__ import annotations

import os
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from iosched.capture.source import MAX_ENTRIES, MAX_TOTAL_BYTES, PROBE_LIMIT

MAX_MEMBERS = 64 * MAX_ENTRIES


class ArchiveError(ValueError):
    """The file is not a tarball that can be read."""


def is_archive(path: Path) -> bool:
    try:
        return path.is_file() and tarfile.is_tarfile(path)
    except OSError:
        return False


@contextmanager
def unpacked(path: Path) -> Iterator[Path]:
    """The capture inside the tarball at ``path``: its only top directory, or the whole when there are more."""
    with tempfile.TemporaryDirectory(prefix="iosched-capture-") as scratch:
        try:
            with tarfile.open(path) as tar:
                for member in _members(tar):
                    try:
                        tar.extract(member, scratch, filter=_kept)
                    except OSError:  # one member that cannot be written (a name twice, a clash): skipped
                        continue
        except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
            raise ArchiveError(f"cannot unpack {path}: {' '.join(str(exc).split()) or type(exc).__name__}") from None
        top = os.listdir(scratch)
        yield Path(scratch, top[0]) if len(top) == 1 and os.path.isdir(os.path.join(scratch, top[0])) else Path(scratch)


def _members(tar: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    """At most ``MAX_MEMBERS`` members and ``MAX_TOTAL_BYTES`` of file data."""
    total = 0
    for count, member in enumerate(tar):
        if count >= MAX_MEMBERS or total > MAX_TOTAL_BYTES:
            return
        if ".." in member.name.split("/"):
            continue
        if member.isfile() and member.size <= PROBE_LIMIT:
            total += member.size
            yield member
        elif member.isdir() or member.issym():
            yield member


def _kept(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None
