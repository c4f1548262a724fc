"""Bounded, confined access to what a host capture holds: files under a root, and saved command outputs.

Every reader goes through a :class:`Source`, never through ``open``: a file is read only when it is a
regular file inside the root (symlinks are followed only while they stay inside), at most ``MAX_BYTES``
long, and text; a file is read once however many names (hard links) it has, and a capture at most
``MAX_TOTAL_BYTES`` in all. Anything refused is remembered in ``refused`` with a short reason, so a capture full of
garbage gives a clean :class:`~iosched.records.system.System` with a list of what could not be read.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from iosched.errors import larger_than
from iosched.grammar import UNSEEN

MAX_BYTES = 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
"""What one capture may make iosched read in all, each file (inode) counted once: enough for the largest
supportconfig reports, and a bound on a tree of many large files."""
PROBE_LIMIT = 16 * 1024 * 1024
"""How long a probe document may be: a host with thousands of devices writes some MiB (and so how large a file
of a tarball is unpacked)."""
MAX_VALUE = 4096
MAX_ENTRIES = 4096
MAX_REFUSED = 200
NAME = re.compile(r"[A-Za-z0-9_.:@+~,=!-]{1,255}")
_UNSAFE = re.compile(rf"[{UNSEEN}]")


def clean(text: str) -> str:
    """``text`` without control characters (tabs and newlines kept); CRLF becomes LF."""
    return _UNSAFE.sub("", text.replace("\r\n", "\n"))


def mangle(command: str) -> str:
    """The file name sos gives a command's output (``ls -lanR /sys/block`` -> ``ls_-lanR_.sys.block``)."""
    name = re.sub(r"^/(usr/|)(bin|sbin)/", "", command)
    name = re.sub(r"[^\w\-./]+", "_", name)
    return name.replace("/", ".").strip(" ._-")


def normalize_command(command: str) -> str:
    """A command line as a lookup key: the program without its directory, single spaces."""
    words = command.split()
    if words:
        words[0] = words[0].rsplit("/", 1)[-1]
    return " ".join(words)


class Source:
    """Files and command outputs of one host; subclasses say where they come from."""

    def __init__(self) -> None:
        self.refused: list[str] = []

    def refuse(self, what: str, why: str) -> None:
        if len(self.refused) < MAX_REFUSED:
            self.refused.append(f"{what}: {why}")

    def text(self, rel: str, limit: int = MAX_BYTES, head: bool = False) -> str | None:
        """A file's text, or None when it is absent or refused (binary, longer than ``limit`` bytes ...).

        With ``head``, a longer file gives its first ``limit`` bytes instead (whole lines only).
        """
        raise NotImplementedError

    def listdir(self, rel: str) -> list[str]:
        """Entry names of a directory, sorted; [] when it is absent."""
        raise NotImplementedError

    def isdir(self, rel: str) -> bool:
        raise NotImplementedError

    def link(self, rel: str) -> str | None:
        """Where a symbolic link points (its text, unresolved), or None when ``rel`` is not a link."""
        return None

    def command(self, command: str) -> str | None:
        """The saved output of ``command`` (sosreport, supportconfig), or None."""
        return None

    def command_names(self, prefix: str) -> list[str]:
        """Keys of the saved commands that start with ``prefix``; ``command(key)`` reads one."""
        return []

    def outputs(self, prefix: str) -> Iterator[str]:
        """The saved outputs of the commands that start with ``prefix``."""
        for key in self.command_names(prefix):
            text = self.command(key)
            if text is not None:
                yield text

    def value(self, rel: str) -> str | None:
        """A one-value file (sysfs, procfs): its stripped text, or None when absent, empty or too long."""
        text = self.text(rel)
        if text is None:
            return None
        if len(text) > MAX_VALUE:
            self.refuse(rel, f"longer than {MAX_VALUE} characters for one value")
            return None
        return text.strip() or None

    def dropins(self, directories: Iterable[str], suffix: str, most: int = 512) -> list[str]:
        """The files of a set of drop-in directories as systemd, udev and sysctl read them: a name in an earlier
        directory replaces the same name in a later one, names apply in sorted order, and a link to
        /dev/null masks its name. At most ``most`` names."""
        chosen: dict[str, str] = {}
        for directory in directories:
            for name in self.listdir(directory):
                if name.endswith(suffix) and name not in chosen and len(chosen) < most:
                    chosen[name] = f"{directory}/{name}"
        return [chosen[name] for name in sorted(chosen) if self.link(chosen[name]) != "/dev/null"]

    def first(self, paths: Iterable[str]) -> tuple[str, str] | None:
        """The first of ``paths`` that can be read: (path, text)."""
        for rel in paths:
            text = self.text(rel)
            if text is not None:
                return rel, text
        return None


