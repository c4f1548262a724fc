"""A TuneD profile that keeps a plan's schedulers, read-ahead and sysctls: ``/etc/tuned/iosched-<active>/tuned.conf``.

It includes the active profile, so the vendor's settings stay. Each planned disk gets a ``[disk]`` unit of its
own, limited to the disk by ``devices_udev_regex`` on its WWN or serial when known, else by ``devices`` on its
kernel name, with ``priority=-1`` (or lower than the included section limited to the disk). TuneD merges an
included profile's units with the including one's by unit name only (``profiles/merger.py``), then gives each
disk to the first unit, by priority then profile order, that matches it (``units/manager.py`` sorts units by
priority; ``plugins/base.py`` ``assign_free_devices``): the included profile's ``[disk]`` unit (priority 0, every
disk) would otherwise take it first. The unit carries on the ``[disk]`` options of the included unit that had
the disk and that the plan does not change (its ``readahead=>4096``); a unit limited to other disks keeps them.
Sysctls go in ``[sysctl]``, which TuneD merges with the included profile's. (redhat-performance/tuned v2.20.0:
``profiles/merger.py``, ``units/manager.py``, ``plugins/base.py``, ``plugins/plugin_disk.py``.)

Every value reaches the file through :func:`ini_value`: a value outside its grammar raises
:class:`TunedProfileError`; nothing in the file can be read by TuneD as anything but the value it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from iosched.escape import sh_word
from iosched.grammar import DEVICE, ID, NAME, PATH, SERIAL, WORD, matches
from iosched.plan import Step, TunedBase

if TYPE_CHECKING:
    from iosched.system.model import Tuner

DIRECTORY = "/etc/tuned"
PREFIX = "iosched-"
PRIORITY = -1
DISK_OPTIONS = {"scheduler": "elevator", "queue.read_ahead_kb": "readahead"}
"""Step targets TuneD's ``[disk]`` plugin sets, and its option for each."""
_FROM_TUNER = {"scheduler": "elevator", "queue/read_ahead_kb": "readahead"}
_UNSAFE = r"[=#;$%\\\[\]\x00-\x1f\x7f]"


class TunedProfileError(ValueError):
    """A value that cannot stand in a TuneD profile."""


def ini_value(value: object, grammar: str, what: str) -> str:
    """``value`` as it may stand in a TuneD profile: wholly in ``grammar``, without surrounding space, and with
    none of the characters an INI line or TuneD reads specially (``=``, comments, ``${variables}``, ``%``,
    section brackets, backslashes, line breaks); anything else raises TunedProfileError."""
    if not isinstance(value, str) or not matches(grammar, value) or re.search(_UNSAFE, value) or value != value.strip():
        raise TunedProfileError(f"refusing {what} {value!r} in a TuneD profile")
    return value


def keeps(step: Step) -> bool:
    """Whether a TuneD profile can keep the step: a scheduler, read-ahead (``[disk]``) or a sysctl."""
    return step.kind == "sysctl" or step.target in DISK_OPTIONS


def base(tuners: Sequence[Tuner], device: str | None = None) -> TunedBase | None:
    """What a profile of iosched builds on, from the tuners read on a host: the active TuneD profiles (an
    iosched profile stands for the one it includes) and the ``[disk]`` options they give ``device`` (None: the
    options of no one disk); None when TuneD is not running a profile. Names and values outside their grammars
    are left out.

    A section limited with ``devices=`` or ``devices_udev_regex=`` counts only for the disks TuneD gives it
    (:attr:`Tuner.devices`): iosched's unit takes its disk from whichever unit had it, so it carries that unit's
    options on; the other disks stay with the included profile, which sets them as before."""
    running = [t for t in tuners if t.kind == "tuned" and t.active and matches(NAME, t.name)]
    profiles = tuple(dict.fromkeys(t.name.removeprefix(PREFIX) or t.name for t in running))
    if not profiles:
        return None
    disk: dict[str, str] = {}
    priority = PRIORITY
    for tuner in running:
        if tuner.name.startswith(PREFIX) or not (tuner.reaches(device) if device else not tuner.devices):
            continue  # iosched's own options are for other disks; a scoped section's for its disks only
        if tuner.section is not None and tuner.priority is not None:
            priority = min(priority, tuner.priority - 1)  # TuneD keeps profile order among equal priorities
        for key, option in _FROM_TUNER.items():
            value = tuner.settings.get(key)
            if value is not None and _disk_value(option, value, strict=False) is not None:
                disk[option] = value
    return TunedBase(profiles=profiles, disk=disk, priority=priority)


