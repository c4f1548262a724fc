"""Parsers for the text other tools print about block devices: lsblk, udevadm, dmsetup, /proc/partitions, ls -l.

Captures that do not hold sysfs itself (sosreports, supportconfigs) hold these instead. Every parser takes
text and returns plain data; lines it does not understand are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from iosched.escape import one_line

DEVICE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:+!-]{0,63}")
# lsblk's right-aligned columns (SCOLS_FL_RIGHT in util-linux misc-utils/lsblk.c); all others are left-aligned
LSBLK_RIGHT = frozenset({
    "ALIGNMENT", "DISC-ALN", "DAX", "DISC-GRAN", "DISK-SEQ", "DISC-MAX", "DISC-ZERO", "FSAVAIL", "FSSIZE", "FSUSED",
    "FSUSE%", "HOTPLUG", "LOG-SEC", "MIN-IO", "MQ", "OPT-IO", "PARTN", "PHY-SEC", "RAND", "RA", "REV", "RM", "ROTA",
    "RO", "RQ-SIZE", "SIZE", "START", "WSAME", "ZONE-SZ", "ZONE-WGRAN", "ZONE-APP", "ZONE-NR", "ZONE-OMAX", "ZONE-AMAX",
})  # fmt: skip
TREE_UNITS = ("│ ", "| ", "  ", "├─", "└─", "|-", "`-")
_PAIR = re.compile(r'([A-Z][A-Z0-9:%_-]*)="((?:[^"\\]|\\.)*)"')
_ESCAPES = re.compile(r"(?:\\x[0-9a-fA-F]{2})+")
_KERNEL_NAME_AFTER = re.compile(r"(\S+) \((\S+)\)")
"""``mpathb (dm-2)``: util-linux of the RHEL 6 era prints a stacked device's kernel name after its name."""


@dataclass(frozen=True)
class LsblkRow:
    depth: int
    cells: dict[str, str]


def unescape(text: str) -> str:
    r"""A value as ``lsblk -P`` and udev's ``*_ENC`` properties escape it, decoded once, on one line.

    Both write ``\xNN`` for each byte outside a safe set (util-linux include/carefulputc.h,
    ``fputs_quoted_case``; systemd src/shared/device-nodes.c, ``encode_devnode_name``), so a run of escapes
    is the UTF-8 bytes of the text (U+FFFD for a broken sequence). What they spell is shown, never acted on:
    control characters and invisible marks become ``?`` and line breaks spaces (:func:`one_line`)."""
    return one_line(_ESCAPES.sub(lambda m: bytes.fromhex(m[0].replace("\\x", "")).decode("utf-8", "replace"), text))


def lsblk_pairs(text: str) -> list[dict[str, str]]:
    """``lsblk -P`` / ``lsblk -O -P``: one dict per line, KEY="value" pairs."""
    rows = []
    for line in text.splitlines():
        pairs = {key: unescape(value.replace('\\"', '"')) for key, value in _PAIR.findall(line)}
        if pairs:
            rows.append(pairs)
    return rows


def lsblk_table(text: str) -> list[LsblkRow]:
    """lsblk's default tree output (any column set, ``-i`` or not): rows with their depth in the tree."""
    lines = [line.rstrip("\n") for line in text.splitlines()]
    start = next((i for i, line in enumerate(lines) if line.split()[:1] == ["NAME"]), None)
    if start is None:
        return []
    columns = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", lines[start])]
    rows: list[LsblkRow] = []
    for line in lines[start + 1 :]:
        if not line.strip() or line.startswith("#"):
            if rows:
                break
            continue
        cells = _cells(line, columns)
        depth, name = _tree_depth(cells.get("NAME", ""))
        if both := _KERNEL_NAME_AFTER.fullmatch(name):
            name = both[1]
            cells["KNAME"] = cells.get("KNAME") or both[2]
        if not DEVICE_NAME.fullmatch(name):
            continue
        cells["NAME"] = name
        rows.append(LsblkRow(depth, cells))
    return rows


def _cells(line: str, columns: list[tuple[str, int, int]]) -> dict[str, str]:
    """Cut a row by its header: left-aligned cells start under their label, right-aligned ones end under it."""
    cells: dict[str, str] = {}
    pos = 0
    for i, (label, _start, end) in enumerate(columns):
        following = columns[i + 1] if i + 1 < len(columns) else None
        if label in LSBLK_RIGHT:
            stop = end
            cells[label] = _last_word(line, end)
        elif following is None:
            stop = len(line)
        elif following[0] not in LSBLK_RIGHT:
            stop = following[1]
        else:  # the right-aligned cell that follows is the last word before its end
            stop = following[2] - len(_last_word(line, following[2]))
        if label not in LSBLK_RIGHT:
            cells[label] = line[pos:stop].rstrip() if i == 0 else line[pos:stop].strip()
        pos = max(pos, stop)
    return cells


