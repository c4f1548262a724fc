"""The active tuned profile and the block and writeback settings it makes, includes resolved.

Profiles are looked up as tuned does, a user profile in /etc/tuned before a system one in /usr/lib/tuned
(with or without the ``profiles/`` level that tuned 2.24 added); an included profile applies first and the
including one overrides it. Conditional sections (``uname_regex``, ``cpuinfo_regex``) and disabled ones are
left out; the ``>`` of ``readahead=>4096`` (at least) is kept.
"""

from __future__ import annotations

import re

from iosched.grammar import NAME, compiled
from iosched.system import settings
from iosched.system.ini import parse_ini
from iosched.system.model import Tuner
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


def profile_settings(src: Source, name: str, missing: list[str]) -> dict[str, str]:
    """Everything one profile sets, its includes first (each profile is read once)."""
    done: dict[str, dict[str, str]] = {}

    def load(name: str, stack: tuple[str, ...]) -> dict[str, str]:
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
        merged: dict[str, str] = {}
        for include in re.split(r"\s*[,;]\s*", sections.get("main", {}).get("include", "").strip()):
            if PROFILE_NAME.fullmatch(include):
                merged.update(load(include, (*stack, name)))
            elif include:
                missing.append(f"tuned profile {name}: include {settings.value(include)[:60]} not resolved")
        for section, options in sections.items():
            merged.update(_section_settings(section, options))
        done[name] = merged
        return merged

    return load(name, ())


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


def read_tuned(src: Source) -> tuple[list[Tuner], list[str]]:
    names, running = active_profiles(src)
    missing: list[str] = []
    tuners = []
    for name in names:
        found = profile_settings(src, name, missing)
        tuners.append(Tuner(kind="tuned", name=name, settings=found, active=running))
    return tuners, missing
