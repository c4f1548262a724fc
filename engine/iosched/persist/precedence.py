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
from posixpath import basename

from iosched.persist import sysctld, tuned, udev
from iosched.plan import Step, TunedBase
from iosched.steps import kind_of
from iosched.system.model import Tuner

REAPPLIED = ("/etc/sysctl.d/", "/run/sysctl.d/")
"""Where the sysctl files are that TuneD applies again after its own sysctls (``/etc/sysctl.conf`` too)."""
_LAST = ("saptune", "sapconf")
_TUNER = {"tuned": "the TuneD profile", "ktune": "tuned 0.2's ktune service", "udev": "the udev rule",
          "sysctl.d": "the sysctl file", "kernel-cmdline": "the kernel command line", "saptune": "saptune",
          "sapconf": "sapconf"}  # fmt: skip
_METHOD = {"udev-rule": f"iosched's udev rule ({udev.FILE})", "sysctl-d": f"iosched's sysctl file ({sysctld.FILE})",
           "tuned-profile": "iosched's TuneD profile"}  # fmt: skip


def concerns(tuner: Tuner, device: str | None) -> bool:
    """Whether a tuner can set this device's value (a udev rule limited by KERNEL== to other disks cannot)."""
    return tuner.reaches(device)


def _file(tuner: Tuner) -> str:
    return tuner.name.rsplit(":", 1)[0] if tuner.kind == "udev" else tuner.name


def _ours(method: str, device: str | None) -> str:
    """The file ``method`` writes for the plan of ``device`` (without one: the name all of them start with)."""
    if method == "udev-rule":
        return udev.path(device) if device else udev.DIRECTORY + udev.PREFIX
    return sysctld.path(device) if device else sysctld.DIRECTORY + sysctld.PREFIX


def _acts_after(method: str, tuner: Tuner, step: Step, device: str | None = None) -> bool:
    """Whether ``tuner`` sets its value after the file ``method`` writes for the plan of ``device``, at boot or
    when the device appears."""
    if tuner.kind in _LAST:
        return True
    if method == "udev-rule":
        ours = basename(_ours(method, step.device or device))
        return tuner.kind in ("tuned", "ktune") or (tuner.kind == "udev" and basename(_file(tuner)) > ours)
    if method == "sysctl-d":
        ours = basename(_ours(method, device))
        return tuner.kind == "sysctl.d" and (basename(tuner.name) > ours or tuner.name == "/etc/sysctl.conf")
    if method == "tuned-profile":
        reapplied = tuner.name.startswith(REAPPLIED) or tuner.name == "/etc/sysctl.conf"
        return tuner.kind == "sysctl.d" and step.kind == "sysctl" and reapplied
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
    if method not in ("udev-rule", "sysctl-d"):
        return False
    if device is not None:
        return _file(tuner) == _ours(method, device)
    return udev.is_rules(_file(tuner)) if method == "udev-rule" else sysctld.is_conf(tuner.name)


def caveat(method: str, tuner: Tuner) -> str:
    """The KB caveat that explains why ``tuner`` wins over ``method``."""
    return "tuned-overrides-udev" if method == "udev-rule" and tuner.kind == "tuned" else "later-tuner-wins"


def describe(step: Step, tuner: Tuner) -> str:
    """``vdb scheduler: the udev rule /etc/udev/...:2 sets none after iosched's udev rule (...)``."""
    key = kind_of(step).tuner_key(step)
    where = f"{step.device} " if step.device else ""
    return (f"{where}{kind_of(step).label(step)}: {_TUNER.get(tuner.kind, tuner.kind)} {tuner.label()} sets "
            f"{tuner.settings[key]} after {_METHOD.get(step.persist_method, step.persist_method)}")  # fmt: skip
