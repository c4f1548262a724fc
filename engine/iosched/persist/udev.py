"""A udev rule file per device that re-applies its scheduler and queue settings whenever it appears or changes.

One file per device (``60-iosched-sdb.rules``), so that plans of different devices never replace each other's
rules and each undo removes only its own; ``60-`` sorts them before the rules of later tuners, whose last
assignment wins (:mod:`.precedence`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from iosched.escape import sh_comment, sh_word, udev_value
from iosched.plan import Step

DIRECTORY = "/etc/udev/rules.d/"
PREFIX, SUFFIX = "60-iosched-", ".rules"
FILE = f"{DIRECTORY}{PREFIX}DEVICE{SUFFIX}"
"""How the files are named (the documentation's spelling); :func:`path` gives one device's."""


def path(device: str) -> str:
    """The rule file of one device (a kernel name, checked by the DEVICE grammar before it gets here)."""
    return f"{DIRECTORY}{PREFIX}{device}{SUFFIX}"


def is_rules(name: str) -> bool:
    """Whether a path is one of iosched's rule files."""
    return name.startswith(DIRECTORY + PREFIX) and name.endswith(SUFFIX)


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


def content(comment: str, match_terms: str, steps: Iterable[Step]) -> str:
    """One device's file: what it is for, and its rule."""
    lines = ["# Written by iosched for one device; remove this file (and reload udev) to undo.",
             f"# {sh_comment(comment)}", rule(match_terms, steps)]  # fmt: skip
    return "\n".join(lines)


def install(file: str, text: str) -> str:
    return f"printf '%s\\n' {sh_word(text)} | sudo tee {sh_word(file)} >/dev/null\n{RELOAD}"


def remove(file: str) -> str:
    return f"sudo rm -f {sh_word(file)} && {RELOAD}"
