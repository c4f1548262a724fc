"""TuneD 2: the profile a host runs, read with its includes, and the profile iosched writes on top of it,
``/etc/tuned/iosched-<active>/tuned.conf``.

Reading. The active tuned profile and the block and writeback settings it makes, includes resolved.

Profiles are looked up as tuned does, a user profile in /etc/tuned before a system one in /usr/lib/tuned
(with or without the ``profiles/`` level that tuned 2.24 added); an included profile applies first and the
including one overrides it. Conditional sections (``uname_regex``, ``cpuinfo_regex``) and disabled ones are
left out; the ``>`` of ``readahead=>4096`` (at least) is kept. A ``[disk]`` section limited with ``devices=`` or
``devices_udev_regex=`` becomes a tuner of its own, limited to the disks TuneD would give it: each disk goes to
the first ``[disk]`` unit, by ``priority`` then profile order, that matches it (redhat-performance/tuned v2.20.0,
ce3d0926: tuned/hardware/device_matcher.py, device_matcher_udev.py and tuned/plugins/base.py
``_get_matching_devices``, ``assign_free_devices``).

Writing. It includes the active profile, so the vendor's settings stay. Each planned disk gets a ``[disk]`` unit of its
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

Precedence: TuneD starts after udev and sysctl.d and sets its ``[disk]`` options again whenever a disk is added,
after udev's rules for it ran, so it wins over udev rules; its ``[sysctl]`` plugin then applies the files of
:data:`REAPPLIED` and ``/etc/sysctl.conf`` again (``reapply_sysctl``, on by default), so those win over a
profile's sysctls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from iosched.escape import sh_lines, sh_word
from iosched.grammar import DEVICE, ID, NAME, PATH, SERIAL, WORD, matches
from iosched.records.plan import Step, TunedBase

# The functions that read a machine import its model where they build it: a plan from flags reads none.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.capture.source import Source
    from iosched.records.system import Device, Tuner

# Files, precedence and writing

DIRECTORY = "/etc/tuned"
PREFIX = "iosched-"
PRIORITY = -1
DISK_OPTIONS = {"scheduler": "elevator", "queue.read_ahead_kb": "readahead"}
"""Step targets TuneD's ``[disk]`` plugin sets, and its option for each."""
_FROM_TUNER = {"scheduler": "elevator", "queue/read_ahead_kb": "readahead"}
_UNSAFE = r"[=#;$%\\\[\]\x00-\x1f\x7f]"
REAPPLIED = ("/etc/sysctl.d/", "/run/sysctl.d/")
"""Where the sysctl files are that TuneD applies again after its own sysctls (``/etc/sysctl.conf`` too)."""


class TunedProfileError(ValueError):
    """A value that cannot stand in a TuneD profile."""


def ini_value(value: object, grammar: str, what: str) -> str:
    """``value`` as it may stand in a TuneD profile: wholly in ``grammar``, without surrounding space, and with
    none of the characters an INI line or TuneD reads specially (``=``, comments, ``${variables}``, ``%``,
    section brackets, backslashes, line breaks); anything else raises TunedProfileError."""
    if not isinstance(value, str) or not matches(grammar, value) or re.search(_UNSAFE, value) or value != value.strip():
        raise TunedProfileError(f"refusing {what} {value!r} in a TuneD profile")
    return value


def acts_after(tuner: Tuner, step: Step) -> bool:
    """Whether ``tuner`` sets the step's value after a TuneD profile: a sysctl file that TuneD applies again
    after its own sysctls."""
    reapplied = tuner.name.startswith(REAPPLIED) or tuner.name == "/etc/sysctl.conf"
    return tuner.kind == "sysctl.d" and step.kind == "sysctl" and reapplied


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
        f"printf '%s\\n' {sh_lines(text)} | sudo tee {sh_word(path(tuned))} >/dev/null\n"
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


# Reading

