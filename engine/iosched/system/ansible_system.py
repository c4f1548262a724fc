"""One host's Ansible facts (the ``ansible_*`` mapping that ``setup`` returns) to a :class:`System`.

Ansible's keys are read as ``setup`` writes them (ansible/ansible, lib/ansible/module_utils/facts/: hardware/linux.py
``get_device_facts``, virtual/linux.py, system/distribution.py, system/cmdline.py), in every release since 1.2:

- ``ansible_devices`` is keyed by the names in ``/sys/block`` (``cciss!c0d0``). Before 2.4 it skipped the devices
  under /sys/devices/virtual (dm, md, loop, ram, zram); such documents list ``devices.virtual`` as missing.
- ``scheduler_mode`` is the bracketed name in queue/scheduler, or "" when there is none: a bio-based dm or md
  device, zram, or the blk-mq queue of a kernel before 4.11 that prints ``none`` without brackets. "" is no elevator.
- ``links.masters`` (2.4+) names by kernel name the devices stacked on a disk or on one of its partitions; a disk's
  ``holders`` here are those of the disk and of its partitions, its ``slaves`` the names (partitions included)
  it sits on. Older documents give only ``holders``: the device-mapper *names* of dm holders (``vg-root``), kept as
  they are, with ``devices.holders`` and ``devices.slaves`` listed as missing.
- ``sectors`` counted 512-byte sectors, as a string, until 2.18 made it an int count of ``sectorsize`` sectors.
- ``virtual`` (2.4+) is 1 for nearly every device of a current kernel and is not read.

``System.missing`` names what the document did not hold, as model paths: ``host.kernel``,
``devices.sda.rotational``, ``mounts[2]``; :data:`NEVER_GATHERED` is listed for every Ansible host.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from iosched.kernel import KernelVersion
from iosched.system.blockname import device_kind, valid_block_name
from iosched.system.distro import distro_id
from iosched.system.model import Device, Host, Mount, System
from iosched.system.text import printable, token

NEVER_GATHERED = (
    "sysctls", "tuners", "os_release", "devices.schedulers", "devices.io_path", "devices.queue", "devices.iosched",
    "devices.zoned", "devices.write_cache", "devices.nr_hw_queues",
)  # fmt: skip
"""What ``setup`` never gathers: the available elevators, queue and elevator tunables, sysctls, other tuners."""

ELEVATOR = re.compile(r"[a-z][a-z0-9_-]{0,31}")
IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+-]{0,159}")
KERNEL_RELEASE = re.compile(r"[0-9][0-9A-Za-z._+~-]{0,127}")
ARCH = re.compile(r"[A-Za-z0-9_]{1,32}")
HOSTNAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,252}")
DIGITS = re.compile(r"[0-9]{1,20}")
CMDLINE_KEY = re.compile(r"[^\s=\x00-\x1f\x7f]{1,256}")
MAX_CMDLINE = 16384
MAX_MOUNT_TEXT = 4096

_CHECKED = (
    ("rotational", "rotational"), ("scheduler", "scheduler_mode"), ("model", "model"), ("vendor", "vendor"),
    ("serial", "serial"), ("size_bytes", "sectors"), ("removable", "removable"),
)  # fmt: skip
"""Device fields and their keys: a value that is there but unreadable is listed as missing ("" is no value)."""
_REQUIRED = ("rotational", "scheduler_mode")
"""Keys every release writes for every device: missing even when absent."""
_FLAGS = {"1": True, "0": False}

_HYPERVISORS = {
    "kvm": "kvm", "kvm/linux": "kvm", "openstack": "kvm", "ovirt": "kvm", "rhev": "kvm", "rhv": "kvm",
    "kubevirt": "kvm", "vmware": "vmware", "xen": "xen", "virtualbox": "oracle", "virtualpc": "microsoft",
    "parallels": "parallels", "bhyve": "bhyve", "powervm_lx86": "powervm", "uml": "uml", "docker": "docker",
    "lxc": "lxc", "podman": "podman", "containerd": "containerd", "container": "container", "openvz": "openvz",
    "systemd-nspawn": "systemd-nspawn", "linux_vserver": "linux-vserver",
}  # fmt: skip
"""Ansible's guest technologies to systemd-detect-virt's names, which the model uses."""


def to_system(facts: Mapping[str, Any], known_distros: Collection[str] = (), source: str = "") -> System:
    """The System that one host's ``ansible_*`` facts describe; what they lack is listed in ``missing``."""
    missing: list[str] = []
    host = _host(facts, known_distros, missing)
    devices = _devices(facts.get("ansible_devices"), missing)
    mounts = _mounts(facts.get("ansible_mounts"), missing)
    return System(host=host, devices=devices, mounts=mounts, missing=(*missing, *NEVER_GATHERED), source=source)


