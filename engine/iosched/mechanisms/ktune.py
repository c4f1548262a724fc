"""tuned 0.2 (RHEL 6): the active profile of ``/etc/tune-profiles`` and what its ktune service sets at boot.

As redhat-performance/tuned v0.2.22 (cbb2bf6e) works: ``tuned-adm profile NAME`` writes NAME to
``/etc/tune-profiles/active-profile`` and links ``/etc/sysconfig/ktune`` to the profile's ``ktune.sysconfig``
(tuned_adm.py ``profile``), and its ``sysctl.ktune`` into ``/etc/ktune.d/tunedadm.conf``. The ktune init
script (ktune/ktune.init ``start``) then writes ``ELEVATOR`` into every file ``ELEVATOR_TUNE_DEVS`` expands to
(``/sys/block/{sd,cciss,dm-,vd}*/queue/scheduler``, a shell brace glob) unless ``elevator=`` is on the kernel
command line, and loads the sysctl files. tuned 0.2 never reads ``/etc/tuned``: a TuneD 2 profile is no way to
keep a setting on such a host.
"""

from __future__ import annotations

import re

from iosched.capture.source import Source
from iosched.grammar import NAME, compiled
from iosched.mechanisms.cmdline import cmdline_settings
from iosched.mechanisms.sysctld import parse_sysctl_conf
from iosched.records.system import Tuner, setting_value

ACTIVE = "etc/tune-profiles/active-profile"
SYSCONFIG = "etc/sysconfig/ktune"
PROFILE_NAME = compiled(NAME)
_ASSIGNMENT = re.compile(r"""^\s*([A-Z_][A-Z0-9_]*)=(?:"([^"]*)"|'([^']*)'|(\S*))\s*(?:#.*)?$""", re.MULTILINE)
_SCHEDULER_GLOB = re.compile(r"/sys/block/(\{[^{}/]*\}|[^{}/]*)([^{}/]*)/queue/scheduler")
_DEVICE_GLOB = re.compile(r"[A-Za-z0-9_*?!.:+-]{1,64}")


def is_tuned_02(src: Source) -> bool:
    """Whether the host runs tuned 0.2: its ``active-profile`` file, or ``tuned-adm active`` naming ktune."""
    return src.text(ACTIVE) is not None or "Service ktune:" in (src.command("tuned-adm active") or "")


def sysconfig_values(text: str) -> dict[str, str]:
    """``KEY="value"`` lines of a sysconfig file (a shell fragment); other lines are skipped."""
    return {m[1]: next(v for v in m.groups()[1:] if v is not None) for m in _ASSIGNMENT.finditer(text)}


def device_globs(tune_devs: str) -> tuple[str, ...]:
    """Kernel-name globs of ``ELEVATOR_TUNE_DEVS``: ``/sys/block/{sd,dm-}*/queue/scheduler`` -> ``sd*``, ``dm-*``."""
    globs: list[str] = []
    for word in tune_devs.split():
        match = _SCHEDULER_GLOB.fullmatch(word)
        if match is None:
            continue
        head, tail = match.groups()
        for part in head.strip("{}").split(",") if head.startswith("{") else [head]:
            if _DEVICE_GLOB.fullmatch(part + tail):
                globs.append(part + tail)
    return tuple(dict.fromkeys(globs))


def read_ktune(src: Source, cmdline: str | None) -> tuple[list[Tuner], list[str]]:
    """The tuned 0.2 profile of a host that runs it (:func:`is_tuned_02`), as a tuner of kind ``ktune``."""
    answer = src.command("tuned-adm active") or ""
    named = re.search(r"^Current active profile:\s*(\S+)", answer, re.MULTILINE)
    name = (src.value(ACTIVE) or (named[1] if named else "")).strip()
    if not PROFILE_NAME.fullmatch(name) or name == "off":
        return [], []
    missing: list[str] = []
    found = src.first([SYSCONFIG, f"etc/tune-profiles/{name}/ktune.sysconfig"])
    values = sysconfig_values(found[1]) if found else {}
    if found is None:
        missing.append(f"tuned 0.2 profile {name} (etc/sysconfig/ktune, ktune.sysconfig)")
    found_settings: dict[str, str] = {}
    sysctl = src.first(["etc/ktune.d/tunedadm.conf", f"etc/tune-profiles/{name}/sysctl.ktune"])
    if sysctl is not None:
        found_settings |= {key: setting_value(v) for key, v in parse_sysctl_conf(sysctl[1]).items()}
    if src.text(f"etc/tune-profiles/{name}/ktune.sh") is not None:  # a shell script (multiply_disk_readahead ...)
        missing.append(f"tuned 0.2 profile {name}: what ktune.sh sets (a script, not read)")
    devices = device_globs(values.get("ELEVATOR_TUNE_DEVS", ""))
    elevator = setting_value(values.get("ELEVATOR", ""))
    if elevator and devices and "scheduler" not in cmdline_settings(cmdline or ""):
        found_settings["scheduler"] = elevator
    running = not re.search(r"^Service ktune: \S+, stopped", answer, re.MULTILINE)
    return [Tuner(kind="ktune", name=name, settings=found_settings, active=running, devices=devices)], missing
