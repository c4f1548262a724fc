"""Mounted file systems, from ``/proc/mounts`` as the kernel prints it."""

from __future__ import annotations

import re

from iosched.capture.source import Source
from iosched.grammar import UNSEEN_RANGES
from iosched.records.system import Mount

MOUNT_FILES = ("proc/mounts", "proc/self/mounts", "etc/mtab")
MAX_MOUNTS = 10_000
_OPTION = re.compile(r'(?:[^,"]|"[^"]*(?:"|$))+')
_OCTAL = re.compile(r"\\([0-7]{3})")
_UNSEEN = frozenset(c for first, last in UNSEEN_RANGES for c in range(first, last + 1))


def parse_mounts(text: str) -> tuple[Mount, ...]:
    """``device mountpoint fstype options dump pass`` lines; ``\\040``-style escapes decoded."""
    mounts = []
    for line in text.splitlines()[:MAX_MOUNTS]:
        fields = line.split()
        if len(fields) < 4 or not fields[1].startswith("/"):
            continue
        device, mountpoint, fstype, options = (_unescape(f) for f in fields[:4])
        mounts.append(Mount(device=device, mountpoint=mountpoint, fstype=fstype, options=split_options(options)))
    return tuple(mounts)


CGROUP_ROOT = "/sys/fs/cgroup"


def cgroup_layout(mounts: tuple[Mount, ...]) -> str | None:
    """The cgroup hierarchy the mounts show: ``v2`` (cgroup2 on /sys/fs/cgroup), ``hybrid`` (v1 controllers beside
    systemd's cgroup2 tree), ``v1``; None when no cgroup file system is mounted (or the mounts were not read)."""
    if any(m.fstype == "cgroup2" and m.mountpoint == CGROUP_ROOT for m in mounts):
        return "v2"
    if any(m.fstype == "cgroup" for m in mounts):
        return "hybrid" if any(m.fstype == "cgroup2" for m in mounts) else "v1"
    return None


def split_options(text: str) -> tuple[str, ...]:
    """Mount options as the kernel and mount(8) separate them: at commas outside double quotes, so that
    ``context="system_u:object_r:container_file_t:s0:c184,c371"`` (SELinux quotes a value that holds a comma,
    security/selinux/hooks.c) stays one option, kept as written, quotes and all (libmount's
    ``mnt_optstr_next_option`` reads them so)."""
    return tuple(o for o in _OPTION.findall(text) if o)


def read_mounts(src: Source) -> tuple[tuple[Mount, ...], list[str]]:
    found = src.first(MOUNT_FILES)
    if found is None:
        return (), ["mounts (proc/mounts)"]
    return parse_mounts(found[1]), []


def _unescape(text: str) -> str:
    """A field with the kernel's octal escapes decoded (fs/proc_namespace.c escapes space, tab, newline and
    backslash), once; an escape that would give a control character (a tab, a newline) is kept as it is
    written, so that a field stays one line of visible text."""
    return _OCTAL.sub(lambda m: m[0] if int(m[1], 8) < 0x20 or int(m[1], 8) in _UNSEEN else chr(int(m[1], 8)), text)
