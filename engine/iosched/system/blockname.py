"""Block device names as the kernel spells them in ``/sys/block``, and the kind of device each name denotes.

The kernel turns a ``/`` in a disk name into ``!`` in sysfs (``cciss/c0d0`` is ``/sys/block/cciss!c0d0``), so a
valid name never holds a path separator; names are at most 31 characters (``DISK_NAME_LEN`` is 32).
"""

from __future__ import annotations

import re

from iosched.system.model import DeviceKind

BLOCK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9!_.+-]{0,30}")

_KINDS = re.compile(
    r"(?P<disk>(?:sd|hd|xvd)[a-z]+|(?:cciss|ida|rd|smart)![a-z0-9]+)"
    r"|(?P<virtio>vd[a-z]+)"
    r"|(?P<nvme>nvme\d+(?:c\d+)?n\d+)"
    r"|(?P<mmc>mmcblk\d+(?:boot\d+|rpmb)?)"
    r"|(?P<dasd>dasd[a-z]+)"
    r"|(?P<dm>dm-\d+)"
    r"|(?P<md>md(?:_d)?\d+)"
    r"|(?P<loop>loop\d+)"
    r"|(?P<zram>zram\d+)"
    r"|(?P<ram>ram\d+)"
    r"|(?P<optical>(?:sr|scd)\d+)"
)


def valid_block_name(name: object) -> bool:
    return isinstance(name, str) and BLOCK_NAME.fullmatch(name) is not None


def device_kind(name: str) -> DeviceKind:
    """The kind a whole-disk name denotes (``xvda`` is a Xen disk, so ``disk``); ``other`` when unknown."""
    match = _KINDS.fullmatch(name)
    return match.lastgroup if match else "other"  # type: ignore[return-value]
