"""The kernel command line: the block and writeback settings it carries (``elevator=``, ``*.use_blk_mq=``,
``sysctl.*=``), and how a boot parameter is kept by the boot loader: GRUB 2 (``/etc/default/grub``), GRUB legacy
(``menu.lst``/``grub.conf``), zipl on IBM Z (``/etc/zipl.conf``), or grubby where the distribution edits Boot
Loader Specification entries. Each add or remove is one command line, effective at the next boot.

Precedence: the command line acts first at boot; every other tuner acts after it.
"""

from __future__ import annotations

import re

from iosched.escape import sh_word
from iosched.struct import Struct

# The functions that read a machine import its model where they build it: a plan from flags reads none.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.records.system import Tuner

# Writing: the boot loader

GRUB_DEFAULTS = "/etc/default/grub"
ZIPL_CONF = "/etc/zipl.conf"


class Loader(Struct, kw_only=False):
    kind: str
    """``grub2``, ``grub-legacy``, ``zipl`` or ``grubby``."""
    config: str
    update: str | None


def loader_for(distro: Any, s390: bool = False) -> Loader:
    """The boot loader of a host: on IBM Z the distribution's s390x entry (zipl unless it says GRUB 2 or
    grubby), else the distribution's GRUB."""
    if s390:
        entry = next((b for b in getattr(distro, "boot_loaders", ()) if b.arch == "s390x"), None)
        if entry is None:
            return Loader("zipl", ZIPL_CONF, "zipl")
        if entry.edit:
            return Loader("grubby", entry.config, entry.update)
        return Loader("zipl" if entry.name == "zipl" else "grub2", entry.config, entry.update)
    if distro is not None and distro.grub_legacy_config:
        return Loader("grub-legacy", distro.grub_legacy_config, None)
    update = distro.grub_update if distro is not None and distro.grub_update else "update-grub"
    return Loader("grub2", GRUB_DEFAULTS, update)


def _then_update(loader: Loader) -> str:
    return f" && sudo {loader.update}" if loader.update else ""


def add(parameter: str, loader: Loader) -> str:
    """A command that adds ``parameter`` to every boot's command line."""
    if loader.kind == "grubby":
        return f"sudo grubby --update-kernel=ALL --args={sh_word(parameter)}"
    if loader.kind == "zipl":
        script = rf'/^[[:space:]]*parameters[[:space:]]*=/s/"$/ {parameter}"/'
    elif loader.kind == "grub-legacy":
        script = rf"/^[[:space:]]*kernel /s/$/ {parameter}/"
    else:
        script = rf'/^GRUB_CMDLINE_LINUX=/s/"$/ {parameter}"/'
    return f"sudo sed -i {sh_word(script)} {sh_word(loader.config)}{_then_update(loader)}"


def remove(parameter: str, loader: Loader) -> str:
    """A command that removes ``parameter`` again."""
    if loader.kind == "grubby":
        return f"sudo grubby --update-kernel=ALL --remove-args={sh_word(parameter)}"
    pattern = re.escape(parameter).replace("/", r"\/")
    script = rf"s/[[:space:]]{pattern}\([[:space:]\"]\)/\1/;s/[[:space:]]{pattern}$//"
    return f"sudo sed -i {sh_word(script)} {sh_word(loader.config)}{_then_update(loader)}"


# Reading

BOOT_PARAMETERS = ("scsi_mod.use_blk_mq", "dm_mod.use_blk_mq")


def cmdline_settings(cmdline: str) -> dict[str, str]:
    from iosched.records.system import setting_value, sysctl_setting

    found = {}
    for word in cmdline.split(" -- ")[0].split():
        key, sep, value = word.partition("=")
        if not sep:
            continue
        if key == "elevator":
            found["scheduler"] = setting_value(value)
        elif key in BOOT_PARAMETERS:
            found[key] = setting_value(value)
        elif key.startswith("sysctl.") and (name := sysctl_setting(key.removeprefix("sysctl."))):
            found[name] = setting_value(value)
    return found


def read_cmdline_tuner(cmdline: str | None) -> list[Tuner]:
    from iosched.records.system import Tuner

    found = cmdline_settings(cmdline or "")
    return [Tuner(kind="kernel-cmdline", name="/proc/cmdline", settings=found)] if found else []
