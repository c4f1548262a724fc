"""Persistence writers: the files that keep a plan's changes across reboots, and the commands that install,
reload and remove them. One module per method: udev rules, sysctl.d, the kernel command line (GRUB, zipl),
fstab. :func:`files` composes the whole files of one or many plans."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from iosched.persist import sysctld, udev
from iosched.plan import Plan, Step


def _every(step: Step) -> bool:
    return True


def files(plans: Sequence[Plan], keep: Callable[[Step], bool] = _every) -> dict[str, str]:
    """Path -> content of every file that persists the kept steps: one udev rule line per device (scheduler
    first), one sysctl.d line per setting."""
    rules, sysctls = [], []
    for plan in plans:
        on_udev = [s for s in plan.steps if s.persist_method == "udev-rule" and keep(s)]
        if on_udev:
            what = f"{plan.device}: {plan.facts.get('hw', '?')} disk, {plan.facts.get('workload', '?')} workload"
            rules.append((what, plan.udev_match, on_udev))
        sysctls += [s for s in plan.steps if s.persist_method == "sysctl-d" and keep(s)]
    found: dict[str, str] = {}
    if rules:
        found[udev.FILE] = udev.content(rules)
    if sysctls:
        found[sysctld.FILE] = sysctld.content(sysctls)
    return found
