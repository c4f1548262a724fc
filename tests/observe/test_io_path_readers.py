"""A device's I/O path is decided once (:func:`iosched.observe.blockdevs.io_path`) for every reader: a capture's
sysfs and the Ansible facts gathered from the same sysfs give the same path wherever the facts keep what decides
it (ansible-core keeps only the active elevator, between brackets, and "" when the scheduler file has none)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iosched.fleet.ansible_system import to_system
from iosched.observe.blockdevs import BIO_KINDS, read_devices
from iosched.observe.reader import open_source

CAPTURES = Path(__file__).resolve().parent / "captures"
SYSFS = sorted(p.parent.parent.name for p in CAPTURES.glob("*/sys/block"))


def _ansible_facts(root: Path, name: str) -> dict[str, str]:
    """The device as ansible-core's setup module reads it from ``root``'s sysfs (linux.py, get_device_facts)."""
    queue = root / "sys" / "block" / name / "queue"
    scheduler = (queue / "scheduler").read_text() if (queue / "scheduler").is_file() else None
    found = re.match(r".*?(\[(.*)\])", scheduler) if scheduler is not None else None
    rotational = (queue / "rotational").read_text().strip() if (queue / "rotational").is_file() else None
    return {"scheduler_mode": found.group(2) if found else "", "rotational": rotational or ""}


@pytest.mark.parametrize("capture", SYSFS)
def test_a_capture_and_its_ansible_facts_give_every_device_one_io_path(capture: str) -> None:
    root = CAPTURES / capture
    devices = [d for d in read_devices(open_source(root))[0] if d.kind != "partition"]
    facts = {"ansible_devices": {d.name: _ansible_facts(root, d.name) for d in devices}}
    from_facts = {d.name: d.io_path for d in to_system(facts, source=capture).devices}
    told = {
        d.name: (from_facts[d.name], d.io_path)
        for d in devices  # sysfs tells more than the facts: an mq/ directory, or no elevator on a disk
        if not (d.io_path == "blk-mq" and not d.scheduler) and not (d.io_path == "bio" and d.kind not in BIO_KINDS)
    }
    assert told and all(a == b for a, b in told.values()), told
