"""sysctl.d: the files ``systemd-sysctl`` and ``sysctl --system`` load at every boot, and the one iosched writes
per plan for the writeback sysctls it sets.

Files: a file in /etc/sysctl.d replaces a same-named one in /run, /usr/local/lib, /usr/lib or /lib (sysctl.d(5)).
iosched's is named after the plan's device (``90-iosched-sdb.conf``), so that the plans of different devices never
replace each other's file and each undo removes only its own.

Reading: the ``key = value`` lines of each file, as tuners. Writing: one line per sysctl, each once.

Precedence: files apply in file-name order, /etc/sysctl.conf last, and a later file wins for a key that several
set; where two plans set one sysctl, the file that sorts last wins at boot, as the plan applied last does at run
time.
"""

from __future__ import annotations

from collections.abc import Iterable
from posixpath import basename

from iosched.escape import sh_lines, sh_word
from iosched.records.plan import Step

# The functions that read a machine import its model where they build it: a plan from flags reads none.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.capture.source import Source
    from iosched.records.system import Tuner

# Files and precedence

DIRECTORY = "/etc/sysctl.d/"
PREFIX, SUFFIX = "90-iosched-", ".conf"
CONF = "/etc/sysctl.conf"
"""The file applied after every sysctl.d file."""
FILE = f"{DIRECTORY}{PREFIX}DEVICE{SUFFIX}"
"""How the files are named (the documentation's spelling); :func:`path` gives one plan's."""


def path(device: str) -> str:
    return f"{DIRECTORY}{PREFIX}{device}{SUFFIX}"


def is_conf(name: str) -> bool:
    """Whether a path is one of iosched's sysctl files."""
    return name.startswith(DIRECTORY + PREFIX) and name.endswith(SUFFIX)


def ours(device: str | None) -> str:
    """The file iosched writes for the plan of ``device`` (without one: the name all of them start with)."""
    return path(device) if device else DIRECTORY + PREFIX


def acts_after(tuner: Tuner, device: str | None) -> bool:
    """Whether ``tuner`` sets a sysctl after the file of ``device``: a sysctl file that sorts after it, or
    /etc/sysctl.conf (applied last)."""
    return tuner.kind == "sysctl.d" and (basename(tuner.name) > basename(ours(device)) or tuner.name == CONF)


# Writing


def line(step: Step) -> str:
    return f"{step.target} = {step.value}"


def content(steps: Iterable[Step]) -> str:
    lines = ["# Written by iosched for one plan; remove this file to undo at the next boot."]
    lines += list(dict.fromkeys(line(s) for s in steps))
    return "\n".join(lines)


def install(file: str, text: str) -> str:
    return f"printf '%s\\n' {sh_lines(text)} | sudo tee {sh_word(file)} >/dev/null\nsudo sysctl -p {sh_word(file)}"


def remove(file: str) -> str:
    return f"sudo rm -f {sh_word(file)}"


# Reading

SYSCTL_DIRS = ("etc/sysctl.d", "run/sysctl.d", "usr/local/lib/sysctl.d", "usr/lib/sysctl.d", "lib/sysctl.d")


def parse_sysctl_conf(text: str) -> dict[str, str]:
    from iosched.records.system import setting_value, sysctl_setting

    found = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        key, sep, value = line.partition("=")
        name = sysctl_setting(key) if sep else None
        if name:
            found[name] = setting_value(value)
    return found


def sysctl_files(src: Source) -> list[str]:
    files = src.dropins(SYSCTL_DIRS, ".conf")
    if not any(src.link(path) in ("../sysctl.conf", "/etc/sysctl.conf") for path in files):
        files.append("etc/sysctl.conf")
    return files


def read_sysctl_tuners(src: Source) -> list[Tuner]:
    from iosched.records.system import Tuner

    tuners = []
    for path in sysctl_files(src):
        found = parse_sysctl_conf(src.text(path) or "")
        if found:
            tuners.append(Tuner(kind="sysctl.d", name=f"/{path}", settings=found))
    return tuners