def _resolved(path: str) -> str | None:
    """``os.path.realpath`` of ``path``, or None when a loop of symbolic links is on the way."""
    try:
        return os.path.realpath(path, strict=True)
    except FileNotFoundError:  # a missing part: realpath takes the rest as it is, there being no link to follow
        return os.path.realpath(path)
    except OSError:
        return None


class TreeSource(Source):
    """A directory: ``/`` on a live host, a copied tree, or an extracted sosreport (``sos_commands/``)."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = os.path.realpath(root)
        self._prefix = self.root.rstrip("/") + "/"
        self._sos: dict[str, str] | None = None
        self._real_dirs: dict[str, str | None] = {}
        """The real path of each directory a path was resolved in, by its path under the root."""
        self._texts: dict[tuple[int, int, int, bool], tuple[str | None, str]] = {}
        """Each file read, by inode, limit and ``head``: its text, or why it is refused."""
        self._spent = 0
        self._spent_noted = False

    def _inside(self, rel: str) -> str | None:
        """The real path of ``rel`` when it stays inside the root."""
        rel = rel.lstrip("/")
        full = self._real("/".join(filter(None, rel.split("/"))))  # a//b is a/b
        if full == self.root or full.startswith(self._prefix):
            return full
        self.refuse(rel, "leads outside the capture")
        return None

    def _real(self, rel: str) -> str:
        """``os.path.realpath`` of ``rel`` (no empty part) under the root, each directory resolved once: a reader
        reads many files of one directory, and resolving a path again costs a system call for each of its parts."""
        parent, _, name = rel.rpartition("/")
        real_parent = self._real_dir(parent) if parent and name not in ("", ".", "..") else None
        if real_parent is None:
            return os.path.realpath(os.path.join(self.root, rel))
        full = os.path.join(real_parent, name)
        return os.path.realpath(full) if os.path.islink(full) else full

    def _real_dir(self, rel: str) -> str | None:
        """The real path of the directory ``rel``, resolved once; None when resolving it meets a loop of symbolic
        links, after which ``os.path.realpath`` resolves no more of a path (nothing under it is then cached)."""
        if rel not in self._real_dirs:
            parent, _, name = rel.rpartition("/")
            joined = bool(parent) and name not in (".", "..")
            real_parent = self._real_dir(parent) if joined else None
            if joined and real_parent is None:
                self._real_dirs[rel] = None
            elif real_parent is None:
                self._real_dirs[rel] = _resolved(os.path.join(self.root, rel))
            else:
                full = os.path.join(real_parent, name)
                self._real_dirs[rel] = _resolved(full) if os.path.islink(full) else full
        return self._real_dirs[rel]

    def text(self, rel: str, limit: int = MAX_BYTES, head: bool = False) -> str | None:
        full = self._inside(rel)
        if full is None:
            return None
        try:
            mode = os.lstat(full).st_mode
        except OSError:
            return None
        if not stat.S_ISREG(mode):  # never open devices, FIFOs or sockets
            if not stat.S_ISDIR(mode):
                self.refuse(rel, "not a regular file")
            return None
        try:
            fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            return self._text(fd, limit, head, rel)
        except OSError:
            return None
        finally:
            os.close(fd)

    def _text(self, fd: int, limit: int, head: bool, rel: str) -> str | None:
        """The text of the regular file open on ``fd``: read and decoded once per inode (hard links share it),
        and only while the capture's read budget lasts; a refusal names each path that led to the file."""
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        key = (info.st_dev, info.st_ino, limit, head)
        found = self._texts.get(key)
        if found is None:
            if self._spent >= MAX_TOTAL_BYTES:
                if not self._spent_noted:
                    self._spent_noted = True
                    spent = f"not read, nor any file after it: the {MAX_TOTAL_BYTES >> 20} MiB read budget is spent"
                    self.refused.insert(0, f"{rel}: {spent}")
                return None
            data = _read_bounded(fd, limit)
            self._spent += len(data)
            found = self._texts[key] = _decoded(data, limit, head)
        text, refusal = found
        if refusal:
            self.refuse(rel, refusal)
        return text

    def listdir(self, rel: str) -> list[str]:
        full = self._inside(rel)
        if full is None:
            return []
        names: list[str] = []
        try:
            with os.scandir(full) as entries:
                for entry in entries:
                    if len(names) >= MAX_ENTRIES:
                        self.refuse(rel, f"more than {MAX_ENTRIES} entries; the rest were skipped")
                        break
                    if NAME.fullmatch(entry.name) and entry.name not in (".", ".."):
                        names.append(entry.name)
        except OSError:
            return []
        return sorted(names)

    def isdir(self, rel: str) -> bool:
        full = self._inside(rel)
        return full is not None and os.path.isdir(full)

    def link(self, rel: str) -> str | None:
        rel = rel.strip("/")
        parent = self._inside(os.path.dirname(rel))
        if parent is None:
            return None
        try:
            return clean(os.readlink(os.path.join(parent, os.path.basename(rel))))
        except (OSError, ValueError):
            return None

    def _sos_index(self) -> dict[str, str]:
        """Mangled command name -> path under ``sos_commands/``, first plugin directory wins."""
        if self._sos is None:
            self._sos = {}
            for plugin in self.listdir("sos_commands"):
                for name in self.listdir(f"sos_commands/{plugin}"):
                    self._sos.setdefault(name, f"sos_commands/{plugin}/{name}")
        return self._sos

    def command(self, command: str) -> str | None:
        path = self._sos_index().get(mangle(command))
        return self.text(path) if path else None

    def command_names(self, prefix: str) -> list[str]:
        key = mangle(prefix)
        return sorted(name for name in self._sos_index() if name.startswith(key))


