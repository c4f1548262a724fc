"""Which other tuner wins over a persistence method for one setting, from the order in which they act.

At boot the kernel command line acts first; then systemd-sysctl applies the sysctl.d files in file-name order,
``/etc/sysctl.conf`` last; udev applies its rule files in file-name order as it adds each device, and the last
assignment wins. TuneD starts after both and sets its ``[disk]`` options again whenever a disk is added, after
udev's rules for it ran, so it wins over udev rules; its ``[sysctl]`` plugin then applies ``/etc/sysctl.d``,
``/run/sysctl.d`` and ``/etc/sysctl.conf`` again (``reapply_sysctl``, on by default), so those files win over
a TuneD profile's sysctls. tuned 0.2's ktune init script (RHEL 6) writes its elevator at boot, after udev added
the disks. saptune and sapconf apply their notes last. The probe lists the tuners in this
order (:func:`iosched.system.reader.read_tuners`).
"""

from __future__ import annotations

from collections.abc import Sequence

from iosched.plan import Step, TunedBase
from iosched.steps import kind_of
from iosched.system import sysctld, tuned, udev
from iosched.system.model import Tuner

_LAST = ("saptune", "sapconf")
_TUNER = {"tuned": "the TuneD profile", "ktune": "tuned 0.2's ktune service", "udev": "the udev rule",
          "sysctl.d": "the sysctl file", "kernel-cmdline": "the kernel command line", "saptune": "saptune",
          "sapconf": "sapconf"}  # fmt: skip
_METHOD = {"udev-rule": f"iosched's udev rule ({udev.FILE})", "sysctl-d": f"iosched's sysctl file ({sysctld.FILE})",
           "tuned-profile": "iosched's TuneD profile"}  # fmt: skip


def concerns(tuner: Tuner, device: str | None) -> bool:
    """Whether a tuner can set this device's value (a udev rule limited by KERNEL== to other disks cannot)."""
    return tuner.reaches(device)


def _acts_after(method: str, tuner: Tuner, step: Step, device: str | None = None) -> bool:
    """Whether ``tuner`` sets its value after the file ``method`` writes for the plan of ``device``, at boot or
    when the device appears (each mechanism knows who acts after it)."""
    if tuner.kind in _LAST:
        return True
    if method == "udev-rule":
        return udev.acts_after(tuner, step.device or device)
    if method == "sysctl-d":
        return sysctld.acts_after(tuner, device)
    if method == "tuned-profile":
        return tuned.acts_after(tuner, step)
    return False


def changes(theirs: str, ours: str) -> bool:
    """Whether a tuner's value would change ours: TuneD's ``>N`` only raises a smaller value, ``<N`` only
    lowers a larger one."""
    bound = theirs[1:].strip()
    if theirs.startswith((">", "<")) and bound.isdigit() and ours.isdigit():
        return int(ours) < int(bound) if theirs.startswith(">") else int(ours) > int(bound)
    return theirs != ours


def overriding(method: str, step: Step, tuners: Sequence[Tuner], device: str | None = None) -> Tuner | None:
    """The tuner that would leave the step's setting at another value than the file ``method`` writes (for
    the plan of ``device``): the last to act after it that sets the setting; None when there is none, or it
    sets the same value."""
    key = kind_of(step).tuner_key(step)
    later = [t for t in tuners if t.active and key in t.settings and concerns(t, step.device)
             and _acts_after(method, t, step, device)]  # fmt: skip
    return later[-1] if later and changes(later[-1].settings[key], step.value) else None


def is_ours(method: str, tuner: Tuner, base: TunedBase | None, device: str | None = None) -> bool:
    """Whether a tuner read from the host is the file iosched writes for ``method`` in the plan of ``device``
    (without a device: in any plan)."""
    if method == "tuned-profile":
        return tuner.kind == "tuned" and base is not None and tuner.name == tuned.name(base)
    if method == "udev-rule":
        file = udev.rule_file(tuner)
        return file == udev.ours(device) if device is not None else udev.is_rules(file)
    if method == "sysctl-d":
        return tuner.name == sysctld.ours(device) if device is not None else sysctld.is_conf(tuner.name)
    return False


def caveat(method: str, tuner: Tuner) -> str:
    """The KB caveat that explains why ``tuner`` wins over ``method``."""
    return "tuned-overrides-udev" if method == "udev-rule" and tuner.kind == "tuned" else "later-tuner-wins"


def describe(step: Step, tuner: Tuner) -> str:
    """``vdb scheduler: the udev rule /etc/udev/...:2 sets none after iosched's udev rule (...)``."""
    key = kind_of(step).tuner_key(step)
    where = f"{step.device} " if step.device else ""
    return (f"{where}{kind_of(step).label(step)}: {_TUNER.get(tuner.kind, tuner.kind)} {tuner.label()} sets "
            f"{tuner.settings[key]} after {_METHOD.get(step.persist_method, step.persist_method)}")  # fmt: skip
