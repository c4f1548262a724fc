"""The mount-option step kind: remount a file system with an option (used to turn barriers back on)."""

from __future__ import annotations

from iosched.escape import sh_word
from iosched.plan import Step
from iosched.steps.base import StepKind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.system.model import System

MOUNTPOINT_HINT = "MNT=/path/to/mountpoint  # the file system's mount point: findmnt -t {fs} lists them"


class MountOption(StepKind):
    name = "mount-option"
    order = 4
    persist_methods = ("fstab",)
    host_wide = True
    runtime = False
    by_hand = "it needs the mount point"

    def _where(self, step: Step) -> tuple[str, str]:
        """The mount point as a shell word, and a line that sets it when the plan does not know it."""
        if step.mountpoint:
            return sh_word(step.mountpoint), ""
        fs = step.target.split(".", 1)[0]
        return '"$MNT"', MOUNTPOINT_HINT.format(fs=fs) + "\n"

    def option(self, step: Step) -> str:
        return step.value

    def apply(self, step: Step, distro: Any = None) -> str:
        where, setup = self._where(step)
        return f"{setup}sudo mount -o {sh_word('remount,' + self.option(step))} {where}"

    def verify(self, step: Step) -> str:
        where, setup = self._where(step)
        return f"{setup}findmnt -no OPTIONS {where}"

    def expect(self, step: Step) -> str:
        return self.option(step)

    def undo(self, step: Step, distro: Any = None) -> str | None:
        if step.previous is None:
            return None
        where, setup = self._where(step)
        return f"{setup}sudo mount -o {sh_word('remount,' + step.previous)} {where}"

    def current(self, system: System, step: Step) -> str | None:
        mount = next((m for m in system.mounts if m.mountpoint == step.mountpoint), None)
        if mount is None:
            return None
        return step.value if step.value in mount.options else ",".join(mount.options)
