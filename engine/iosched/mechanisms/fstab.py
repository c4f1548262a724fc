"""Mount options in /etc/fstab, edited on the line of one mount point."""

from __future__ import annotations

from iosched.escape import sh_word
from iosched.records.plan import Step

FILE = "/etc/fstab"


def _address(step: Step) -> str:
    """A sed address that selects the fstab line of the step's mount point (``$MNT`` when not known)."""
    if step.mountpoint:
        return sh_word(rf"\|[[:space:]]{step.mountpoint}[[:space:]]|")
    return r'"\|[[:space:]]$MNT[[:space:]]|"'


def replace(step: Step, old: str, new: str) -> str:
    """A command that swaps one option for another on the mount point's line."""
    return f"sudo sed -i {_address(step)}{sh_word(f's/{old}/{new}/')} {FILE}"
