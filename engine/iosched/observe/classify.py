"""What a probed system is in the KB's words: a distribution id and a hardware preset per device.

Pure functions of the observed System and the ids the KB knows; the KB itself is not imported, so a
caller passes ``known_ids`` (for example ``{d.id for d in kb.section("distributions")}``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping

from iosched.records.system import Device, Host, System

MAX_STACK = 8
SUSE_IDS = frozenset({"sles", "sles_sap", "sle_hpc"})
RHEL_REBUILDS = frozenset({"centos", "rocky", "almalinux", "ol", "scientific", "cloudlinux", "virtuozzo"})
# storage a hypervisor presents: QEMU, VirtualBox, VMware, Hyper-V, Xen, cloud block stores
VIRTUAL_DISK = re.compile(
    r"^(?:QEMU|VBOX|VMware|VMW|Msft|Virtual[ _]disk|Google|Amazon Elastic Block Store|Xen|XENSRC|Red Hat VirtIO)\b"
    r"|Virtual Disk|PersistentDisk|Elastic Block Store",
    re.IGNORECASE,
)
# logical drives of hardware RAID controllers: Dell PERC, Broadcom/LSI/Avago MegaRAID, HPE Smart Array,
# IBM/Lenovo ServeRAID, Fujitsu PRAID, Adaptec
RAID_VOLUME = re.compile(
    r"\bPERC\b|LOGICAL VOLUME|MegaRAID|\bMR\d{4}|ServeRAID|\bPRAID\b|\bRAID\b|Smart Array|^(?:LSI|AVAGO|Adaptec)\b",
    re.IGNORECASE,
)


def distro_id(os_release: Mapping[str, str], known_ids: Iterable[str], kernel: str | None = None) -> str | None:
    """The KB id of an os-release (``sles12sp5``, ``rhel9``, ``ubuntu2404``); for a release the KB does not list,
    the nearest release of its family (SLES 15 SP8 is ``sles15sp7``; see :func:`listed`); None for other systems.

    RHEL rebuilds (Rocky, Alma, CentOS, Oracle Linux) map to ``rhelN`` when the KB has no entry of their own;
    openSUSE Leap 15.3 and later, built from SLE 15 binaries, to the matching ``sles15spN``. Oracle Linux's own
    entries describe its Unbreakable Enterprise Kernel, so a host whose ``kernel`` release (``uname -r``) is the
    Red Hat Compatible Kernel (no ``uek`` in it) is the RHEL release it rebuilds.
    """
    known = set(known_ids)
    candidates = _distro_candidates(os_release, kernel)
    exact = next((c for c in candidates if c in known), None)
    return exact or (_nearest(candidates[-1], known) if candidates else None)


def listed(os_release: Mapping[str, str], ident: str, kernel: str | None = None) -> bool:
    """Whether the KB id ``ident`` names the release itself, not the nearest of its family (:func:`distro_id`)."""
    return ident in _distro_candidates(os_release, kernel)


_RELEASE_ID = re.compile(r"([a-z][a-z-]*?)(\d+)(?:sp(\d+))?")


def _nearest(wanted: str, known: Collection[str]) -> str | None:
    """The known release of ``wanted``'s family (``sles``, ``rhel``, ``ubuntu`` ...) nearest to it, of its own major
    version where the KB has one: the latest at or before it (a release keeps what the one before it did unless a
    source says otherwise), else the first after."""
    match = _RELEASE_ID.fullmatch(wanted)
    if match is None:
        return None
    family, version = match[1], (int(match[2]), int(match[3] or 0))
    ordered = sorted((v, ident) for ident in known if (m := _RELEASE_ID.fullmatch(ident)) and m[1] == family
                     for v in [(int(m[2]), int(m[3] or 0))])  # fmt: skip
    same = [(v, ident) for v, ident in ordered if v[0] == version[0]]
    before = [ident for v, ident in same or ordered if v <= version]
    after = [ident for v, ident in same or ordered if v > version]
    return before[-1] if before else next(iter(after), None)


def _distro_candidates(os_release: Mapping[str, str], kernel: str | None = None) -> list[str]:
    ident = os_release.get("ID", "").strip().lower()
    like = os_release.get("ID_LIKE", "").lower().split()
    version = os_release.get("VERSION_ID", "").strip()
    parts = re.findall(r"\d+", version)
    if not ident or not parts:
        return []
    major, minor = parts[0], parts[1] if len(parts) > 1 else "0"
    if ident in SUSE_IDS:
        return [f"sles{major}" + (f"sp{minor}" if minor != "0" else ""), f"sles{major}sp{minor}"]
    if ident == "opensuse-leap":
        closed_gap = major == "15" and int(minor) >= 3
        return [f"opensuse-leap{major}{minor}", *([f"sles{major}sp{minor}"] if closed_gap else [])]
    if ident == "ol" and kernel and "uek" not in kernel.lower():
        return [f"rhel{major}"]
    if ident == "rhel" or ident in RHEL_REBUILDS or "rhel" in like:
        return [f"{ident}{major}", f"rhel{major}"]
    if ident == "ubuntu":
        return [f"ubuntu{major}{minor.zfill(2)}"]
    if ident in ("debian", "fedora"):
        return [f"{ident}{major}"]
    return [f"{ident}{''.join(parts)}", f"{ident}{major}"]


def hardware_preset(
    device: Device, host: Host, known_ids: Iterable[str], devices: Mapping[str, Device] | None = None
) -> str | None:
    """The KB hardware preset of a device (``hdd``, ``ssd``, ``nvme``, ``virtual``, ``san``, ``raid``, ``dasd``,
    ``emmc``, ``smr``, ``zns``, ``ebs``), or None (loop, zram, optical, or not enough known).

    ``devices`` (name -> Device) lets stacked devices take the preset of what they are built on: a partition
    its disk, LVM or md the common preset of their members, a multipath path ``san``.
    """
    preset = _preset(device, host, devices or {}, ())
    return preset if preset in set(known_ids) else None


def _preset(device: Device, host: Host, devices: Mapping[str, Device], stack: tuple[str, ...]) -> str | None:
    if device.name in stack or len(stack) > MAX_STACK:
        return None
    below = (*stack, device.name)
    if device.kind == "partition":
        parent = devices.get(device.parent or "")
        return _preset(parent, host, devices, below) if parent else None
    if _multipath(device) or any(_multipath(devices[h]) for h in device.holders if h in devices):
        return "san"
    if device.kind in ("dm", "md"):
        members = {_preset(devices[s], host, devices, below) for s in device.slaves if s in devices}
        return members.pop() if len(members) == 1 else None
    if device.zoned == "host-managed":
        return "zns" if device.kind == "nvme" else "smr"
    label = f"{device.vendor or ''} {device.model or ''}".strip()
    simple = {"dasd": "dasd", "mmc": "emmc", "virtio": "virtual"}
    if device.kind in simple:
        return simple[device.kind]
    if device.kind == "nvme":
        return "ebs" if "Elastic Block Store" in label else "virtual" if VIRTUAL_DISK.search(label) else "nvme"
    if device.kind != "disk":
        return None
    if device.name.startswith("xvd") or VIRTUAL_DISK.search(label) or host.virtualization not in (None, "none"):
        return "virtual"
    if RAID_VOLUME.search(label):
        return "raid"
    if device.rotational is None:
        return None
    return "hdd" if device.rotational else "ssd"


def _multipath(device: Device) -> bool:
    """A dm-multipath map (``mpath-``) or a kpartx partition of one (``part1-mpath-``)."""
    return device.kind == "dm" and bool(re.match(r"(?:part\d+-)?mpath-", device.dm_uuid or ""))


def classified(system: System, distro_ids: Collection[str], hardware_ids: Collection[str]) -> System:
    """The same System with ``host.distro`` and every device's ``hw`` filled in."""
    by_name = {d.name: d for d in system.devices}
    known = frozenset(hardware_ids)
    host = system.host.replace(distro=distro_id(system.host.os_release, distro_ids, system.host.kernel))
    devices = tuple(d.replace(hw=hardware_preset(d, host, known, by_name)) for d in system.devices)
    return system.replace(host=host, devices=devices)
