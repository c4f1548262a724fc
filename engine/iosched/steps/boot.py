"""The boot-parameter step kind: a kernel command-line parameter, kept by the boot loader, effective at the
next boot."""

from __future__ import annotations

from iosched.escape import sh_word
from iosched.plan import Step
from iosched.steps.base import StepKind
from iosched.system import cmdline

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.system.model import System


def parameter(step: Step) -> str:
    return f"{step.target}={step.value}"


class BootParameter(StepKind):
    name = "boot-parameter"
    order = 5
    persist_methods = ("kernel-cmdline", "zipl")
    host_wide = True
    runtime = False
    by_hand = "it takes effect at the next boot"

    def _loader(self, step: Step, distro: Any) -> cmdline.Loader:
        return cmdline.loader_for(distro, s390=step.persist_method == "zipl")

    def apply(self, step: Step, distro: Any = None) -> str:
        return cmdline.add(parameter(step), self._loader(step, distro))

    def verify(self, step: Step) -> str:
        return f"grep -o {sh_word(parameter(step))} /proc/cmdline"

    def expect(self, step: Step) -> str:
        return parameter(step)

    def undo(self, step: Step, distro: Any = None) -> str | None:
        return cmdline.remove(parameter(step), self._loader(step, distro))

    def current(self, system: System, step: Step) -> str | None:
        for word in (system.host.cmdline or "").split():
            name, _, value = word.partition("=")
            if name == step.target:
                return value
        return None
