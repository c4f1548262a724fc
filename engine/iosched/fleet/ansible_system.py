"""One host's Ansible facts (the ``ansible_*`` mapping that ``setup`` returns) to a :class:`System`.

The System has the shape the probe gives (:mod:`iosched.observe.reader`), so the same classification and planning
apply. Ansible's keys are read as ``setup`` writes them (ansible/ansible, lib/ansible/module_utils/facts/:
hardware/linux.py ``get_device_facts``, virtual/linux.py, system/distribution.py, system/cmdline.py), in every
release since 1.2:

- ``ansible_devices`` is keyed by the names in ``/sys/block`` (``cciss!c0d0``), each with its ``partitions``;
  both become devices, a partition with its ``parent``. Before 2.4 Ansible skipped the devices under
  /sys/devices/virtual (dm, md, loop, ram, zram), which ``missing`` then says.
- ``scheduler_mode`` is the bracketed name in queue/scheduler, or "" when there is none: a bio-based dm or md
  device, zram, or a blk-mq queue of a kernel before 4.11, which prints ``none`` without brackets. "" is no elevator.
  Ansible keeps only the active elevator; the I/O path follows from its name (``cfq`` legacy, ``mq-deadline``
  blk-mq) or, with none, from the kind of device (dm, md, zram and ram are bio-based).
- ``links.masters`` (2.4+) names by kernel name what is stacked on a disk or partition (its sysfs holders);
  slaves follow from them. Older documents give only ``holders``: device-mapper *names* (``vg-root``), kept as
  they are, and ``missing`` says that holders are not kernel names and slaves are unknown.
- ``links.ids`` give ``wwn-*`` and, for dm devices, ``dm-name-*`` and ``dm-uuid-*``.
- ``sectors`` counted 512-byte sectors, as a string, until 2.18 made it an int count of ``sectorsize`` sectors.
- ``virtual`` (2.4+) is 1 for nearly every device of a current kernel and is not read.
- ``ansible_distribution`` and ``_version`` become os-release ``ID`` and ``VERSION_ID`` (:mod:`iosched.observe.distro`).
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from iosched.capture.listings import DEVICE_NAME
from iosched.capture.text import printable, token
from iosched.fleet.ansible_docs import SYSTEM_FACTS, devices_of
from iosched.mechanisms.cmdline import read_cmdline_tuner
from iosched.observe.blockdevs import ELEVATOR, NAMED_KINDS, io_path
from iosched.observe.distro import distro_id, os_release
from iosched.observe.machine import ARCHES, HOSTNAME, KERNEL_RELEASE, MAX_CMDLINE
from iosched.observe.mounts import split_options
from iosched.records.system import Device, DeviceKind, Host, Mount, System

NOT_IN_FACTS = "available schedulers, queue tunables, sysctls, tuned, udev and sysctl.d settings (not in Ansible facts)"
"""What ``setup`` never gathers; listed as missing for every Ansible host."""
BEFORE_2_4 = (
    "device-mapper, md and loop devices (Ansible before 2.4 lists none)",
    "holders by kernel name and slaves (Ansible before 2.4 gives device-mapper names)",
)
IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+-]{0,159}")
DIGITS = re.compile(r"[0-9]{1,20}")
CMDLINE_KEY = re.compile(r"[^\s=\x00-\x1f\x7f]{1,256}")
MAX_MOUNT_TEXT = 4096

_UNREADABLE = (("model", "model", "model"), ("vendor", "vendor", "vendor"), ("serial", "serial", "serial"),
               ("size_bytes", "sectors", "size"))  # fmt: skip
"""(Device field, Ansible key, what to call it): a key that is there but unreadable is listed as missing."""
_FLAGS = {"1": True, "0": False}
_HYPERVISORS = {
    "kvm": "kvm", "kvm/linux": "kvm", "openstack": "kvm", "ovirt": "kvm", "rhev": "kvm", "rhv": "kvm",
    "kubevirt": "kvm", "vmware": "vmware", "xen": "xen", "virtualbox": "oracle", "virtualpc": "microsoft",
    "parallels": "parallels", "bhyve": "bhyve", "powervm_lx86": "powervm", "uml": "uml",
}  # fmt: skip
"""Ansible's guest technologies to systemd-detect-virt's names; containers tell nothing of the machine."""


_READ = tuple(f"ansible_{name}" for name in SYSTEM_FACTS)
_DEVICES = "ansible_devices"
_SHAPES: dict[tuple[bytes | None, bytes | str, bool, frozenset[str]], System] = {}
"""Systems made, without hostname and source, by the text of the facts they were made of (the devices' JSON
text, when they are still that, and the other facts'): hosts of a fleet are mostly alike, and a System is
immutable. Bounded: emptied when full."""
_ALIKE: dict[tuple[bytes, bytes | str, bool, frozenset[str]], System] = {}
"""Systems made, as :data:`_SHAPES`, by the facts they were made of but for the serials and WWNs of their devices
(:func:`_alike`): the disks of physical hosts have identifiers of their own, and are otherwise alike. Bounded
likewise."""
MAX_SHAPES = 512
_msgpack = msgspec.msgpack.Encoder().encode
_ID_FACTS = frozenset(("serial", "wwn", "links", "partitions"))
"""What :func:`_alike` keys a device on apart (its ``partitions`` are devices of their own)."""


def to_system(
    facts: Mapping[str, Any], known_distros: Collection[str] = (), source: str = "", from_json: bool = False
) -> System:
    """The System that one host's ``ansible_*`` facts describe; what they lack is listed in ``missing``.

    ``from_json``: the facts hold only JSON's types, which keys the memo of Systems faster.
    """
    return named(system_shape(facts, known_distros, from_json), facts, source)


def named(shape: System, facts: Mapping[str, Any], source: str) -> System:
    """The System of the host whose facts have this shape (:func:`system_shape`): its hostname and source."""
    hostname = token(facts.get("ansible_hostname"), HOSTNAME)
    return shape.replace(host=shape.host.replace(hostname=hostname), source=source)


def system_shape(facts: Mapping[str, Any], known_distros: Collection[str] = (), from_json: bool = False) -> System:
    """:func:`to_system` without the hostname and source: one object for every host whose facts are alike (while
    the memo holds it), which is what a fleet plans. Raises ValueError when the devices, which
    :func:`~iosched.fleet.ansible_docs.selected` keeps as JSON text, are not JSON."""
    distros = known_distros if isinstance(known_distros, frozenset) else frozenset(known_distros)
    devices = facts.get(_DEVICES)
    text = bytes(devices) if isinstance(devices, msgspec.Raw) else None
    read = [(name, facts[name]) for name in _READ if name in facts and (text is None or name != _DEVICES)]
    key = text, _facts_key(read, from_json), from_json, distros
    shape = _SHAPES.get(key)
    if shape is None:
        if text is not None:
            shape = _alike({**facts, _DEVICES: devices_of(devices)}, key[1], from_json, distros)
        else:
            shape = _to_system(facts, distros)
        if len(_SHAPES) >= MAX_SHAPES:
            _SHAPES.clear()
        _SHAPES[key] = shape
    return shape


def _alike(facts: Mapping[str, Any], others: bytes | str, from_json: bool, distros: frozenset[str]) -> System:
    """The System of these facts, made once for every host whose facts differ only in the serials and WWNs of
    their devices: the System made for the first of them, with each device's own identifiers. Everything else
    of a device is read as before, and the key holds whether each identifier was read or refused (which
    ``missing`` says); of a device's ``/dev/disk/by-id`` links (which name its serial) the key keeps only those of
    device-mapper (the identifiers' own are read apart), which is all of them a System takes."""
    devices, missing = facts.get(_DEVICES), list[str]()
    members = _members(devices, missing) if isinstance(devices, dict) else {}
    if missing or not members:  # a device that is no device: as its facts say, unshared
        return _to_system(facts, distros)
    kept, ids = [], []
    for name, (found, parent) in members.items():
        serial, links = token(raw := found.get("serial"), IDENTIFIER), found.get("links")
        wwn = None if parent else token(found.get("wwn"), IDENTIFIER) or _prefixed(_links(found, "ids"), "wwn-")
        shown = {k: v for k, v in found.items() if k not in _ID_FACTS}
        if isinstance(links, dict):
            dm = _links(found, "ids")
            shown["links"] = links.get("masters"), [i for i in dm if isinstance(i, str) and i.startswith("dm-")] \
                if isinstance(dm, list) else dm  # fmt: skip
        kept.append((name, parent, shown, serial is None, raw in (None, ""), wwn is None))
        ids.append((serial, wwn))
    try:
        key = _msgpack(kept), others, from_json, distros
    except (ValueError, OverflowError):
        return _to_system(facts, distros)
    made = _ALIKE.get(key)
    if made is None:
        if len(_ALIKE) >= MAX_SHAPES:
            _ALIKE.clear()
        made = _ALIKE[key] = _to_system(facts, distros)
        return made
    own = tuple(d if (d.serial, d.wwn) == found else d.build({**d.__dict__, "serial": found[0], "wwn": found[1]})
                for d, found in zip(made.devices, ids, strict=True))  # fmt: skip
    return made.replace(devices=own)


def _facts_key(facts: list[tuple[str, Any]], from_json: bool) -> bytes | str:
    """Equal for equal facts of equal types. Of JSON's types, MessagePack tells None from NaN, 1 from True and 1.0
    (a JSON text does not), and writes a host's facts three times faster than marshal; it would write a date
    as its text and a set or tuple as a list, so other facts are written by marshal, whose version 2 writes no
    references (the key does not depend on how objects are shared). A value neither can write (a YAML date
    for marshal, an integer beyond 64 bits or a lone surrogate for MessagePack) makes the repr the key. The
    memo keys on ``from_json`` too: a MessagePack text and a marshal one may be the same bytes."""
    try:
        return _msgpack(facts) if from_json else marshal.dumps(facts, 2)
    except (ValueError, OverflowError):
        return repr(facts)


def _to_system(facts: Mapping[str, Any], known_distros: Collection[str]) -> System:
    missing: list[str] = []
    host = _host(facts, known_distros, missing)
    devices = _devices(facts.get("ansible_devices"), missing)
    mounts = _mounts(facts.get("ansible_mounts"), missing)
    tuners = tuple(read_cmdline_tuner(host.cmdline))
    missing.append(NOT_IN_FACTS)
    return System(host=host, devices=devices, mounts=mounts, tuners=tuners, missing=tuple(missing), source="")


def _host(facts: Mapping[str, Any], known_distros: Collection[str], missing: list[str]) -> Host:
    name, version = facts.get("ansible_distribution"), facts.get("ansible_distribution_version")
    kernel = token(facts.get("ansible_kernel"), KERNEL_RELEASE)
    host = Host(
        kernel=kernel,
        distro=distro_id(name, version, known_distros, kernel),
        os_release=os_release(name, version),
        virtualization=virtualization(
            facts.get("ansible_virtualization_type"), facts.get("ansible_virtualization_role")
        ),
        arch=arch if isinstance(arch := facts.get("ansible_architecture"), str) and arch in ARCHES else None,
        cmdline=cmdline(facts.get("ansible_proc_cmdline", facts.get("ansible_cmdline"))),
        hostname=None,
    )
    for value, what in (
        (host.kernel, "kernel release (ansible_kernel)"),
        (host.arch, "architecture (ansible_architecture)"),
        (host.os_release, "distribution (ansible_distribution, ansible_distribution_version)"),
        (host.virtualization, "virtualization (ansible_virtualization_type, ansible_virtualization_role)"),
        (host.cmdline, "kernel command line (ansible_proc_cmdline, ansible_cmdline)"),
    ):
        if not value:
            missing.append(what)
    return host


def virtualization(kind: object, role: object) -> str | None:
    """``none`` for bare metal, a virtualization host, an LPAR or nothing detected (``NA``); else the hypervisor.

    None for a container guest (docker, lxc, podman, openvz ...): Ansible does not say what machine it runs on.
    """
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
    """Each disk, then its partitions, in the document's order."""
    if not isinstance(entries, dict):
        missing.append("block devices (ansible_devices)")
        return ()
    members = _members(entries, missing)
    with_links = any(isinstance(facts.get("links"), dict) for facts, _ in members.values())
    if members and not with_links:
        missing.extend(BEFORE_2_4)
    holders = {name: _holders(facts, with_links) for name, (facts, _) in members.items()}
    slaves: dict[str, list[str]] = {}
    for name, above in holders.items():
        for holder in above if with_links else ():
            slaves.setdefault(holder, []).append(name)
    return tuple(
        _device(name, facts, parent, holders[name], tuple(sorted(slaves.get(name, ()))), missing)
        for name, (facts, parent) in members.items()
    )


def _members(entries: dict[Any, Any], missing: list[str]) -> dict[str, tuple[dict[str, Any], str | None]]:
    """Each device's facts and parent disk by its name: each disk, then its partitions, in the document's order."""
    members: dict[str, tuple[dict[str, Any], str | None]] = {}
    for index, (name, facts) in enumerate(entries.items()):
        if not (token(name, DEVICE_NAME) and isinstance(facts, dict)):
            missing.append(f"block device {index + 1} (ansible_devices: not a device name with facts)")
            continue
        members[name] = (facts, None)
        partitions = facts.get("partitions")
        for part, part_facts in partitions.items() if isinstance(partitions, dict) else ():
            if token(part, DEVICE_NAME) and isinstance(part_facts, dict):
                members.setdefault(part, (part_facts, name))
    return members


def _holders(facts: dict[str, Any], with_links: bool) -> tuple[str, ...]:
    listed = _links(facts, "masters") if with_links else facts.get("holders")
    return tuple(sorted({n for n in listed if token(n, DEVICE_NAME)})) if isinstance(listed, list) else ()


def _device(
    name: str,
    facts: dict[str, Any],
    parent: str | None,
    holders: tuple[str, ...],
    slaves: tuple[str, ...],
    missing: list[str],
) -> Device:
    kind = "partition" if parent else _kind(name)
    ids = _links(facts, "ids")
    values: dict[str, Any] = {
        "model": printable(facts.get("model"), 128),
        "vendor": printable(facts.get("vendor"), 128),
        "serial": token(facts.get("serial"), IDENTIFIER),
        "size_bytes": _size(facts.get("sectors"), facts.get("sectorsize")),
    }
    gaps = [what for field, key, what in _UNREADABLE if values[field] is None and facts.get(key) not in (None, "")]
    if parent:
        device = Device(name=name, kind=kind, parent=parent, holders=holders, slaves=slaves, **values)
    else:
        scheduler = token(facts.get("scheduler_mode"), ELEVATOR)
        rotational = _flag(facts.get("rotational"))
        # scheduler_mode "": ansible-core read no [active] elevator (none in the scheduler file, or no file)
        path = io_path(kind, [scheduler] if scheduler else [], no_elevator=facts.get("scheduler_mode") == "")
        gaps = [
            *(["I/O path"] if path is None else []),
            *(["active scheduler"] if scheduler is None and path != "bio" else []),
            *(["rotational"] if rotational is None else []),
            *gaps,
        ]
        device = Device(
            name=name,
            kind=kind,
            rotational=rotational,
            scheduler=scheduler,
            io_path=path,
            holders=holders,
            slaves=slaves,
            wwn=token(facts.get("wwn"), IDENTIFIER) or _prefixed(ids, "wwn-"),
            dm_uuid=_prefixed(ids, "dm-uuid-") if kind == "dm" else None,
            dm_name=_prefixed(ids, "dm-name-") if kind == "dm" else None,
            removable=_flag(facts.get("removable")),
            **values,
        )
    if gaps:
        missing.append(f"{name}: {', '.join(gaps)}")
    return device


def _kind(name: str) -> DeviceKind:
    return next((kind for pattern, kind in NAMED_KINDS if pattern.fullmatch(name)), "other")


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
    return int(str(value)) if token(value, DIGITS) else None


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
        missing.append("mounts (ansible_mounts)")
        return ()
    mounts = []
    for index, entry in enumerate(entries):
        mount = _mount(entry) if isinstance(entry, dict) else None
        if mount is None:
            missing.append(f"mount {index + 1} (ansible_mounts: no device, mount point or type)")
        else:
            mounts.append(mount)
    return tuple(mounts)


def _mount(entry: dict[str, Any]) -> Mount | None:
    device = printable(entry.get("device"), MAX_MOUNT_TEXT)
    mountpoint = printable(entry.get("mount"), MAX_MOUNT_TEXT)
    fstype = printable(entry.get("fstype"), 64)
    options = printable(entry.get("options"), MAX_MOUNT_TEXT) or ""
    if device is None or fstype is None or mountpoint is None or not mountpoint.startswith("/"):
        return None
    return Mount(device=device, mountpoint=mountpoint, fstype=fstype, options=split_options(options))