def _last_word(line: str, end: int) -> str:
    """The word that ends exactly at ``end``, or "" (a right-aligned cell left empty)."""
    if len(line) < end or line[end - 1] == " ":
        return ""
    words = line[:end].split()
    return words[-1] if words else ""


def _tree_depth(cell: str) -> tuple[int, str]:
    depth = 0
    while cell[:2] in TREE_UNITS:
        cell, depth = cell[2:], depth + 1
    return depth, cell.strip()


def parents(rows: list[LsblkRow]) -> list[tuple[LsblkRow, LsblkRow]]:
    """(child, parent) pairs of an lsblk tree; a multipath map appears once under each of its paths."""
    stack: list[LsblkRow] = []
    pairs = []
    for row in rows:
        del stack[row.depth :]
        if stack and row.depth == len(stack):
            pairs.append((row, stack[-1]))
        stack.append(row)
    return pairs


def udev_records(text: str) -> dict[str, dict[str, str]]:
    """``udevadm info -e`` / ``udevadm info DEV`` / a udev database file: device name -> its E: properties."""
    records: dict[str, dict[str, str]] = {}
    for block in re.split(r"\n\s*\n", text):
        props: dict[str, str] = {}
        name = None
        for line in block.splitlines():
            tag, _, rest = line.partition(":")
            rest = rest.strip()
            if tag == "E" and "=" in rest:
                key, _, value = rest.partition("=")
                props[key] = value
            elif tag == "N":
                name = rest.removeprefix("/dev/")
            elif tag == "P" and name is None:
                name = rest.rsplit("/", 1)[-1]
        name = props.get("DEVNAME", "").removeprefix("/dev/") or name
        if props.get("SUBSYSTEM", "block") == "block" and name and DEVICE_NAME.fullmatch(name):
            records[name] = props
    return records


def udev_properties(text: str) -> dict[str, str]:
    """One udev database file (``run/udev/data/bMAJ:MIN``): its E: properties."""
    props = {}
    for line in text.splitlines():
        tag, _, rest = line.partition(":")
        if tag == "E" and "=" in rest:
            key, _, value = rest.strip().partition("=")
            props[key] = value
    return props


def dmsetup_columns(text: str) -> dict[str, tuple[str, str]]:
    """``dmsetup info -c``: ``dm-MINOR`` -> (map name, UUID or "")."""
    found = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 7 and words[1].isdigit() and words[2].isdigit():
            found[f"dm-{int(words[2])}"] = (words[0], words[7] if len(words) > 7 else "")
    return found


def dmsetup_long(text: str) -> dict[str, tuple[str, str]]:
    """``dmsetup info``: ``dm-MINOR`` -> (map name, UUID or "")."""
    found = {}
    for block in re.split(r"\n\s*\n", text):
        fields = {}
        for line in block.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields[key.strip()] = value.strip()
        numbers = re.fullmatch(r"(\d+),\s*(\d+)", fields.get("Major, minor", ""))
        if numbers and fields.get("Name"):
            found[f"dm-{int(numbers.group(2))}"] = (fields["Name"], fields.get("UUID", ""))
    return found


def partitions(text: str) -> dict[str, tuple[str, int]]:
    """``/proc/partitions``: name -> ("MAJ:MIN", size in bytes)."""
    found = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) == 4 and all(w.isdigit() for w in words[:3]) and DEVICE_NAME.fullmatch(words[3]):
            found[words[3]] = (f"{int(words[0])}:{int(words[1])}", int(words[2]) * 1024)
    return found


def block_links(text: str) -> dict[str, str]:
    """``ls -l /sys/block`` (or ``ls -lanR``): device name -> its link target under ``/sys/devices``."""
    found = {}
    for line in text.splitlines():
        if not line.startswith("l") or " -> " not in line:
            continue
        left, _, target = line.partition(" -> ")
        words = left.split()
        name = words[-1] if words else ""
        if DEVICE_NAME.fullmatch(name) and target.strip().endswith(f"/block/{name}"):
            found[name] = target.strip()
    return found