PROFILE_DIRS = ("etc/tuned/profiles", "etc/tuned", "usr/lib/tuned/profiles", "usr/lib/tuned")
MAX_DEPTH = 16
CONDITIONS = ("uname_regex", "cpuinfo_regex")
VM_KEYS = {"dirty_ratio": "vm.dirty_ratio", "dirty_background_ratio": "vm.dirty_background_ratio"}
NOT_RUNNING = "daemon is not running"


def active_profiles(src: Source) -> tuple[list[str], bool]:
    """The active profile names and whether tuned is running (as far as the capture tells)."""
    answer = src.command("tuned-adm active") or ""
    running = NOT_RUNNING not in answer
    if src.isdir("run/tuned") and src.text("run/tuned/tuned.pid") is None:
        running = False
    text = src.text("etc/tuned/active_profile")
    if text is None:
        match = re.search(r"^Current active profile:\s*(.+)$", answer, re.MULTILINE)
        text = match.group(1) if match else ""
    return [name for name in text.split() if matches(NAME, name)], running


def profile_sections(src: Source, name: str, missing: list[str]) -> dict[str, dict[str, str]]:
    """The sections of one profile with its includes merged, as TuneD merges them: an included profile first, a
    section of the including profile adding to (or replacing) the options of the same-named one; in file order.
    Each profile is read once."""
    from iosched.mechanisms.ini import parse_ini
    from iosched.records.system import setting_value

    done: dict[str, dict[str, dict[str, str]]] = {}

    def load(name: str, stack: tuple[str, ...]) -> dict[str, dict[str, str]]:
        if name in done:
            return done[name]
        if name in stack or len(stack) >= MAX_DEPTH:
            missing.append(f"tuned profile {name}: include loop or nesting deeper than {MAX_DEPTH}")
            return {}
        found = src.first(f"{directory}/{name}/tuned.conf" for directory in PROFILE_DIRS)
        if found is None:
            missing.append(f"tuned profile {name} (tuned.conf)")
            return {}
        sections = parse_ini(found[1])
        merged: dict[str, dict[str, str]] = {}
        for include in re.split(r"\s*[,;]\s*", sections.get("main", {}).get("include", "").strip()):
            if matches(NAME, include):
                for section, options in load(include, (*stack, name)).items():
                    merged[section] = {**merged.get(section, {}), **options}
            elif include:
                missing.append(f"tuned profile {name}: include {setting_value(include)[:60]} not resolved")
        for section, options in sections.items():
            base = {} if options.get("replace", "").lower() in ("1", "true", "yes") else merged.get(section, {})
            merged[section] = {**base, **options}
        done[name] = merged
        return merged

    return load(name, ())


def _udev_properties(device: Device) -> str:
    """The udev properties of a device as far as the capture tells, as TuneD's DeviceMatcherUdev lays them out
    (``KEY=value`` lines, sorted) for ``devices_udev_regex``."""
    props = {"DEVNAME": f"/dev/{device.name}", "DEVTYPE": "disk", "SUBSYSTEM": "block", "ID_MODEL": device.model,
             "ID_VENDOR": device.vendor, "ID_SERIAL": device.serial, "ID_WWN": device.wwn, "DM_NAME": device.dm_name,
             "DM_UUID": device.dm_uuid}  # fmt: skip
    return "".join(f"{key}={value}\n" for key, value in sorted(props.items()) if value)


def _scoped(section: str, options: dict[str, str], devices: Sequence[Device], free: list[str]) -> tuple[str, ...]:
    """The disks a ``[disk]`` section gets, as TuneD assigns them (tuned/plugins/base.py ``assign_free_devices``):
    of the disks no earlier section of the plugin took, those its ``devices=`` rules match (DeviceMatcher:
    words split on blanks and commas, shell globs, ``!`` negating, no positive rule meaning ``*``) or, with
    ``devices_udev_regex=``, whose udev properties the regular expression finds (DeviceMatcherUdev)."""
    from fnmatch import fnmatch  # TuneD's DeviceMatcher: shell globs

    regex = options.get("devices_udev_regex")
    if regex is not None:
        try:
            pattern = re.compile(regex, re.MULTILINE)
        except re.error:
            return ()
        by_name = {d.name: d for d in devices}
        return tuple(n for n in free if n in by_name and pattern.search(_udev_properties(by_name[n])))
    rules = [r for r in re.split(r"\s|,\s*", options.get("devices", "*")) if r.strip()]
    positive = [r for r in rules if not r.startswith("!")] or ["*"]
    negative = [r[1:] for r in rules if r.startswith("!")]
    return tuple(n for n in free if any(fnmatch(n, r) for r in positive) and not any(fnmatch(n, r) for r in negative))


