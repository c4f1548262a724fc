"""What every step kind provides: how to apply, verify and undo a step, by hand and in the sh script, and
how to read its current value from an observed system. Subclasses set a few primitives; the rest is derived,
the way TuneD derives verify and rollback from a set and a get per option."""

from __future__ import annotations

from iosched.escape import sh_word
from iosched.plan import Step
from iosched.vocab import StepKindName

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from iosched.system.model import System


class StepKind:
    """One kind of change (scheduler, tunable, queue attribute, sysctl, mount option, boot parameter)."""

    name: ClassVar[StepKindName]
    order: ClassVar[int]
    persist_methods: ClassVar[tuple[str, ...]]
    """KB persistence method ids that can keep this kind of change; the first is the default."""
    host_wide: ClassVar[bool] = False
    runtime: ClassVar[bool] = True
    """Whether the sh script applies it now (a mount option needs its mount point, a boot parameter a reboot)."""
    by_hand: ClassVar[str] = ""
    """Why the sh script leaves a kind that is not ``runtime`` to the user."""

    # ----------------------------------------------------------------- primitives

    def path(self, step: Step) -> str:
        """The file that holds the value (``/sys/block/sda/queue/scheduler``)."""
        raise NotImplementedError

    def read(self, text: str) -> str:
        """The value in what the file reads (the scheduler file brackets the active one)."""
        return text.strip()

    def current(self, system: System, step: Step) -> str | None:
        """The value an observed system has now; None when it has no such setting."""
        raise NotImplementedError

    def label(self, step: Step) -> str:
        """The setting's name in verify tables and tuner listings (``queue/read_ahead_kb``, ``vm.dirty_ratio``)."""
        return step.target

    def tuner_key(self, step: Step) -> str:
        """The setting as other tuners' files name it (udev ``ATTR{queue/...}``, sysctl.d, TuneD)."""
        return self.label(step)

    # ----------------------------------------------------------------- derived: by hand

    def apply(self, step: Step, distro: Any = None) -> str:
        return f"echo {sh_word(step.value)} | sudo tee {sh_word(self.path(step))} >/dev/null"

    def verify(self, step: Step) -> str:
        return f"cat {sh_word(self.path(step))}"

    def expect(self, step: Step) -> str:
        return step.value

    def undo(self, step: Step, distro: Any = None) -> str | None:
        if step.previous is None:
            return None
        return self.apply(_with_value(step, step.previous), distro)

    # ----------------------------------------------------------------- derived: the sh script

    def sh_path(self, step: Step) -> str:
        """The file, under the script's root ``$R``."""
        return f'"$R"{sh_word(self.path(step))}'

    def sh_check(self, step: Step) -> list[str]:
        """Lines that fail before anything changes when the step cannot apply."""
        if not self.runtime:
            return []
        return [f"writable {self.sh_path(step)} || die {sh_word(f'cannot write {self.path(step)}')}"]

    def coupled_paths(self, step: Step) -> tuple[str, ...]:
        """The files the kernel resets when this one is written, kept and restored with it."""
        return ()

    def converge_args(self, step: Step) -> tuple[str, ...]:
        """The arguments of the shell library's ``converge`` (:mod:`iosched.steps.shell`), without the root."""
        return (self.name, self.path(step), step.value, *self.coupled_paths(step))

    def sh_apply(self, step: Step) -> list[str]:
        """Read the value, change it only where it differs, journal what was found; stop (and roll back) on
        a failure."""
        if not self.runtime:
            by_hand = (f"#   {line}" for line in self.apply(step).splitlines())
            return [f"# not applied by this script ({self.by_hand}); by hand:", *by_hand]
        kind, path, value, *coupled = self.converge_args(step)
        files = " ".join(f'"$R"{sh_word(p)}' for p in (path, *coupled))
        first, _, rest = files.partition(" ")
        args = f"{sh_word(kind)} {first} {sh_word(value)}" + (f" {rest}" if rest else "")
        return [f"converge {args} || die {sh_word(f'{step.title}: failed')}"]


def _with_value(step: Step, value: str) -> Step:
    return Step.build({**dict(step.fields()), "value": value})
