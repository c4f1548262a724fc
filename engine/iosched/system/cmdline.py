"""Block and writeback settings on the kernel command line: ``elevator=``, ``*.use_blk_mq=``, ``sysctl.*=``."""

from __future__ import annotations

from iosched.system import settings
from iosched.system.model import Tuner

BOOT_PARAMETERS = ("scsi_mod.use_blk_mq", "dm_mod.use_blk_mq")


def cmdline_settings(cmdline: str) -> dict[str, str]:
    found = {}
    for word in cmdline.split(" -- ")[0].split():
        key, sep, value = word.partition("=")
        if not sep:
            continue
        if key == "elevator":
            found["scheduler"] = settings.value(value)
        elif key in BOOT_PARAMETERS:
            found[key] = settings.value(value)
        elif key.startswith("sysctl.") and (name := settings.sysctl_setting(key.removeprefix("sysctl."))):
            found[name] = settings.value(value)
    return found


def read_cmdline_tuner(cmdline: str | None) -> list[Tuner]:
    found = cmdline_settings(cmdline or "")
    return [Tuner(kind="kernel-cmdline", name="/proc/cmdline", settings=found)] if found else []
