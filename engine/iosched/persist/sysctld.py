"""A sysctl.d file: the writeback sysctls a plan sets, loaded at every boot by systemd-sysctl."""

from __future__ import annotations

from collections.abc import Iterable

from iosched.plan import Step
from iosched.render.escape import sh_word

FILE = "/etc/sysctl.d/90-iosched.conf"


def line(step: Step) -> str:
    return f"{step.target} = {step.value}"


def content(steps: Iterable[Step]) -> str:
    lines = ["# Written by iosched; remove this file to undo at the next boot."]
    lines += list(dict.fromkeys(line(s) for s in steps))
    return "\n".join(lines)


def install(text: str) -> str:
    return f"printf '%s\\n' {sh_word(text)} | sudo tee {FILE} >/dev/null\nsudo sysctl -p {FILE}"


def remove() -> str:
    return f"sudo rm -f {FILE}"
