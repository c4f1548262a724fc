"""What iosched reads of a live host, recorded so that it can travel: a tarball (``iosched collect``) or the
sections of a supportconfig plugin.

:class:`Recorder` is a :class:`~iosched.capture.source.TreeSource` that remembers every file, directory and
symbolic link a read of the root went through. Written out under the same paths, they give a tree that
reads back to the same System (``advise --root``), with the probe document beside them to be preferred.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from iosched.capture.source import MAX_BYTES, TreeSource
from iosched.observe.reader import PROBE_COMMAND, PROBE_FILE, read_source
from iosched.records.system import System

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tarfile import TarInfo

SECTION_RULE = "=" * 38 + "#"
_SECTION_START = re.compile(r"^(#==\[)", re.MULTILINE)


class Recorder(TreeSource):
    """A tree source that records what it reads: file texts by the path asked and by the real path, the
    directories listed, and each symbolic link met on the way (its text, made relative when absolute)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.asked: dict[str, str] = {}
        self.files: dict[str, str] = {}
        self.dirs: set[str] = set()
        self.links: dict[str, str] = {}

    def _walk(self, rel: str) -> str | None:
        """The real path of ``rel`` relative to the root, recording every link on the way; None when it leaves."""
        real = self._follow(self.root, rel.strip("/"), 0)
        return None if real is None else os.path.relpath(real, self.root)

    def _follow(self, current: str, rel: str, depth: int) -> str | None:
        for part in rel.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                current = os.path.dirname(current) if current != self.root else current
                continue
            path = os.path.join(current, part)
            if not os.path.islink(path):
                current = path
                continue
            target = os.readlink(path)
            if depth > 40:
                return None
            if os.path.isabs(target):  # kept relative, so that it stays inside wherever the tree is unpacked
                target = os.path.relpath(os.path.join(self.root, target.lstrip("/")), current)
            self.links[os.path.relpath(path, self.root)] = target
            followed = self._follow(current, target, depth + 1)
            if followed is None:
                return None
            current = followed
        inside = current == self.root or current.startswith(self._prefix)
        return current if inside else None

    def text(self, rel: str, limit: int = MAX_BYTES, head: bool = False) -> str | None:
        found = super().text(rel, limit, head)
        if found is not None and (real := self._walk(rel)) is not None:
            self.asked[rel.strip("/")] = self.files[real] = found
        return found

    def listdir(self, rel: str) -> list[str]:
        names = super().listdir(rel)
        if names and (real := self._walk(rel)) is not None:
            self.dirs.add(real)
        return names

    def isdir(self, rel: str) -> bool:
        found = super().isdir(rel)
        if found and (real := self._walk(rel)) is not None:
            self.dirs.add(real)
        return found

    def link(self, rel: str) -> str | None:
        found = super().link(rel)
        if found is not None:
            self._walk(rel)
        return found


def tarball(recorder: Recorder, probe: str, top: str, out: Path) -> Path:
    """Write ``out/TOP.tar.gz``: the recorded tree under ``TOP/`` with the probe document as ``TOP/PROBE_FILE``."""
    import io
    import tarfile
    import time

    path = out / f"{top}.tar.gz"
    now = int(time.time())
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for directory in sorted({top, *(f"{top}/{d}" for d in recorder.dirs if d != ".")}):
            tar.addfile(_info(directory, tarfile.DIRTYPE, now, 0o755))
        for link, target in sorted(recorder.links.items()):
            info = _info(f"{top}/{link}", tarfile.SYMTYPE, now, 0o777)
            info.linkname = target
            tar.addfile(info)
        for rel, text in sorted({**recorder.files, PROBE_FILE: probe}.items()):
            data = text.encode()
            info = _info(f"{top}/{rel}", tarfile.REGTYPE, now, 0o644)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _info(name: str, kind: bytes, mtime: int, mode: int) -> TarInfo:
    from tarfile import TarInfo

    info = TarInfo(name)
    info.type, info.mtime, info.mode = kind, mtime, mode
    return info


def supportconfig_sections(recorder: Recorder, probe: str) -> str:
    """The plugin's output as supportconfig writes its own reports (bin/supportconfig.rc ``_log_cmd``): the probe
    document as a ``Command`` section, each file read as a ``File Content`` section under the path asked. A file's
    line that would open a section is written with a space before it, so no file can add or hide a section."""
    parts = [f"#==[ Command ]{SECTION_RULE}\n# {PROBE_COMMAND}\n{probe.rstrip()}\n"]
    for rel, text in sorted(recorder.asked.items()):
        body = _SECTION_START.sub(r" \1", text.rstrip())
        parts.append(f"#==[ File Content ]{SECTION_RULE}\n# /{rel}\n{body}\n")
    return "\n".join(parts)


def record(root: Path) -> tuple[System, Recorder]:
    """The System of ``root`` and what reading it went through, with each blk-mq device's ``mq/*/nr_tags`` and
    ``mq/*/cpu_list`` besides (the hardware queues a reader counts)."""
    recorder = Recorder(root)
    system = read_source(recorder, str(root))
    for device in system.devices:
        for queue in recorder.listdir(f"sys/block/{device.name}/mq") if device.nr_hw_queues else ():
            for name in ("nr_tags", "cpu_list"):
                recorder.text(f"sys/block/{device.name}/mq/{queue}/{name}")
    return system, recorder
