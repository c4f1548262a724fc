"""Unattached loop devices (no backing file, size 0): every host has a few, and each is the same "not planned"
line, so reports summarise them in one line."""

from __future__ import annotations

import re
from collections.abc import Iterable

from iosched.system.model import Device

UNATTACHED = "an unattached loop device (no backing file, size 0): nothing to plan"


def unattached(device: Device) -> bool:
    return device.kind == "loop" and device.size_bytes == 0


def names(devices: Iterable[str]) -> str:
    """``loop0-loop7`` for a run of numbered names, else the names joined by commas."""
    found = list(devices)
    numbers = [re.fullmatch(r"loop(\d+)", name) for name in found]
    if len(found) > 2 and all(numbers):
        values = [int(m[1]) for m in numbers if m]
        if values == list(range(values[0], values[0] + len(values))):
            return f"loop{values[0]}-loop{values[-1]}"
    return ", ".join(found)


def grouped(count: int) -> str:
    """The reason that stands for ``count`` unattached loop devices."""
    return f"{count} unattached loop devices (no backing file, size 0): nothing to plan"
