"""The sysctl step kind: a writeback setting in ``/proc/sys``, for the whole host."""

from __future__ import annotations

from iosched.escape import sh_word
from iosched.plan import Step
from iosched.steps.base import StepKind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.system.model import System


class Sysctl(StepKind):
    name = "sysctl"
    order = 3
    persist_methods = ("sysctl-d", "tuned-profile")
    host_wide = True

    def path(self, step: Step) -> str:
        return "/proc/sys/" + step.target.replace(".", "/")

    def current(self, system: System, step: Step) -> str | None:
        return system.sysctls.get(step.target)

    def coupled_paths(self, step: Step) -> tuple[str, ...]:
        return tuple(self.path(_named(step, name)) for name in step.coupled)

    def apply(self, step: Step, distro: Any = None) -> str:
        return f"sudo sysctl -w {sh_word(f'{step.target}={step.value}')}"

    def verify(self, step: Step) -> str:
        return f"sysctl -n {sh_word(step.target)}"


def _named(step: Step, target: str) -> Step:
    return Step.build({**dict(step.fields()), "target": target})
