"""Step kinds: one class per kind of change, owning how it is applied, persisted, verified and undone.

A new kind of step is one class here plus the KB entities it sets; every renderer (Markdown, JSON, sh,
Ansible) and ``iosched verify`` ask these classes, never spell a command themselves. The sh script and the
playbook run each step through one shell library (:mod:`iosched.steps.shell`), which reads the value first,
changes only what differs and keeps what it found; a kind gives it its arguments
(:meth:`StepKind.converge_args`).
"""

from __future__ import annotations

import re

from iosched.escape import sh_word
from iosched.records.plan import Step
from iosched.vocab import StepKindName

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from iosched.mechanisms.cmdline import Loader
    from iosched.records.system import System

_ACTIVE = r"\[([^\]]+)\]"
MOUNTPOINT_HINT = "MNT=/path/to/mountpoint  # the file system's mount point: findmnt -t {fs} lists them"


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
        if step.decide is not None:  # by hand: each case after the check that tells them apart
            return "\n".join(f"# {c.seen} in {step.decide.reader}:\n{self.apply(_with(step, value=c.value), distro)}"
                             for c in step.decide.choices if c.value != "-")  # fmt: skip
        return f"echo {sh_word(step.value)} | sudo tee {sh_word(self.path(step))} >/dev/null"

    def verify(self, step: Step) -> str:
        return f"cat {sh_word(self.path(step))}"

    def expect(self, step: Step) -> str:
        return step.value

    def undo(self, step: Step, distro: Any = None) -> str | None:
        if step.previous is None:
            return None
        return self.apply(_with(step, value=step.previous), distro)

    def read_now(self, step: Step) -> str:
        """A command that prints the value now, as a value the apply command takes."""
        return self.verify(step)

    def by_hand_pair(self, step: Step, distro: Any = None, var: str = "was") -> tuple[str, str | None, bool]:
        """The apply and undo commands a person runs, and whether the undo writes back what the apply found: where
        the value now was assumed and the step is applied at run time, the apply first keeps what
        :meth:`read_now` prints in ``$var`` and the undo writes that back; else the undo goes back to
        ``step.previous``."""
        apply = self.apply(step, distro)
        if step.current_from != "assumed" or not self.runtime:
            return apply, self.undo(step, distro), False
        placeholder = "IOSCHED_FOUND_VALUE"
        undo = self.apply(_with(step, value=placeholder), distro).replace(placeholder, f'"${var}"')
        return f"{var}=$({self.read_now(step)}) && {apply}", undo, True

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


def _with(step: Step, **changes: Any) -> Step:
    """The step with some fields changed (the value it had before, a coupled setting's name)."""
    return Step.build({**dict(step.fields()), "decide": None, **changes})


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

    def read_now(self, step: Step) -> str:
        return f"sed -n 's/.*\\[\\(.*\\)\\].*/\\1/p' {sh_word(self.path(step))}"

    def sh_check(self, step: Step) -> list[str]:
        offered = f"{step.device} does not offer {step.value}"
        if step.decide is not None:
            named = " or ".join(v for v in step.decide.values if v != "-")
            offered = f"{step.device}: {step.decide.reader} does not tell its case, or it does not offer {named}"
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
        return tuple(self.path(_with(step, target=name)) for name in step.coupled)

    def apply(self, step: Step, distro: Any = None) -> str:
        return f"sudo sysctl -w {sh_word(f'{step.target}={step.value}')}"

    def verify(self, step: Step) -> str:
        return f"sysctl -n {sh_word(step.target)}"


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


def parameter(step: Step) -> str:
    return f"{step.target}={step.value}"


class BootParameter(StepKind):
    name = "boot-parameter"
    order = 5
    persist_methods = ("kernel-cmdline", "zipl")
    host_wide = True
    runtime = False
    by_hand = "it takes effect at the next boot"

    def _loader(self, step: Step, distro: Any) -> Loader:
        from iosched.mechanisms.cmdline import (
            loader_for,  # a plan without boot parameters writes no boot loader command
        )

        return loader_for(distro, s390=step.persist_method == "zipl")

    def apply(self, step: Step, distro: Any = None) -> str:
        from iosched.mechanisms.cmdline import add

        return add(parameter(step), self._loader(step, distro))

    def verify(self, step: Step) -> str:
        return f"grep -o {sh_word(parameter(step))} /proc/cmdline"

    def expect(self, step: Step) -> str:
        return parameter(step)

    def undo(self, step: Step, distro: Any = None) -> str | None:
        from iosched.mechanisms.cmdline import remove

        return remove(parameter(step), self._loader(step, distro))

    def current(self, system: System, step: Step) -> str | None:
        for word in (system.host.cmdline or "").split():
            name, _, value = word.partition("=")
            if name == step.target:
                return value
        return None


STEP_KINDS: dict[StepKindName, StepKind] = {k.name: k for k in (Scheduler(), Tunable(), QueueAttribute(), Sysctl(),
                                                      MountOption(), BootParameter())}  # fmt: skip
STEP_ORDER: tuple[StepKindName, ...] = tuple(sorted(STEP_KINDS, key=lambda name: STEP_KINDS[name].order))


def kind_of(step: Step) -> StepKind:
    return STEP_KINDS[step.kind]
