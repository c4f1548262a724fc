"""The active tuned profile and the block and writeback settings it makes, includes resolved.

Profiles are looked up as tuned does, a user profile in /etc/tuned before a system one in /usr/lib/tuned
(with or without the ``profiles/`` level that tuned 2.24 added); an included profile applies first and the
including one overrides it. Conditional sections (``uname_regex``, ``cpuinfo_regex``) and disabled ones are
left out; the ``>`` of ``readahead=>4096`` (at least) is kept. A ``[disk]`` section limited with ``devices=`` or
``devices_udev_regex=`` becomes a tuner of its own, limited to the disks TuneD would give it: each disk goes to
the first ``[disk]`` unit, by ``priority`` then profile order, that matches it (redhat-performance/tuned v2.20.0,
ce3d0926: tuned/hardware/device_matcher.py, device_matcher_udev.py and tuned/plugins/base.py
``_get_matching_devices``, ``assign_free_devices``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fnmatch import fnmatch

from iosched.grammar import NAME, compiled
from iosched.system import settings
from iosched.system.ini import parse_ini
from iosched.system.model import Device, Tuner
from iosched.system.source import Source

PROFILE_DIRS = ("etc/tuned/profiles", "etc/tuned", "usr/lib/tuned/profiles", "usr/lib/tuned")
PROFILE_NAME = compiled(NAME)
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
    return [name for name in text.split() if PROFILE_NAME.fullmatch(name)], running


def profile_sections(src: Source, name: str, missing: list[str]) -> dict[str, dict[str, str]]:
    """The sections of one profile with its includes merged, as TuneD merges them: an included profile first, a
    section of the including profile adding to (or replacing) the options of the same-named one; in file order.
    Each profile is read once."""
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
            if PROFILE_NAME.fullmatch(include):
                for section, options in load(include, (*stack, name)).items():
                    merged[section] = {**merged.get(section, {}), **options}
            elif include:
                missing.append(f"tuned profile {name}: include {settings.value(include)[:60]} not resolved")
        for section, options in sections.items():
            base = {} if options.get("replace", "").lower() in ("1", "true", "yes") else merged.get(section, {})
            merged[section] = {**base, **options}
        done[name] = merged
        return merged

    return load(name, ())


def profile_settings(src: Source, name: str, missing: list[str]) -> dict[str, str]:
    """Everything one profile sets, its includes first, whichever disks each section is limited to."""
    merged: dict[str, str] = {}
    for section, options in profile_sections(src, name, missing).items():
        merged.update(_section_settings(section, options))
    return merged


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
    if section in ("", "main", "variables") or any(k in options for k in CONDITIONS):
        return {}
    if options.get("enabled", "true").lower() in ("false", "0", "no"):
        return {}
    plugin = options.get("type", section)
    found: dict[str, str] = {}
    for key, raw in options.items():
        value = settings.value(raw)
        if plugin == "disk" and key == "elevator":
            found["scheduler"] = value
        elif plugin == "disk" and key == "readahead":
            found["queue/read_ahead_kb"] = _readahead_kib(value)
        elif plugin == "sysctl" and (name := settings.sysctl_setting(key)):
            found[name] = value
        elif plugin == "vm" and key in ("dirty_bytes", "dirty_background_bytes"):
            ratio = key.replace("bytes", "ratio")
            found[f"vm.{ratio}" if value.endswith("%") else f"vm.{key}"] = value.rstrip("%").strip()
        elif plugin == "vm" and key in VM_KEYS:
            found[VM_KEYS[key]] = value
        elif plugin == "sysfs" and (name := settings.queue_setting(key)):
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
