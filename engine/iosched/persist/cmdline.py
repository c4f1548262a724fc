"""The kernel command line, kept by the boot loader: GRUB 2 (``/etc/default/grub``), GRUB legacy
(``menu.lst``/``grub.conf``) or zipl on IBM Z (``/etc/zipl.conf``). Each add or remove is one command line."""

from __future__ import annotations

import re
from typing import Any, Literal

from iosched.render.escape import sh_word

BootLoader = Literal["grub2", "grub-legacy", "zipl"]
ZIPL_CONF = "/etc/zipl.conf"
GRUB_DEFAULTS = "/etc/default/grub"


def boot_loader(distro: Any, s390: bool = False) -> BootLoader:
    """The boot loader of a host: zipl on IBM Z, else the distribution's GRUB."""
    if s390:
        return "zipl"
    if distro is not None and distro.grub_legacy_config:
        return "grub-legacy"
    return "grub2"


def _pattern(parameter: str) -> str:
    return re.escape(parameter).replace("/", r"\/")


def add(parameter: str, distro: Any, loader: BootLoader) -> str:
    """A command that adds ``parameter`` to every boot's command line (effective at the next boot)."""
    if loader == "zipl":
        script = rf'/^[[:space:]]*parameters[[:space:]]*=/s/"$/ {parameter}"/'
        return f"sudo sed -i {sh_word(script)} {ZIPL_CONF} && sudo zipl"
    if loader == "grub-legacy":
        script = rf"/^[[:space:]]*kernel /s/$/ {parameter}/"
        return f"sudo sed -i {sh_word(script)} {sh_word(distro.grub_legacy_config)}"
    update = distro.grub_update if distro is not None and distro.grub_update else "update-grub"
    script = rf'/^GRUB_CMDLINE_LINUX=/s/"$/ {parameter}"/'
    return f"sudo sed -i {sh_word(script)} {GRUB_DEFAULTS} && sudo {update}"


def remove(parameter: str, distro: Any, loader: BootLoader) -> str:
    """A command that removes ``parameter`` again."""
    script = rf"s/[[:space:]]{_pattern(parameter)}\([[:space:]\"]\)/\1/;s/[[:space:]]{_pattern(parameter)}$//"
    if loader == "zipl":
        return f"sudo sed -i {sh_word(script)} {ZIPL_CONF} && sudo zipl"
    if loader == "grub-legacy":
        return f"sudo sed -i {sh_word(script)} {sh_word(distro.grub_legacy_config)}"
    update = distro.grub_update if distro is not None and distro.grub_update else "update-grub"
    return f"sudo sed -i {sh_word(script)} {GRUB_DEFAULTS} && sudo {update}"


def where(distro: Any, loader: BootLoader) -> str:
    """The file that holds the command line."""
    if loader == "zipl":
        return ZIPL_CONF
    if loader == "grub-legacy":
        return str(distro.grub_legacy_config)
    return GRUB_DEFAULTS