def profile_tuners(src: Source, name: str, running: bool, devices: Sequence[Device], missing: list[str]) -> list[Tuner]:
    """One tuner for what the profile sets everywhere, and one per ``[disk]`` section limited with ``devices=`` or
    ``devices_udev_regex=`` (then every ``[disk]`` section gets the disks TuneD would give it, in profile order)."""
    from iosched.records.system import Tuner

    sections = profile_sections(src, name, missing)
    disk = [s for s, o in sections.items() if o.get("type", s) == "disk" and _section_settings(s, o)]
    scoped = any("devices" in sections[s] or "devices_udev_regex" in sections[s] for s in disk)
    everywhere: dict[str, str] = {}
    for section, options in sections.items():
        if not (scoped and section in disk):
            everywhere.update(_section_settings(section, options))
    tuners = [Tuner(kind="tuned", name=name, settings=everywhere, active=running)]
    free = [d.name for d in devices if d.kind != "partition"]
    for section in sorted(disk, key=lambda s: _priority(sections[s])) if scoped else ():
        taken = _scoped(section, sections[section], devices, free)
        free = [n for n in free if n not in taken]
        if taken:
            tuners.append(Tuner(kind="tuned", name=name, settings=_section_settings(section, sections[section]),
                                active=running, devices=taken, section=section,
                                priority=_priority(sections[section])))  # fmt: skip
    return tuners


def _priority(options: dict[str, str]) -> int:
    """A unit's ``priority`` (TuneD takes units by priority, then in profile order; 0 when not given)."""
    try:
        return int(options.get("priority", "0"))
    except ValueError:
        return 0


def _section_settings(section: str, options: dict[str, str]) -> dict[str, str]:
    from iosched.records.system import queue_setting, setting_value, sysctl_setting

    if section in ("", "main", "variables") or any(k in options for k in CONDITIONS):
        return {}
    if options.get("enabled", "true").lower() in ("false", "0", "no"):
        return {}
    plugin = options.get("type", section)
    found: dict[str, str] = {}
    for key, raw in options.items():
        value = setting_value(raw)
        if plugin == "disk" and key == "elevator":
            found["scheduler"] = value
        elif plugin == "disk" and key == "readahead":
            found["queue/read_ahead_kb"] = _readahead_kib(value)
        elif plugin == "sysctl" and (name := sysctl_setting(key)):
            found[name] = value
        elif plugin == "vm" and key in ("dirty_bytes", "dirty_background_bytes"):
            ratio = key.replace("bytes", "ratio")
            found[f"vm.{ratio}" if value.endswith("%") else f"vm.{key}"] = value.rstrip("%").strip()
        elif plugin == "vm" and key in VM_KEYS:
            found[VM_KEYS[key]] = value
        elif plugin == "sysfs" and (name := queue_setting(key)):
            found[name] = value
    return found


def _readahead_kib(value: str) -> str:
    """tuned's readahead is KiB, or 512-byte sectors with an ``s`` suffix (plugin_disk.py)."""
    match = re.fullmatch(r"(>?)\s*(\d+)\s*(s\w*)?", value)
    if not match:
        return value
    number = int(match.group(2)) // 2 if match.group(3) else int(match.group(2))
    return f"{match.group(1)}{number}"


def read_tuned(src: Source, devices: Sequence[Device] = ()) -> tuple[list[Tuner], list[str]]:
    """The active TuneD profiles as tuners; ``devices`` (the disks read) decide which a limited section sets."""
    names, running = active_profiles(src)
    missing: list[str] = []
    tuners = []
    for name in names:
        tuners += profile_tuners(src, name, running, devices, missing)
    return tuners, missing