def _host(facts: Mapping[str, Any], known_distros: Collection[str], missing: list[str]) -> Host:
    kernel = token(facts.get("ansible_kernel"), KERNEL_RELEASE)
    if kernel is not None and not _is_kernel(kernel):
        kernel = None
    host = Host(
        kernel=kernel,
        distro=distro_id(facts.get("ansible_distribution"), facts.get("ansible_distribution_version"), known_distros),
        virtualization=virtualization(
            facts.get("ansible_virtualization_type"), facts.get("ansible_virtualization_role")
        ),
        arch=token(facts.get("ansible_architecture"), ARCH),
        cmdline=cmdline(facts.get("ansible_proc_cmdline", facts.get("ansible_cmdline"))),
        hostname=token(facts.get("ansible_hostname"), HOSTNAME),
    )
    for name in ("kernel", "virtualization", "arch", "cmdline", "hostname"):
        if getattr(host, name) is None:
            missing.append(f"host.{name}")
    if not isinstance(facts.get("ansible_distribution"), str):
        missing.append("host.distro")
    return host


def _is_kernel(release: str) -> bool:
    try:
        KernelVersion.parse(release)
    except ValueError:
        return False
    return True


def virtualization(kind: object, role: object) -> str | None:
    """``none`` for bare metal, a host role, an LPAR or nothing detected (``NA``); else the guest technology."""
    if not isinstance(kind, str) or not isinstance(role, str):
        return None
    if role in ("host", "LPAR", "NA") or kind == "NA":
        return "none"
    name = kind.strip().lower()
    return "zvm" if name.startswith("z/vm") else _HYPERVISORS.get(name)


def cmdline(parsed: object) -> str | None:
    """The kernel command line rebuilt from Ansible's parsed form (``ansible_proc_cmdline`` keeps repeated keys).

    Ansible splits /proc/cmdline into ``key: value`` (``True`` for a bare flag); the words come back in the
    document's order, which after a JSON round trip with sorted keys need not be the boot order.
    """
    if not isinstance(parsed, dict) or not parsed:
        return None
    words: list[str] = []
    for key, value in parsed.items():
        if not CMDLINE_KEY.fullmatch(key):
            return None
        for item in value if isinstance(value, list) else (value,):
            if item is True:
                words.append(key)
            elif isinstance(item, str):
                words.append(f"{key}={item}")
            else:
                return None
    return printable(" ".join(words), MAX_CMDLINE)


def _devices(entries: object, missing: list[str]) -> tuple[Device, ...]:
    if not isinstance(entries, dict):
        missing.append("devices")
        return ()
    disks: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for index, (name, facts) in enumerate(entries.items()):
        if valid_block_name(name) and isinstance(facts, dict):
            disks[name] = _members(name, facts)
        else:
            missing.append(f"devices[{index}]")
    with_links = any(isinstance(members[0][1].get("links"), dict) for members in disks.values())
    if disks and not with_links:
        missing.extend(("devices.virtual", "devices.holders", "devices.slaves"))
    slaves = _slaves(disks) if with_links else {}
    return tuple(
        _device(name, members[0][1], _stacked_on(members, with_links), slaves.get(name, ()), missing)
        for name, members in disks.items()
    )


