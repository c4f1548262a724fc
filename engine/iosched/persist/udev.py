"""A udev rule file that re-applies the scheduler and queue settings whenever a device appears or changes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from iosched.plan import Step
from iosched.render.escape import sh_comment, sh_word, udev_value

FILE = "/etc/udev/rules.d/60-iosched.rules"
RELOAD = "sudo udevadm control --reload && sudo udevadm trigger --action=change --subsystem-match=block"
HEAD = 'ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk"'


def terms(matches: Iterable[Any]) -> str:
    """``KEY=="GLOB"`` terms (KB :class:`~iosched.model.UdevMatch` values) as a rule joins them."""
    return ", ".join(f'{m.key}=="{udev_value(m.value)}"' for m in matches)


def match(device: str, *, serial: str | None = None, wwn: str | None = None) -> str:
    """The terms that select one device: its WWN or serial when known (stable), else its kernel name."""
    if wwn:
        return f'ENV{{ID_WWN}}=="{udev_value(wwn)}"'
    if serial:
        return f'ENV{{ID_SERIAL}}=="{udev_value(serial)}"'
    return f'KERNEL=="{udev_value(device)}"'


def assignment(step: Step) -> str:
    """``ATTR{queue/scheduler}="mq-deadline"``: the sysfs file relative to the device, and the value."""
    attribute = (
        step.target.removeprefix("queue.") if step.kind != "tunable" else f"iosched/{step.target.split('.', 1)[1]}"
    )
    return f'ATTR{{queue/{attribute}}}="{udev_value(step.value)}"'


def rule(match_terms: str, steps: Iterable[Step]) -> str:
    """One rule line; udev applies assignments in order, so the scheduler comes first (it resets the tunables)."""
    ordered = sorted(steps, key=lambda s: s.kind != "scheduler")
    return ", ".join([HEAD, match_terms, *(assignment(s) for s in ordered)])


def content(rules: Iterable[tuple[str, str, Iterable[Step]]]) -> str:
    """The whole file from (comment, match terms, steps) per device."""
    lines = ["# Written by iosched; remove this file (and reload udev) to undo."]
    for comment, match_terms, steps in rules:
        lines += [f"# {sh_comment(comment)}", rule(match_terms, steps)]
    return "\n".join(lines)


def install(text: str) -> str:
    return f"printf '%s\\n' {sh_word(text)} | sudo tee {FILE} >/dev/null\n{RELOAD}"


def remove() -> str:
    return f"sudo rm -f {FILE} && {RELOAD}"
