"""Which persistence method keeps each step: the ones the user asked for (``--persist udev,sysctl``), or under
``auto`` the one the host calls for.

Under ``auto`` a host whose probe shows TuneD running a profile keeps schedulers, read-ahead and sysctls in a
TuneD profile (TuneD would otherwise set its own values over a udev rule, after boot and whenever a disk is
added); other hosts use udev rules and sysctl.d. A host on tuned 0.2 (RHEL 6) is one of the others: it never reads
a TuneD 2 profile, so ``--persist tuned`` is refused there. Either way a method that another tuner on the host would
override (:mod:`.precedence`) gives way to one that holds, when there is one. A scheduler goes with its
elevator's tunables: only a udev rule sets the tunables after the scheduler, and a switch resets them.
Boot parameters are kept by the host's boot loader (zipl on IBM Z, else GRUB), mount options in fstab.
"""

from __future__ import annotations

from collections.abc import Sequence

from iosched.persist import PersistError
from iosched.persist.precedence import overriding
from iosched.plan import Step
from iosched.steps import STEP_KINDS, kind_of
from iosched.system import cmdline, tuned
from iosched.system.model import Tuner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

AUTO = "auto"
NAMES = {"udev": "udev-rule", "tuned": "tuned-profile", "sysctl": "sysctl-d", "grub": "kernel-cmdline",
         "zipl": "zipl"}  # fmt: skip
"""``--persist`` words and the persistence method ids they name."""
WORDS = {method: word for word, method in NAMES.items()}
BOOT_LOADERS = ("kernel-cmdline", "zipl")


def requested(text: str | None) -> tuple[str, ...]:
    """The method ids a ``--persist`` value names, in its order; () for ``auto`` (or nothing said)."""
    if text is None or text.strip() == AUTO:
        return ()
    words = [w.strip() for w in text.split(",")]
    unknown = [w for w in words if w not in NAMES]
    if unknown:
        valid = ", ".join([AUTO, *NAMES])
        raise PersistError(f"unknown persistence method {unknown[0]!r}; valid: {valid}, or a list such as udev,sysctl")
    return tuple(dict.fromkeys(NAMES[w] for w in words))


def keeps(method: str, step: Step) -> bool:
    """Whether ``method`` can keep the step (a TuneD profile sets no elevator tunables and, of the queue
    attributes, only read-ahead)."""
    return method in kind_of(step).persist_methods and (method != "tuned-profile" or tuned.keeps(step))


def _boot_loader(asked: Sequence[str], distro: Any, s390: bool) -> str:
    native = "zipl" if s390 else "kernel-cmdline"
    wanted = [m for m in asked if m in BOOT_LOADERS]
    if not wanted or native in wanted:
        return native
    if s390 and cmdline.loader_for(distro, s390=True).kind == "grub2":
        return "kernel-cmdline"
    loader = "zipl (IBM Z)" if s390 else "GRUB"
    raise PersistError(f"--persist {WORDS[wanted[0]]} does not fit this host, which boots with {loader}: "
                       f"use --persist {WORDS[native]} for its boot parameters")  # fmt: skip


def _refusal(step: Step, asked: Sequence[str], able: Sequence[str], with_tunables: bool) -> str:
    what = f"{kind_of(step).label(step)}" + (f" of {step.device}" if step.device else "")
    said = ",".join(WORDS[m] for m in asked)
    if not able:
        return f"--persist {said} cannot keep {what}"
    why = " (a scheduler goes with its elevator's tunables)" if step.kind == "scheduler" and with_tunables else ""
    return f"--persist {said} cannot keep {what}{why}: add {' or '.join(WORDS[m] for m in able)}, e.g. " \
           f"--persist {said},{WORDS[able[0]]}"  # fmt: skip


def method_for(step: Step, asked: Sequence[str], tuners: Sequence[Tuner], *, distro: Any = None,
               s390: bool = False, with_tunables: bool = False) -> str:  # fmt: skip
    """The persistence method of one step. ``asked`` are the methods the user named (none: auto), ``tuners``
    what the host runs (in the order they act), ``with_tunables`` whether the plan sets tunables of the
    device's elevator. Raises PersistError for a request that cannot keep the step on this host."""
    kind = kind_of(step)
    if kind.name == "boot-parameter":
        return _boot_loader(asked, distro, s390)
    able = [m for m in kind.persist_methods if keeps(m, step)]
    if kind.name == "scheduler" and with_tunables:
        able = [m for m in able if m in STEP_KINDS["tunable"].persist_methods]
    if len(kind.persist_methods) == 1:
        return able[0]
    running = tuned.base(tuners) is not None
    if asked:
        chosen = next((m for m in asked if m in able), None)
        if chosen is None:
            raise PersistError(_refusal(step, asked, able, with_tunables))
        if chosen == "tuned-profile" and any(t.kind == "ktune" for t in tuners):
            raise PersistError(
                "--persist tuned writes a TuneD 2 profile, which this host's tuned 0.2 (/etc/tune-profiles) never "
                "reads: use --persist udev"
            )
        if chosen == "tuned-profile" and not running:
            raise PersistError(
                "--persist tuned builds on the TuneD profile the host runs, and none was read: "
                "plan the host with --probe or --root (tuned-adm active must name a profile)"
            )
        return chosen
    usable = sorted((m for m in able if m != "tuned-profile" or running), key=lambda m: m != "tuned-profile")
    return next((m for m in usable if overriding(m, step, tuners) is None), usable[0])