def _device(
    name: str, facts: dict[str, Any], holders: tuple[str, ...], slaves: tuple[str, ...], missing: list[str]
) -> Device:
    values = {
        "rotational": _flag(facts.get("rotational")),
        "scheduler": token(facts.get("scheduler_mode"), ELEVATOR),
        "model": printable(facts.get("model"), 128),
        "vendor": printable(facts.get("vendor"), 128),
        "serial": token(facts.get("serial"), IDENTIFIER),
        "size_bytes": _size(facts.get("sectors"), facts.get("sectorsize")),
        "removable": _flag(facts.get("removable")),
    }
    for field, key in _CHECKED:
        if values[field] is None:
            raw = facts.get(key)
            if raw != "" and (raw is not None or key in _REQUIRED):
                missing.append(f"devices.{name}.{field}")
    ids = _links(facts, "ids")
    wwn = token(facts.get("wwn"), IDENTIFIER) or _prefixed(ids, "wwn-")
    dm_uuid = _prefixed(ids, "dm-uuid-") if name.startswith("dm-") else None
    return Device(name=name, kind=device_kind(name), holders=holders, slaves=slaves, wwn=wwn, dm_uuid=dm_uuid, **values)


def _members(name: str, facts: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A disk and each of its partitions, by kernel name, the disk first."""
    partitions = facts.get("partitions")
    members = [(name, facts)]
    if isinstance(partitions, dict):
        members += [(p, v) for p, v in partitions.items() if valid_block_name(p) and isinstance(v, dict)]
    return members


def _stacked_on(members: list[tuple[str, dict[str, Any]]], with_links: bool) -> tuple[str, ...]:
    stacked: set[str] = set()
    for _, facts in members:
        listed = _links(facts, "masters") if with_links else facts.get("holders")
        if isinstance(listed, list):
            stacked.update(n for n in listed if valid_block_name(n))
    return tuple(sorted(stacked))


def _slaves(disks: dict[str, list[tuple[str, dict[str, Any]]]]) -> dict[str, tuple[str, ...]]:
    """Each stacked device's slaves: the disks and partitions whose ``links.masters`` name it."""
    below: dict[str, set[str]] = {}
    for members in disks.values():
        for member, facts in members:
            masters = _links(facts, "masters")
            for master in masters if isinstance(masters, list) else ():
                if master in disks:
                    below.setdefault(master, set()).add(member)
    return {name: tuple(sorted(names)) for name, names in below.items()}


def _links(facts: dict[str, Any], kind: str) -> Any:
    links = facts.get("links")
    return links.get(kind) if isinstance(links, dict) else None


def _prefixed(ids: object, prefix: str) -> str | None:
    """The first ``/dev/disk/by-id`` name with ``prefix``, without it (``wwn-0x5000…`` gives ``0x5000…``)."""
    for link in ids if isinstance(ids, list) else ():
        if isinstance(link, str) and link.startswith(prefix):
            return token(link[len(prefix) :], IDENTIFIER)
    return None


def _flag(value: object) -> bool | None:
    """A sysfs flag, ``"1"`` or ``"0"``."""
    return _FLAGS.get(value) if isinstance(value, str) else None


def _count(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return int(value) if token(value, DIGITS) else None


def _size(sectors: object, sectorsize: object) -> int | None:
    """Bytes; ``sectors`` counts ``sectorsize`` sectors (an int) since Ansible 2.18, 512-byte ones (a string) before."""
    count = _count(sectors)
    unit = _count(sectorsize) if isinstance(sectors, int) else 512
    if count is None or unit is None:
        return None
    size = count * unit
    return size if 0 <= size < 2**64 else None


def _mounts(entries: object, missing: list[str]) -> tuple[Mount, ...]:
    if not isinstance(entries, list):
        missing.append("mounts")
        return ()
    mounts = []
    for index, entry in enumerate(entries):
        mount = _mount(entry) if isinstance(entry, dict) else None
        if mount is None:
            missing.append(f"mounts[{index}]")
        else:
            mounts.append(mount)
    return tuple(mounts)


def _mount(entry: dict[str, Any]) -> Mount | None:
    device = printable(entry.get("device"), MAX_MOUNT_TEXT)
    mountpoint = printable(entry.get("mount"), MAX_MOUNT_TEXT)
    fstype = printable(entry.get("fstype"), 64)
    options = printable(entry.get("options"), MAX_MOUNT_TEXT)
    if device is None or mountpoint is None or fstype is None:
        return None
    return Mount(device, mountpoint, fstype, tuple(options.split(",")) if options else ())
