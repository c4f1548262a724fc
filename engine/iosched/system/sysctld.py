"""sysctl.d files in the order ``systemd-sysctl`` and ``sysctl --system`` apply them, and the keys they set.

A file in /etc/sysctl.d replaces a same-named one in /run, /usr/local/lib, /usr/lib or /lib (sysctl.d(5));
files apply in file-name order, /etc/sysctl.conf last. A later file wins for a key that several set.
"""

from __future__ import annotations

from iosched.system import settings
from iosched.system.model import Tuner
from iosched.system.source import Source

SYSCTL_DIRS = ("etc/sysctl.d", "run/sysctl.d", "usr/local/lib/sysctl.d", "usr/lib/sysctl.d", "lib/sysctl.d")


def parse_sysctl_conf(text: str) -> dict[str, str]:
    found = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        key, sep, value = line.partition("=")
        name = settings.sysctl_setting(key) if sep else None
        if name:
            found[name] = settings.value(value)
    return found


def sysctl_files(src: Source) -> list[str]:
    files = src.dropins(SYSCTL_DIRS, ".conf")
    if not any(src.link(path) in ("../sysctl.conf", "/etc/sysctl.conf") for path in files):
        files.append("etc/sysctl.conf")
    return files


def read_sysctl_tuners(src: Source) -> list[Tuner]:
    tuners = []
    for path in sysctl_files(src):
        found = parse_sysctl_conf(src.text(path) or "")
        if found:
            tuners.append(Tuner(kind="sysctl.d", name=f"/{path}", settings=found))
    return tuners