def name(tuned: TunedBase) -> str:
    return PREFIX + ini_value(tuned.profiles[0], NAME, "TuneD profile")


def directory(tuned: TunedBase) -> str:
    return ini_value(f"{DIRECTORY}/{name(tuned)}", PATH, "directory")


def path(tuned: TunedBase) -> str:
    return f"{directory(tuned)}/tuned.conf"


def is_profile(file: str) -> bool:
    """Whether a path of :func:`iosched.persist.files` is a TuneD profile of iosched."""
    return file.startswith(f"{DIRECTORY}/{PREFIX}") and file.endswith("/tuned.conf")


def match(device: str, *, serial: str | None = None, wwn: str | None = None) -> str:
    """The option that limits a unit to one disk: its WWN or serial as udev has it (stable), else its name."""
    for key, value in (("ID_WWN", wwn), ("ID_SERIAL", serial)):
        if value:
            return f"devices_udev_regex=^{key}={ini_value(value, SERIAL, key).replace('.', '[.]')}$"
    return f"devices={ini_value(device, DEVICE, 'device')}"


def _disk_value(option: str, value: str, strict: bool = True) -> str | None:
    """A ``[disk]`` value: a scheduler name, or read-ahead in KiB, optionally ``>N`` (at least N)."""
    try:
        if option == "readahead":
            number = value.removeprefix(">")
            if not number.isdigit():
                raise TunedProfileError(f"refusing readahead {value!r} in a TuneD profile")
            return value[: len(value) - len(number)] + ini_value(number, WORD, "readahead")
        return ini_value(value, WORD, option)
    except TunedProfileError:
        if strict:
            raise
        return None


def unit(device: str, match_option: str, steps: Iterable[Step], tuned: TunedBase) -> list[str]:
    """The ``[disk]`` unit of one disk (``tuned``: what the plan of that disk builds on): the plan's options,
    then those of the included unit that had the disk."""
    options = {DISK_OPTIONS[s.target]: s.value for s in steps}
    options |= {option: value for option, value in tuned.disk.items() if option not in options}
    priority = min(PRIORITY, int(tuned.priority))
    lines = [f"[{PREFIX}{ini_value(device, DEVICE, 'device')}]", "type=disk", f"priority={priority}", match_option]
    return lines + [f"{option}={_disk_value(option, value)}" for option, value in options.items()]


def content(
    tuned: TunedBase, disks: Iterable[tuple[str, str, Iterable[Step], TunedBase]], sysctls: Iterable[Step]
) -> str:
    """The whole file from (device, match option, steps, what that disk's plan builds on) per disk and the host's
    sysctl steps."""
    included = [ini_value(p, NAME, "TuneD profile") for p in tuned.profiles]
    lines = [
        f"# Written by iosched: {', '.join(included)} with the settings of an iosched plan.",
        f"# To undo: tuned-adm profile {' '.join(included)}, then remove this directory.",
        "[main]",
        f"summary={' and '.join(included)} with the settings of an iosched plan",
        f"include={','.join(included)}",
    ]
    for device, match_option, steps, on in disks:
        lines += ["", *unit(device, match_option, steps, on)]
    kept = list(dict.fromkeys(f"{ini_value(s.target, ID, 'sysctl')}={ini_value(s.value, WORD, s.target)}"
                              for s in sysctls))  # fmt: skip
    if kept:
        lines += ["", "[sysctl]", *kept]
    return "\n".join(lines)


def install(text: str, tuned: TunedBase) -> str:
    return (
        f"sudo mkdir -p {sh_word(directory(tuned))}\n"
        f"printf '%s\\n' {sh_word(text)} | sudo tee {sh_word(path(tuned))} >/dev/null\n"
        f"sudo tuned-adm profile {sh_word(name(tuned))}"
    )


def check(tuned: TunedBase) -> str:
    """A command that shows the active profile (expect ``Current active profile: iosched-...``)."""
    return "tuned-adm active"


def switch_back(tuned: TunedBase) -> str:
    """``tuned-adm profile`` with the profiles that were active before."""
    return "tuned-adm profile " + " ".join(sh_word(ini_value(p, NAME, "TuneD profile")) for p in tuned.profiles)


def remove(tuned: TunedBase) -> str:
    return f"sudo {switch_back(tuned)} && sudo rm -f {sh_word(path(tuned))} && sudo rmdir {sh_word(directory(tuned))}"
