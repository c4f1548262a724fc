"""Skip texts name the device that decides: a stacked device without an elevator names what is planned in its
place, the multipath map and never its paths, and says when that device is itself not planned (every capture)."""

from __future__ import annotations

import re

import pytest

from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.hostplan import plan_host
from iosched.records.system import Device, Mount
from probe_helpers import NAMES, capture

_UNDER = re.compile(r"under it \(([^)]*)\) decide(?P<fate>.*)$")


@pytest.mark.parametrize("name", NAMES)
def test_a_stacked_device_names_the_devices_that_decide_for_it(name: str, kb: Kb) -> None:
    system = classified(read_root(capture(name)), {d.id for d in kb.section("distributions")},
                        {h.id for h in kb.section("hardware")})  # fmt: skip
    planned = plan_host(kb, system, Context(workload="db"))
    plans = {p.device for p in planned.plans}
    skipped = {s.device: s.reason for s in planned.skipped}
    for device, reason in skipped.items():
        match = _UNDER.search(reason)
        if match is None or match[1] == "its member disks":
            continue
        named = [n.removeprefix("multipath device ") for n in match[1].split(", ")]
        for deciding in named:
            assert "a path of the multipath device" not in skipped.get(deciding, ""), (device, deciding)
            assert deciding in plans or deciding in skipped or system.device(deciding) is None, (device, deciding)
        unplanned = [n for n in named if n not in plans]
        assert ("and are planned" in match["fate"]) == (not unplanned), (device, reason)
        assert all(n in match["fate"] for n in unplanned), (device, reason)


def test_an_lv_on_multipath_maps_names_the_maps(kb: Kb) -> None:
    """RHEL 6 (sos 3.5): the LV over partitions of three multipath maps names the maps, as ``multipath device``."""
    system = classified(read_root(capture("sos-rhel6-san-mpath")), {d.id for d in kb.section("distributions")},
                        {h.id for h in kb.section("hardware")})  # fmt: skip
    maps = {d.name for d in system.devices if (d.dm_uuid or "").startswith("mpath-")}
    planned = plan_host(kb, system, Context(workload="db"))
    reasons = [s.reason for s in planned.skipped if "multipath device dm-" in s.reason and "under it" in s.reason]
    named = {m for r in reasons for m in re.findall(r"multipath device (dm-\d+)", r)}
    assert len(maps) == 3 and named == maps
    assert maps <= {p.device for p in planned.plans}


def test_a_bcache_device_is_planned_through_the_disk_under_it(kb: Kb) -> None:
    """bcache0 (a bio-based device whose scheduler file says none) over the Debian capture's vda, mounted
    nobarrier: skipped naming vda, and vda planned with that file system and its barriers off."""
    system = classified(read_root(capture("debian12-vm-live")), {d.id for d in kb.section("distributions")},
                        {h.id for h in kb.section("hardware")})  # fmt: skip
    disk = next(d for d in system.devices if d.name == "vda")
    bcache = Device(name="bcache0", kind="other", scheduler="none", schedulers=("none",), slaves=("vda",))
    devices = tuple(d.replace(holders=(*d.holders, "bcache0")) if d is disk else d for d in system.devices)
    mount = Mount(device="/dev/bcache0", mountpoint="/srv/cache", fstype="ext4", options=("rw", "nobarrier"))
    stacked = system.replace(devices=(*devices, bcache), mounts=(*system.mounts, mount))
    planned = plan_host(kb, stacked, Context(workload="db"))
    (reason,) = [s.reason for s in planned.skipped if s.device == "bcache0"]
    assert "under it (vda) decide and are planned" in reason
    (plan,) = [p for p in planned.plans if p.device == "vda"]
    assert plan.context["mountpoint"] == "/srv/cache" and plan.facts["mount.barriers"] is False
