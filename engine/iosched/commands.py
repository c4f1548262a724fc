"""Shell command text for plan steps. Every argument is quoted; names were validated upstream."""

from __future__ import annotations

from shlex import quote
from typing import Any

from iosched.render.escape import udev_value

UDEV_FILE = "/etc/udev/rules.d/60-iosched.rules"
SYSCTL_FILE = "/etc/sysctl.d/90-iosched.conf"
UDEV_RELOAD = "sudo udevadm control --reload && sudo udevadm trigger --action=change --subsystem-match=block"


def sysfs_path(device: str, attribute: str) -> str:
    return f"/sys/block/{device}/queue/{attribute}"


def sysfs_write(device: str, attribute: str, value: str) -> str:
    return f"echo {quote(value)} | sudo tee {quote(sysfs_path(device, attribute))} >/dev/null"


def sysfs_read(device: str, attribute: str) -> str:
    return f"cat {quote(sysfs_path(device, attribute))}"


def udev_assignment(attribute: str, value: str) -> str:
    return f'ATTR{{queue/{attribute}}}="{value}"'


def udev_rule(match: str, assignments: list[str]) -> str:
    """One rule line: udev applies the assignments in order, so the scheduler must come first."""
    head = 'ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk"'
    return ", ".join([head, match, *assignments])


def udev_terms(matches: Any) -> str:
    """``KEY=="GLOB"`` terms joined as a udev rule joins them."""
    return ", ".join(f'{m.key}=="{udev_value(m.value)}"' for m in matches)


def udev_match(serial: str | None, preset_match: Any) -> str:
    return f'ENV{{ID_SERIAL}}=="{udev_value(serial)}"' if serial else udev_terms(preset_match)


def file_install(path: str, content: str) -> str:
    """A copy-paste command that writes ``content`` to ``path`` as root."""
    return f"printf '%s\\n' {quote(content)} | sudo tee {quote(path)} >/dev/null"


def sysctl_write(name: str, value: str) -> str:
    return f"sudo sysctl -w {quote(f'{name}={value}')}"


def sysctl_read(name: str) -> str:
    return f"sysctl -n {quote(name)}"


def sysctl_line(name: str, value: str) -> str:
    return f"{name} = {value}"


def grub_append(parameter: str, distro: Any | None) -> str:
    """Add a kernel parameter for every boot: GRUB 2's default command line, or GRUB legacy's kernel lines."""
    if distro is not None and distro.grub_legacy_config:
        return f"sudo sed -i '/^[[:space:]]*kernel /s/$/ {parameter}/' {quote(distro.grub_legacy_config)}"
    update = distro.grub_update if distro is not None else "update-grub"
    return f"sudo sed -i 's/^GRUB_CMDLINE_LINUX=\"/&{parameter} /' /etc/default/grub && sudo {update}"


def grub_remove(parameter: str, distro: Any | None) -> str:
    pattern = parameter.replace(".", r"\.")
    if distro is not None and distro.grub_legacy_config:
        return f"sudo sed -i 's/ {pattern}$//' {quote(distro.grub_legacy_config)}"
    update = distro.grub_update if distro is not None else "update-grub"
    return f"sudo sed -i 's/{pattern} //' /etc/default/grub && sudo {update}"
