"""What iosched observed on a host: its block devices, kernel, distribution, mounts and other tuners.

One model for every way a host is read (a live root, a captured tree, a sosreport, a supportconfig,
Ansible facts). Readers fill it; the engine plans from it; ``to_json`` is the documented contract of
``iosched probe --format json`` (see the README) and is accepted back by ``--context``.
"""

from __future__ import annotations

from types import MappingProxyType

from iosched.grammar import compiled, glob_match
from iosched.hints import Literal
from iosched.struct import Struct
from iosched.vocab import IoPath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 1

EMPTY: dict[str, str] = MappingProxyType({})  # type: ignore[assignment]
"""The default of mapping fields: shared by every record, so read-only."""

DeviceKind = Literal[
    "disk", "partition", "dm", "md", "loop", "zram", "ram", "nvme", "mmc", "dasd", "virtio", "optical", "other",
]  # fmt: skip
TunerKind = Literal["tuned", "ktune", "udev", "sysctl.d", "kernel-cmdline", "saptune", "sapconf"]
"""``ktune`` is tuned 0.2 (RHEL 6), whose ktune service sets the elevator at boot; ``tuned`` is TuneD 2."""


class Device(Struct):
    """One block device as the kernel shows it in ``/sys/block/NAME``."""

    name: str
    kind: DeviceKind
    rotational: bool | None = None
    scheduler: str | None = None
    """The active elevator; None when the device has no elevator (bio-based dm, md, an empty list)."""
    schedulers: tuple[str, ...] = ()
    io_path: IoPath | None = None
    zoned: str | None = None
    """``none``, ``host-aware`` or ``host-managed`` (queue/zoned)."""
    write_cache: str | None = None
    """``write back`` or ``write through`` (queue/write_cache)."""
    nr_hw_queues: int | None = None
    queue: dict[str, str] = EMPTY
    """Every readable ``queue/*`` attribute, as text."""
    iosched: dict[str, str] = EMPTY
    """Every ``queue/iosched/*`` tunable of the active elevator, as text."""
    holders: tuple[str, ...] = ()
    slaves: tuple[str, ...] = ()
    model: str | None = None
    vendor: str | None = None
    serial: str | None = None
    wwn: str | None = None
    dm_uuid: str | None = None
    """``dm/uuid`` of a device-mapper device: ``mpath-...`` is multipath, ``LVM-...`` LVM, ``CRYPT-...`` dm-crypt."""
    dm_name: str | None = None
    """``dm/name`` of a device-mapper device (its ``/dev/mapper/`` name)."""
    parent: str | None = None
    """The whole disk a partition belongs to."""
    driver: str | None = None
    """The driver of the adapter the disk hangs off: a SCSI host's ``proc_name`` (``megaraid_sas``, ``mpt3sas``,
    ``virtio_scsi``, ``storvsc``), ``nvme`` or ``virtio_blk``; from where ``sys/block/NAME`` leads."""
    size_bytes: int | None = None
    removable: bool | None = None
    bus_id: str | None = None
    """A DASD's CCW bus ID (``0.0.0100``), as ``lsdasd`` lists it."""
    dasd_type: str | None = None
    """A DASD's discipline: ``ECKD``, ``FBA`` or ``DIAG`` (z/VM's DIAG access to either)."""
    block_size: int | None = None
    """The block size a DASD is formatted with, in bytes (``lsdasd``'s BlkSz)."""
    hw: str | None = None
    """The KB hardware preset this device maps to, or None (filled by classification, not by readers)."""


class Mount(Struct):
    device: str
    mountpoint: str
    fstype: str
    options: tuple[str, ...] = ()


