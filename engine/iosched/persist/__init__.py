"""Persistence: the files that keep a plan's changes across reboots, and the commands that install, reload and
remove them. Each mechanism is one module of :mod:`iosched.system` that reads and writes its files and knows its
precedence (``udev``, ``sysctld``, ``tuned``, ``cmdline``, ``fstab``); this package puts them together:
:func:`files` composes the whole files of one or many plans, :mod:`.choose` decides which mechanism keeps each
step, :mod:`.precedence` which other tuner would win over it, and :mod:`.shell` how the sh script writes the files
and undoes them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from iosched.plan import Plan, Step, TunedBase
from iosched.system import sysctld, tuned, udev


class PersistError(ValueError):
    """A persistence method that cannot keep a plan's steps on this host (exit 2 in the CLI)."""


def _every(step: Step) -> bool:
    return True


def tuned_base(plans: Sequence[Plan]) -> TunedBase | None:
    """The TuneD profiles a host runs, as its plans carry them."""
    return next((plan.tuned for plan in plans if plan.tuned is not None), None)


def files(plans: Sequence[Plan], keep: Callable[[Step], bool] = _every) -> dict[str, str]:
    """Path -> content of every file that persists the kept steps: a udev rule file per device (scheduler
    first), a sysctl.d file per plan that sets sysctls (each setting once, in the first plan's file), one TuneD
    profile with a unit per disk. Files of different devices never share a path: plans coexist."""
    found: dict[str, str] = {}
    disks, tuned_sysctls, seen = [], [], set()
    for plan in plans:
        kept = [s for s in plan.steps if keep(s)]
        on_udev = [s for s in kept if s.persist_method == "udev-rule"]
        if on_udev:
            what = f"{plan.device}: {plan.facts.get('hw', '?')} disk, {plan.facts.get('workload', '?')} workload"
            found[udev.path(plan.device)] = udev.content(what, plan.udev_match, on_udev)
        sysctls = [s for s in kept if s.persist_method == "sysctl-d" and sysctld.line(s) not in seen]
        seen |= {sysctld.line(s) for s in sysctls}
        if sysctls:
            found[sysctld.path(plan.device)] = sysctld.content(sysctls)
        on_tuned = [s for s in kept if s.persist_method == "tuned-profile"]
        if disk := [s for s in on_tuned if s.device is not None]:
            ids = {k: plan.context.get(k) for k in ("serial", "wwn")}
            on = plan.tuned or TunedBase(profiles=(), disk={})
            disks.append((plan.device, tuned.match(plan.device, **ids), disk, on))
        tuned_sysctls += [s for s in on_tuned if s.device is None]
    if disks or tuned_sysctls:
        base = tuned_base(plans)
        if base is None:
            raise PersistError("a step persists through TuneD, but no active TuneD profile was read to include")
        found[tuned.path(base)] = tuned.content(base, disks, tuned_sysctls)
    return found


def commands(plans: Sequence[Plan], path: str, content: str) -> tuple[str, str | None, str]:
    """How to install one file of ``files(plans)``, check it is in effect (None: reading it back is the check),
    and remove it again."""
    if udev.is_rules(path):
        return udev.install(path, content), None, udev.remove(path)
    if sysctld.is_conf(path):
        return sysctld.install(path, content), None, sysctld.remove(path)
    base = tuned_base(plans)
    assert base is not None and path == tuned.path(base), path
    return tuned.install(content, base), tuned.check(base), tuned.remove(base)


def location(method: str, base: TunedBase | None, device: str) -> str | None:
    """The file iosched writes for a persistence method in the plan of ``device``; None where ``verify``
    cannot read it back (the boot loader, fstab) or no TuneD profile is active to build on."""
    if method == "tuned-profile":
        return tuned.path(base) if base is not None else None
    return {"udev-rule": udev.path(device), "sysctl-d": sysctld.path(device)}.get(method)


def keeping(plans: Sequence[Plan], path: str) -> list[Step]:
    """The steps of ``plans`` that the file ``path`` of :func:`files` keeps."""
    return [step for plan in plans for step in plan.steps if path in files(plans, step.__eq__)]
