"""Step kinds that write a device's sysfs queue files: the scheduler, an elevator tunable, a queue attribute."""

from __future__ import annotations

import re

from iosched.escape import sh_word
from iosched.plan import Step
from iosched.steps.base import StepKind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.system.model import System

_ACTIVE = r"\[([^\]]+)\]"


def queue_path(device: str | None, name: str) -> str:
    return f"/sys/block/{device}/queue/{name}"


class Scheduler(StepKind):
    name = "scheduler"
    order = 0
    persist_methods = ("udev-rule", "tuned-profile")

    def path(self, step: Step) -> str:
        return queue_path(step.device, "scheduler")

    def read(self, text: str) -> str:
        found = re.search(_ACTIVE, text)
        return found[1] if found else text.strip()

    def current(self, system: System, step: Step) -> str | None:
        device = system.device(step.device or "")
        return device.scheduler if device else None

    def expect(self, step: Step) -> str:
        return f"[{step.value}]"

    def sh_check(self, step: Step) -> list[str]:
        offered = f"{step.device} does not offer {step.value}"
        return [
            *super().sh_check(step),
            f"offered {self.sh_path(step)} {sh_word(step.value)} || die {sh_word(offered)}",
        ]


class Tunable(StepKind):
    name = "tunable"
    order = 1
    persist_methods = ("udev-rule",)

    def path(self, step: Step) -> str:
        return queue_path(step.device, f"iosched/{step.target.split('.', 1)[1]}")

    def tuner_key(self, step: Step) -> str:
        return f"iosched/{step.target.split('.', 1)[1]}"

    def sh_check(self, step: Step) -> list[str]:
        """Nothing to check up front: the elevator's files appear only once the scheduler step has switched to
        it, and writing them then fails loudly (and rolls back) if they do not."""
        return []

    def current(self, system: System, step: Step) -> str | None:
        device = system.device(step.device or "")
        elevator, name = step.target.split(".", 1)
        if device is None or device.scheduler != elevator:
            return None
        return device.iosched.get(name)


class QueueAttribute(StepKind):
    name = "queue-attribute"
    order = 2
    persist_methods = ("udev-rule", "tuned-profile")

    def path(self, step: Step) -> str:
        return queue_path(step.device, step.target.removeprefix("queue."))

    def label(self, step: Step) -> str:
        return "queue/" + step.target.removeprefix("queue.")

    def current(self, system: System, step: Step) -> str | None:
        device = system.device(step.device or "")
        return device.queue.get(step.target.removeprefix("queue.")) if device else None
