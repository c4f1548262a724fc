"""Block devices of a host: sysfs first, then what a capture saved instead (lsblk, udev, dmsetup, /proc/partitions).

Facts are gathered per device name into a plain dict, the most direct source first; a later source only
fills what is still unknown. The dicts then become :class:`~iosched.records.system.Device` records.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any, cast

from iosched.capture import listings
from iosched.capture.source import Source
from iosched.escape import one_line
from iosched.records.system import Device, DeviceKind
from iosched.vocab import IoPath

Facts = dict[str, Any]

LEGACY_ELEVATORS = frozenset({"noop", "deadline", "cfq", "anticipatory"})
MQ_ELEVATORS = frozenset({"mq-deadline", "kyber", "bfq"})
ELEVATOR = re.compile(r"[a-z][a-z0-9_-]{0,31}")
NAMED_KINDS: tuple[tuple[re.Pattern[str], DeviceKind], ...] = tuple(
    (re.compile(pattern), cast(DeviceKind, kind))
    for pattern, kind in (
        (r"dm-\d+", "dm"),
        (r"md\d+|md_d\d+", "md"),
        (r"loop\d+", "loop"),
        (r"zram\d+", "zram"),
        (r"ram\d+", "ram"),
        (r"nvme\d+(?:c\d+)?n\d+", "nvme"),
        (r"mmcblk\d+(?:boot\d+|rpmb)?", "mmc"),
        (r"dasd[a-z]+", "dasd"),
        (r"vd[a-z]+", "virtio"),
        (r"sr\d+|scd\d+", "optical"),
        (r"(?:sd|hd|xvd)[a-z]+|cciss!c\d+d\d+", "disk"),
    )
)
LSBLK_KINDS: dict[str, DeviceKind] = {
    "part": "partition", "rom": "optical", "loop": "loop", "lvm": "dm", "mpath": "dm", "crypt": "dm", "dm": "dm",
    "md": "md", "raid0": "md", "raid1": "md", "raid4": "md", "raid5": "md", "raid6": "md", "raid10": "md",
    "linear": "md",
}  # fmt: skip
DM_TYPES = frozenset({"lvm", "mpath", "crypt", "dm"})
LSBLK_QUEUE = {
    "RA": "read_ahead_kb", "RQ-SIZE": "nr_requests", "RQ_SIZE": "nr_requests", "MIN-IO": "minimum_io_size",
    "MIN_IO": "minimum_io_size", "OPT-IO": "optimal_io_size", "OPT_IO": "optimal_io_size",
    "PHY-SEC": "physical_block_size", "PHY_SEC": "physical_block_size", "LOG-SEC": "logical_block_size",
    "LOG_SEC": "logical_block_size", "ROTA": "rotational",
}  # fmt: skip
"""lsblk's columns that print a ``queue/`` attribute as it is (util-linux misc-utils/lsblk.c, device_get_data:
``queue/read_ahead_kb``, ``queue/nr_requests`` ...; ``-P`` of util-linux 2.39+ spells them with ``_``). They stand
in for sysfs where a capture copied less of ``queue/`` (sos 3.x copies only ``queue/scheduler``)."""
BIO_KINDS = frozenset({"dm", "md", "zram", "ram"})
DASD_TYPES = ("ECKD", "FBA", "DIAG")
_CCW_BUS_ID = re.compile(r"[0-9a-f]{1,2}\.[0-9a-f]\.[0-9a-f]{4}")
_CCW_DEVICE = re.compile(r"/([0-9a-f]{1,2}\.[0-9a-f]\.[0-9a-f]{4})/block/")


def read_devices(src: Source) -> tuple[tuple[Device, ...], list[str]]:
    """Every block device the source shows, and what could not be found about them."""
    facts: dict[str, Facts] = {}
    for name, base in _sysfs_dirs(src):
        facts[name] = _from_sysfs(src, base)
    for layer in _saved_layers(src):
        for name, found in layer.items():
            entry = facts.setdefault(name, {})
            for key, value in found.items():
                if key == "queue" and "queue" in entry:
                    entry["queue"] = {**value, **entry["queue"]}
                entry.setdefault(key, value)
    _link_stacks(facts)
    hosts = listings.scsi_hosts(src.command("lsscsi -H") or "")
    for f in facts.values():
        if f.get("link") and not f.get("driver"):
            f["driver"] = _adapter_driver(src, f["link"], hosts)
    devices = tuple(_device(name, facts[name]) for name in sorted(facts, key=_natural))
    missing = [] if devices else ["block devices (sys/block, lsblk)"]
    for device in devices:
        gaps = _gaps(device)
        if gaps:
            missing.append(f"{device.name}: {', '.join(gaps)}")
    return devices, missing


def _natural(name: str) -> tuple[Any, ...]:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def _sysfs_dirs(src: Source) -> Iterator[tuple[str, str]]:
    """(name, sysfs directory) of every whole device and partition."""
    disks = [n for n in src.listdir("sys/block") if listings.DEVICE_NAME.fullmatch(n)]
    seen = set()
    for disk in disks:
        seen.add(disk)
        yield disk, f"sys/block/{disk}"
        for entry in src.listdir(f"sys/block/{disk}"):
            if entry.startswith(disk) and entry != disk and src.text(f"sys/block/{disk}/{entry}/partition"):
                seen.add(entry)
                yield entry, f"sys/block/{disk}/{entry}"
    for name in src.listdir("sys/class/block"):
        if name not in seen and listings.DEVICE_NAME.fullmatch(name):
            yield name, f"sys/class/block/{name}"


def _from_sysfs(src: Source, base: str) -> Facts:
    f: Facts = {}
    if src.text(f"{base}/partition") is not None:
        parent = base.split("/")[-2]
        f["parent"] = parent if parent != "block" else _parent_by_link(src, base)
    queue = _attributes(src, f"{base}/queue")
    if queue:
        f["queue"] = queue
        f["iosched"] = _attributes(src, f"{base}/queue/iosched")
    if "scheduler" in queue:
        parsed = parse_scheduler(queue["scheduler"])
        if parsed is None:
            src.refuse(f"{base}/queue/scheduler", "not a scheduler list")
        else:
            f["schedulers"], f["scheduler"] = parsed
    f.update({key: queue[key] for key in ("rotational", "zoned", "write_cache") if key in queue})
    if src.isdir(f"{base}/mq"):
        f["mq"] = True
        f["nr_hw_queues"] = sum(1 for entry in src.listdir(f"{base}/mq") if entry.isdigit())
    for rel in ("holders", "slaves"):
        if src.isdir(f"{base}/{rel}"):
            f[rel] = tuple(src.listdir(f"{base}/{rel}"))
    simple = {
        "devno": "dev", "size": "size", "removable": "removable", "vendor": "device/vendor",
        "model": "device/model", "dm_uuid": "dm/uuid", "dm_name": "dm/name", "scsi_type": "device/type",
        "dasd_type": "device/discipline",
    }  # fmt: skip
    for key, rel in simple.items():
        value = src.value(f"{base}/{rel}")
        if value is not None:
            f[key] = value
    f["sysfs"] = "devno" in f or "size" in f
    if (target := src.link(base)) is not None:
        f["link"] = target
    udev = _from_udev(_udev_database(src, f.get("devno")))
    if udev.get("serial"):  # ID_SERIAL is what udev rules match on; it wins over the sysfs serial
        f["serial"] = udev["serial"]
    for key, rels in (("serial", ("serial", "device/serial")), ("wwn", ("wwid", "device/wwid"))):
        value = next((v for v in (src.value(f"{base}/{r}") for r in rels) if v), None)
        if value:
            f.setdefault(key, value)
    for key, value in udev.items():
        f.setdefault(key, value)
    return f


def _adapter_driver(src: Source, target: str, hosts: dict[str, str]) -> str | None:
    """The adapter driver from where ``sys/block/NAME`` leads: a SCSI host's ``proc_name`` (sysfs, else
    ``lsscsi -H``), an NVMe controller, a virtio-blk device."""
    if scsi := re.search(r"/host(\d+)/", target):
        name = src.value(f"sys/class/scsi_host/host{scsi.group(1)}/proc_name") or hosts.get(scsi.group(1))
        return name if name and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name) else None
    if re.search(r"/nvme(?:-subsystem)?/nvme", target):
        return "nvme"
    if re.search(r"/virtio\d+/block/", target):
        return "virtio_blk"
    return None


def _udev_database(src: Source, devno: str | None) -> dict[str, str]:
    """The udev database entry of a device (``run/udev/data/bMAJ:MIN``), or {}."""
    if devno is None or not re.fullmatch(r"\d+:\d+", devno):
        return {}
    return listings.udev_properties(src.text(f"run/udev/data/b{devno}") or "")


def _parent_by_link(src: Source, base: str) -> str | None:
    target = src.link(base)
    parts = target.rstrip("/").split("/") if target else []
    return parts[-2] if len(parts) >= 2 and listings.DEVICE_NAME.fullmatch(parts[-2]) else None


def _attributes(src: Source, directory: str) -> dict[str, str]:
    values = {}
    for name in src.listdir(directory):
        value = src.value(f"{directory}/{name}")
        if value is not None:
            values[name] = value
    return values


def parse_scheduler(line: str) -> tuple[tuple[str, ...], str | None] | None:
    """``[mq-deadline] none`` -> (("mq-deadline", "none"), "mq-deadline"); ``none`` alone -> ((), None).

    None when the line is not a list of elevator names with at most one marked active.
    """
    words = line.split()
    names = tuple(w.strip("[]") for w in words)
    active = [w.strip("[]") for w in words if w.startswith("[") and w.endswith("]")]
    if not words or len(active) > 1 or not all(ELEVATOR.fullmatch(n) for n in names):
        return None
    if names == ("none",) and not active:
        return (), None
    return names, (active[0] if active else None)


def _saved_layers(src: Source) -> Iterator[dict[str, Facts]]:
    """What captures save about block devices besides sysfs, the most specific first."""
    numbers = listings.partitions(src.text("proc/partitions") or "")
    pairs = [row for text in src.outputs("lsblk -O -P") for row in listings.lsblk_pairs(text)]
    tables = [listings.lsblk_table(text) for text in src.outputs("lsblk") if not _is_pairs(text)]
    udev: dict[str, dict[str, str]] = {}
    for text in [*src.outputs("udevadm info -e"), *src.outputs("udevadm info /dev/")]:
        udev.update(listings.udev_records(text))
    maps = {**listings.dmsetup_long(src.command("dmsetup info") or ""),
            **listings.dmsetup_columns(src.command("dmsetup info -c") or "")}  # fmt: skip
    aliases = _aliases(numbers, pairs, tables, udev, maps)
    yield {name: _from_udev(props) for name, props in udev.items()}  # ID_SERIAL before lsblk's SERIAL
    yield _from_lsblk_pairs(pairs)
    for rows in tables:
        yield _from_lsblk_table(rows, aliases)
    yield {dm: {"dm_name": name, **({"dm_uuid": uuid} if uuid else {})} for dm, (name, uuid) in maps.items()}
    yield _from_multipath(src)
    yield _from_lsdasd(src)
    yield {
        name: {"devno": devno, "size_bytes": size, **_partition_of(name, numbers)}
        for name, (devno, size) in numbers.items()
    }
    for command in src.command_names("ls "):
        if command.rstrip("/").endswith(("/sys/block", ".sys.block")):
            text = src.command(command) or ""
            yield {name: {"link": target} for name, target in listings.block_links(text).items()}


def _partition_of(name: str, names: Collection[str]) -> Facts:
    """``{"parent": disk}`` when ``name`` is a partition of another listed device, named as the kernel names
    partitions (block/partitions/core.c, bdev_add_partition: the disk's name, ``p`` when it ends in a digit, the
    number)."""
    match = re.fullmatch(r"(.+?)(p?)(\d+)", name)
    if match is None or match[1] not in names or match[1][-1].isdigit() != bool(match[2]):
        return {}
    return {"parent": match[1]}


def _from_multipath(src: Source) -> dict[str, Facts]:
    """Maps and their paths from ``multipath -ll``; a map's ``dm/uuid`` is ``mpath-`` and its WWID
    (multipath-tools libmultipath/devmapper.h, UUID_PREFIX)."""
    found: dict[str, Facts] = {}
    for command in ("multipath -ll", "multipath -v4 -ll"):
        for dm, (name, wwid, paths) in listings.multipath_maps(src.command(command) or "").items():
            f = found.setdefault(dm, {})
            f.setdefault("dm_name", name)
            f.setdefault("dm_uuid", f"mpath-{wwid}")
            for path in paths:
                _relate(found, dm, path, "mpath")
    return found


def _from_lsdasd(src: Source) -> dict[str, Facts]:
    """Bus ID, discipline and block size of each DASD from saved ``lsdasd`` output (a supportconfig's
    fs-diskio.txt runs ``lsdasd -a``, sos's s390 plugin ``lsdasd``) or ``/proc/dasd/devices``."""
    found: dict[str, Facts] = {}
    for text in [*src.outputs("lsdasd"), src.text("proc/dasd/devices") or ""]:
        for name, (bus_id, kind, block_size) in listings.dasd_devices(text).items():
            found.setdefault(name, {"bus_id": bus_id, "dasd_type": kind, "block_size": block_size})
    return found


def _is_pairs(text: str) -> bool:
    return '="' in text.split("\n", 1)[0]


def _aliases(
    numbers: dict[str, tuple[str, int]],
    pairs: list[dict[str, str]],
    tables: list[list[listings.LsblkRow]],
    udev: dict[str, dict[str, str]],
    maps: dict[str, tuple[str, str]],
) -> dict[str, str]:
    """Names tools print (``rhel-root``, a multipath WWID) -> kernel names (``dm-0``)."""
    by_number = {devno: name for name, (devno, _) in numbers.items()}
    aliases = {name: dm for dm, (name, _) in maps.items()}
    aliases.update({props["DM_NAME"]: name for name, props in udev.items() if props.get("DM_NAME")})
    aliases.update({row["NAME"]: row["KNAME"] for row in pairs if row.get("NAME") and row.get("KNAME")})
    for rows in tables:
        for row in rows:
            cells = row.cells
            devno = cells.get("MAJ:MIN", "").replace(" ", "")
            if listings.DEVICE_NAME.fullmatch(cells.get("KNAME", "")):
                aliases[cells["NAME"]] = cells["KNAME"]
            elif devno in by_number:
                aliases[cells["NAME"]] = by_number[devno]
            elif cells.get("TYPE") in DM_TYPES and re.fullmatch(r"\d+:\d+", devno):
                aliases[cells["NAME"]] = f"dm-{devno.split(':')[1]}"
    return {name: kname for name, kname in aliases.items() if listings.DEVICE_NAME.fullmatch(kname)}


def _from_lsblk_pairs(rows: list[dict[str, str]]) -> dict[str, Facts]:
    found: dict[str, Facts] = {}
    for row in rows:
        name = row.get("KNAME", "")
        if not listings.DEVICE_NAME.fullmatch(name):
            continue
        f = found.setdefault(name, {})
        _lsblk_cells(f, row)
        parent = row.get("PKNAME", "")
        if listings.DEVICE_NAME.fullmatch(parent):
            _relate(found, name, parent, row.get("TYPE"))
    return found


def _from_lsblk_table(rows: list[listings.LsblkRow], aliases: dict[str, str]) -> dict[str, Facts]:
    found: dict[str, Facts] = {}
    for row in rows:
        _lsblk_cells(found.setdefault(aliases.get(row.cells["NAME"], row.cells["NAME"]), {}), row.cells)
    for child, parent in listings.parents(rows):
        kid, mother = (aliases.get(r.cells["NAME"], r.cells["NAME"]) for r in (child, parent))
        _relate(found, kid, mother, child.cells.get("TYPE"))
    return found


def _lsblk_cells(f: Facts, cells: dict[str, str]) -> None:
    mapping = {"TYPE": "type", "ROTA": "rotational", "MODEL": "model", "VENDOR": "vendor", "SERIAL": "serial",
               "WWN": "wwn", "RM": "removable", "ZONED": "zoned"}  # fmt: skip
    for column, key in mapping.items():
        if cells.get(column):
            f.setdefault(key, cells[column].strip())
    queue = {
        attr: cells[column].strip() for column, attr in LSBLK_QUEUE.items() if cells.get(column, "").strip().isdigit()
    }
    if queue:
        f.setdefault("queue", {}).update({k: v for k, v in queue.items() if k not in f["queue"]})
    if cells.get("SCHED") and ELEVATOR.fullmatch(cells["SCHED"]):
        f.setdefault("scheduler", cells["SCHED"])
    name, kname = cells.get("NAME", ""), cells.get("KNAME", "")
    if name and (cells.get("TYPE") in DM_TYPES or (kname.startswith("dm-") and name != kname)):
        f.setdefault("dm_name", name)  # a table without TYPE (supportconfig's) names a map beside its dm-N


def _relate(found: dict[str, Facts], child: str, parent: str, kind: str | None) -> None:
    """Record ``child`` on ``parent``: a partition (lsblk type ``part``, or named after its disk) or a holder."""
    partition = kind == "part" if kind else bool(re.fullmatch(re.escape(parent) + r"p?\d+", child))
    if partition and not child.startswith("dm-"):
        found.setdefault(child, {}).setdefault("parent", parent)
        return
    slaves = found.setdefault(child, {}).setdefault("slaves_seen", [])
    holders = found.setdefault(parent, {}).setdefault("holders_seen", [])
    if parent not in slaves:
        slaves.append(parent)
    if child not in holders:
        holders.append(child)


def _from_udev(props: dict[str, str]) -> Facts:
    f: Facts = {}
    pairs = (("serial", "ID_SERIAL"), ("wwn", "ID_WWN_WITH_EXTENSION"), ("wwn", "ID_WWN"),
             ("vendor", "ID_VENDOR_ENC"), ("vendor", "ID_VENDOR"), ("model", "ID_MODEL_ENC"), ("model", "ID_MODEL"),
             ("dm_uuid", "DM_UUID"), ("dm_name", "DM_NAME"))  # fmt: skip
    for key, prop in pairs:
        value = props.get(prop, "")
        value = listings.unescape(value) if prop.endswith("_ENC") else one_line(value)
        if value:
            f.setdefault(key, value)
    if props.get("DEVTYPE") == "partition":
        f["type"] = "part"
    return f


def _link_stacks(facts: dict[str, Facts]) -> None:
    """Holders and slaves from sysfs when it had them, else from the relations other listings showed."""
    for f in facts.values():
        for rel in ("holders", "slaves"):
            seen = f.pop(f"{rel}_seen", None)
            if rel not in f and seen:
                f[rel] = tuple(sorted(seen, key=_natural))


def _device(name: str, f: Facts) -> Device:
    kind = _kind(name, f)
    own_queue = kind != "partition"  # a partition has no request queue; lsblk shows its disk's
    schedulers = tuple(f.get("schedulers", ())) if own_queue else ()
    scheduler = f.get("scheduler") if own_queue else None
    return Device(
        name=name,
        kind=kind,
        rotational=_flag(f.get("rotational")) if own_queue else None,
        scheduler=scheduler,
        schedulers=schedulers,
        io_path=io_path(
            kind,
            {*f.get("schedulers", ()), *([f["scheduler"]] if f.get("scheduler") else [])},
            mq=bool(f.get("mq")),
            no_elevator=("schedulers" in f and not f["schedulers"]) or ("queue" in f and "scheduler" not in f["queue"]),
            from_sysfs=bool(f.get("sysfs")),
        ),
        zoned=_word(f.get("zoned"), ("none", "host-aware", "host-managed")),
        write_cache=_word(f.get("write_cache"), ("write back", "write through")),
        nr_hw_queues=f.get("nr_hw_queues"),
        queue=dict(f.get("queue", {})) if own_queue else {},
        iosched=dict(f.get("iosched", {})),
        holders=tuple(f.get("holders", ())),
        slaves=tuple(f.get("slaves", ())),
        model=_text(f.get("model")),
        vendor=_text(f.get("vendor")),
        serial=_text(f.get("serial")),
        wwn=_text(f.get("wwn")),
        dm_uuid=_text(f.get("dm_uuid")),
        dm_name=_text(f.get("dm_name")),
        parent=f.get("parent") if kind == "partition" else None,
        driver=f.get("driver") if kind != "partition" else None,
        size_bytes=_size(f),
        removable=_flag(f.get("removable")),
        **_dasd(f) if kind == "dasd" else {},
    )


def _dasd(f: Facts) -> dict[str, Any]:
    """A DASD's bus ID, discipline and block size from ``lsdasd`` or sysfs (``device/discipline``, the CCW
    device its ``sys/block`` link leads through, ``queue/logical_block_size``); nothing for other disks."""
    kind = _word(f.get("dasd_type"), DASD_TYPES)
    if kind is None:
        return {}
    bus_id = f.get("bus_id") or next(iter(_CCW_DEVICE.findall(f.get("link") or "")), None)
    block_size = f.get("block_size") or f.get("queue", {}).get("logical_block_size")
    return {
        "dasd_type": kind,
        "bus_id": bus_id if isinstance(bus_id, str) and _CCW_BUS_ID.fullmatch(bus_id) else None,
        "block_size": int(block_size) if str(block_size) in ("512", "1024", "2048", "4096") else None,
    }


def _kind(name: str, f: Facts) -> DeviceKind:
    if name.startswith("dm-") or f.get("dm_uuid"):
        return "dm"
    if f.get("parent") or f.get("type") == "part":
        return "partition"
    if f.get("type") in LSBLK_KINDS:
        return LSBLK_KINDS[f["type"]]
    if f.get("scsi_type") == "5":
        return "optical"
    return next((kind for pattern, kind in NAMED_KINDS if pattern.fullmatch(name)), "other")


def io_path(kind: DeviceKind, offered: Collection[str], *, mq: bool = False, no_elevator: bool = False,
            from_sysfs: bool = False) -> IoPath | None:  # fmt: skip
    """The block-layer path of a device, as every reader decides it from what it shows: blk-mq when it has an
    ``mq/`` directory; else the path of the elevators ``offered`` (those listed, and the active one); bio when
    it shows that it has no elevator at all, read from sysfs (any kind) or of a kind that has none (dm, md,
    zram, ram); None for a partition (its disk's queue) or when nothing says."""
    if kind == "partition":
        return None
    if mq:
        return "blk-mq"
    if LEGACY_ELEVATORS.intersection(offered):
        return "legacy"
    if MQ_ELEVATORS.intersection(offered) or "none" in offered:
        return "blk-mq"
    if no_elevator and (from_sysfs or kind in BIO_KINDS):
        return "bio"
    return None


def _gaps(device: Device) -> list[str]:
    if device.kind == "partition":
        return []
    gaps = []
    if device.io_path is None:
        gaps.append("I/O path")
    if device.scheduler is None and device.io_path in (None, "blk-mq", "legacy"):
        gaps.append("active scheduler")
    if device.rotational is None:
        gaps.append("rotational")
    if device.scheduler is not None and "read_ahead_kb" not in device.queue:
        gaps.append("read-ahead (queue/read_ahead_kb, lsblk -t)")
    return gaps


def _flag(value: Any) -> bool | None:
    return {"0": False, "1": True}.get(str(value).strip()) if value is not None else None


def _word(value: Any, allowed: tuple[str, ...]) -> str | None:
    return value if value in allowed else None


def _text(value: Any) -> str | None:
    """A device's text field (model, serial ...), from whichever source: one line, at most 256 characters."""
    if value is None:
        return None
    return one_line(str(value))[:256] or None


def _size(f: Facts) -> int | None:
    if str(f.get("size", "")).isdigit():
        return int(f["size"]) * 512
    return f.get("size_bytes")
