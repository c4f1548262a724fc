"""A sysctl.d file per plan: the writeback sysctls it sets, loaded at every boot by systemd-sysctl.

Named after the plan's device (``90-iosched-sdb.conf``), so that the plans of different devices never replace
each other's file and each undo removes only its own; where two set one sysctl, the file that sorts last wins
at boot, as the plan applied last does at run time."""

from __future__ import annotations

from collections.abc import Iterable

from iosched.escape import sh_word
from iosched.plan import Step

DIRECTORY = "/etc/sysctl.d/"
PREFIX, SUFFIX = "90-iosched-", ".conf"
FILE = f"{DIRECTORY}{PREFIX}DEVICE{SUFFIX}"
"""How the files are named (the documentation's spelling); :func:`path` gives one plan's."""


def path(device: str) -> str:
    return f"{DIRECTORY}{PREFIX}{device}{SUFFIX}"


def is_conf(name: str) -> bool:
    """Whether a path is one of iosched's sysctl files."""
    return name.startswith(DIRECTORY + PREFIX) and name.endswith(SUFFIX)


def line(step: Step) -> str:
    return f"{step.target} = {step.value}"


def content(steps: Iterable[Step]) -> str:
    lines = ["# Written by iosched for one plan; remove this file to undo at the next boot."]
    lines += list(dict.fromkeys(line(s) for s in steps))
    return "\n".join(lines)


def install(file: str, text: str) -> str:
    return f"printf '%s\\n' {sh_word(text)} | sudo tee {sh_word(file)} >/dev/null\nsudo sysctl -p {sh_word(file)}"


def remove(file: str) -> str:
    return f"sudo rm -f {sh_word(file)}"