class TextSource(Source):
    """Files and command outputs recovered from report text (a supportconfig's ``*.txt``)."""

    def __init__(self, files: dict[str, str], outputs: dict[str, str]) -> None:
        super().__init__()
        self.files = {path.strip("/"): clean(text) for path, text in files.items()}
        self.saved = {normalize_command(cmd): clean(text) for cmd, text in outputs.items()}

    def text(self, rel: str, limit: int = MAX_BYTES, head: bool = False) -> str | None:
        return self.files.get(rel.strip("/"))

    def listdir(self, rel: str) -> list[str]:
        prefix = rel.strip("/") + "/"
        return sorted({p[len(prefix) :].split("/", 1)[0] for p in self.files if p.startswith(prefix)})

    def isdir(self, rel: str) -> bool:
        prefix = rel.strip("/") + "/"
        return any(p.startswith(prefix) for p in self.files)

    def command(self, command: str) -> str | None:
        return self.saved.get(normalize_command(command))

    def command_names(self, prefix: str) -> list[str]:
        key = normalize_command(prefix)
        return sorted(cmd for cmd in self.saved if cmd.startswith(key))


def _decoded(data: bytes, limit: int, head: bool) -> tuple[str | None, str]:
    """The text of a file's first ``limit`` + 1 bytes (up to its last whole line within ``limit`` for ``head``),
    or why it is refused."""
    if len(data) > limit and head:
        data = data[: data.rfind(b"\n", 0, limit) + 1]
    elif len(data) > limit:
        return None, larger_than(limit)
    if b"\0" in data:
        return None, "binary"
    return clean(data.decode("utf-8", errors="replace")), ""


def _read_bounded(fd: int, limit: int) -> bytes:
    """Up to ``limit`` + 1 bytes from ``fd``: one byte more than allowed says the file is longer."""
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