def scheduler_lines(text: str) -> dict[str, str]:
    """``grep '' /sys/block/*/queue/scheduler``: device name -> the scheduler line."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"/sys/block/([^/\s]+)/queue/scheduler:(.*)$", line)
        if match and DEVICE_NAME.fullmatch(match.group(1)):
            found[match.group(1)] = match.group(2)
    return found


def scsi_hosts(text: str) -> dict[str, str]:
    """``lsscsi -H``: SCSI host number -> its driver (``[0]    megaraid_sas``)."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"\[(\d+)\]\s+([A-Za-z0-9_-]{1,64})(?:\s|$)", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


_MPATH_MAP = re.compile(r"^(?:(?P<name>[^\s(|`]\S*) \((?P<wwid>[^()]+)\)|(?P<bare>[^\s|`][^()]*?)) (?P<dm>dm-\d+) ")
_MPATH_PATH = re.compile(r"^[\s|`+-]*[|`]- (?:\d+:\d+:\d+:\d+ )?(?P<dev>[A-Za-z][A-Za-z0-9!_-]{0,63}) \d+:\d+ ")


def multipath_maps(text: str) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """``multipath -ll`` (or ``-v4 -ll``): ``dm-N`` -> (map name, WWID, path devices). A map is named
    ``NAME (WWID) dm-N VENDOR,PRODUCT``, or ``WWID dm-N ...`` without user-friendly names; its paths follow as
    ``|- H:C:T:L sdX MAJ:MIN state ...`` lines."""
    maps: dict[str, tuple[str, str]] = {}
    paths: dict[str, list[str]] = {}
    dm = None
    for line in text.splitlines():
        if header := _MPATH_MAP.match(line):
            dm, wwid = header["dm"], (header["wwid"] or header["bare"] or "").strip()
            maps.setdefault(dm, (header["name"] or wwid, wwid))  # -v4 may print a map twice
            paths.setdefault(dm, [])
        elif dm and (path := _MPATH_PATH.match(line)) and DEVICE_NAME.fullmatch(path["dev"]):
            paths[dm] = [*dict.fromkeys([*paths[dm], path["dev"]])]
    return {dm: (name, wwid, tuple(paths[dm])) for dm, (name, wwid) in maps.items()}


_BUS_ID = r"(?P<bus>[0-9a-fA-F]{1,2}\.[0-9a-fA-F]\.[0-9a-fA-F]{4}|[0-9a-fA-F]{4})"
_DASD_ROW = re.compile(
    rf"^{_BUS_ID}\s+(?:active|n/f)\s*(?:\(ro\))?\s+(?P<name>dasd[a-z]{{1,4}})\s+\d+:\s*\d+\s+"
    r"(?P<type>ECKD|FBA|DIAG)(?: \(ESE\))?\s+(?P<block>\d+|\?\?\?)?"
)
"""``lsdasd``'s table: ``0.0.0100  active  dasda  94:0  ECKD  4096  7043MB  1803060`` (s390-tools
zconf/lsdasd, ``newoutput``: bus ID, status, name, major:minor, discipline with `` (ESE)`` for thin provisioning,
block size or ``???``, size, blocks; offline and alias rows name no device)."""
_DASD_LINE = re.compile(
    rf"^{_BUS_ID}\((?P<type>ECKD|FBA|DIAG)\s*\)\S* at \(\s*\d+:\s*\d+\) is (?P<name>dasd[a-z]{{1,4}})\s*(?:\(ro\))?\s*:"
    r"\s*(?:active|n/f)(?: at blocksize:? (?P<block>\d+))?"
)
"""``lsdasd -c`` (``oldoutput``: ``active at blocksize 4096, ...``) and ``/proc/dasd/devices``, which it copies
(``0.0.0100(ECKD) at ( 94:     0) is dasda       : active at blocksize: 4096, 1803060 blocks, 7043 MB``)."""


def dasd_devices(text: str) -> dict[str, tuple[str, str, int | None]]:
    """``lsdasd`` (either layout) or ``/proc/dasd/devices``: DASD name -> (bus ID, ``ECKD``/``FBA``/``DIAG``, block
    size in bytes or None when not shown); offline and alias devices, which have no block device, are left out."""
    found: dict[str, tuple[str, str, int | None]] = {}
    for line in text.splitlines():
        match = _DASD_ROW.match(line.strip()) or _DASD_LINE.match(line.strip())
        if match:
            block = match["block"]
            size = int(block) if block and block.isdigit() else None
            found[match["name"]] = (match["bus"].lower(), match["type"], size)
    return found
