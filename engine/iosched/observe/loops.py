"""Unattached loop devices (no backing file, size 0): every host has a few, and each is the same "not planned"
line, so reports summarise them in one line."""

from __future__ import annotations

import re
from collections.abc import Iterable

from iosched.records.system import Device

UNATTACHED = "an unattached loop device (no backing file, size 0): nothing to plan"


def unattached(device: Device) -> bool:
    return device.kind == "loop" and device.size_bytes == 0


def names(devices: Iterable[str]) -> str:
    """The names, runs of consecutive loop numbers of three or more as a range: ``loop0, loop2-loop7``."""
    found = list(devices)
    numbers = [re.fullmatch(r"loop(\d+)", name) for name in found]
    if not all(numbers):
        return ", ".join(found)
    values = sorted(int(m[1]) for m in numbers if m)
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(f"loop{r[0]}-loop{r[-1]}" if len(r) > 2 else ", ".join(f"loop{v}" for v in r) for r in runs)


def grouped(count: int) -> str:
    """The reason that stands for ``count`` unattached loop devices."""
    return f"{count} unattached loop devices (no backing file, size 0): nothing to plan"