class Tuner(Struct):
    """Something else on the host that sets block or writeback settings, and what it sets."""

    kind: TunerKind
    name: str
    """A profile name (tuned), or the file that holds the setting (udev rule, sysctl.d file)."""
    settings: dict[str, str] = EMPTY
    """Setting names as plans spell them (``scheduler``, ``queue/read_ahead_kb``, ``vm.dirty_ratio``) to values."""
    active: bool = True
    devices: tuple[str, ...] = ()
    """Kernel-name globs the tuner is limited to (a udev rule's ``KERNEL==``, the disks a TuneD section's
    ``devices=`` or ``devices_udev_regex=`` gives it); empty: every device."""
    requires: dict[str, str] = EMPTY
    """Queue attributes a udev rule matches on (``queue/rotational``: ``1``): it acts only on devices that have them."""
    conditional: bool = False
    """A udev rule that also matches on what was not read (a file system type, a udev property): it may not act on
    a given device."""
    section: str | None = None
    """The section of a TuneD profile that sets these values, when it is limited to some disks."""
    priority: int | None = None
    """That section's ``priority`` (TuneD gives a disk to the first unit that matches it, lowest first)."""

    def reaches(self, device: str | None) -> bool:
        """Whether the tuner can set this device's values (None: a host setting, which every tuner reaches)."""
        return device is None or not self.devices or any(glob_match(device, g) for g in self.devices)

    def label(self) -> str:
        """The tuner as people name it: ``customer [disk_db]`` for a section of a profile, else its name."""
        return f"{self.name} [{self.section}]" if self.section else self.name


# Setting names as a tuner's ``settings`` spell them, from what its files say

SYSCTL_NAME = r"[a-z0-9_][A-Za-z0-9_.*-]{0,127}"
QUEUE_PATH = r"(?:\S*/)?queue/([a-z0-9_]+(?:/[a-z0-9_]+)?)"
MAX_VALUE = 256


def queue_setting(attribute: str) -> str | None:
    """``queue/scheduler`` -> ``scheduler``, ``queue/iosched/X`` -> ``iosched/X``, ``queue/X`` -> ``queue/X``."""
    match = compiled(QUEUE_PATH).fullmatch(attribute.strip())
    if match is None:
        return None
    attr = match.group(1)
    if attr == "scheduler":
        return "scheduler"
    return attr if attr.startswith("iosched/") else f"queue/{attr}"


def sysctl_setting(key: str) -> str | None:
    """A sysctl key as ``sysctl`` prints it: a slash-separated key (sysctl.d(5)) has its separators swapped."""
    key = key.strip().lstrip("-")
    if "/" in key and ("." not in key or key.index("/") < key.index(".")):
        key = key.translate(str.maketrans("/.", "./"))
    return key if compiled(SYSCTL_NAME).fullmatch(key) else None


def setting_value(text: str) -> str:
    """A setting's value as one bounded line."""
    return " ".join(text.split())[:MAX_VALUE]


class Host(Struct):
    kernel: str | None = None
    """The kernel release as ``uname -r`` prints it (``6.8.0-45-generic``)."""
    distro: str | None = None
    """The KB distribution id (``sles12sp5``, ``rhel9``), or None when the KB does not know the release."""
    os_release: dict[str, str] = EMPTY
    virtualization: str | None = None
    """``none`` on bare metal, else the hypervisor (``kvm``, ``vmware``, ``xen``, ``microsoft``, ``zvm`` ...)."""
    arch: str | None = None
    cmdline: str | None = None
    hostname: str | None = None


class System(Struct):
    """A host and everything read from it; ``missing`` says what a capture did not hold."""

    host: Host
    devices: tuple[Device, ...] = ()
    sysctls: dict[str, str] = EMPTY
    mounts: tuple[Mount, ...] = ()
    tuners: tuple[Tuner, ...] = ()
    missing: tuple[str, ...] = ()
    source: str = ""
    """Where it was read from: ``/``, a capture directory, an Ansible fact file."""
    schema_version: int = SCHEMA_VERSION

    def device(self, name: str) -> Device | None:
        return next((d for d in self.devices if d.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {name: _plain(value) for name, value in self.fields()}


def _plain(value: Any) -> Any:
    """Records as dicts of every field (defaults included), mappings as dicts; the rest as it is."""
    if isinstance(value, Struct):
        return {name: _plain(v) for name, v in value.fields()}
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, MappingProxyType | dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
