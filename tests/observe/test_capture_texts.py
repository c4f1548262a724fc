"""Saved command outputs of public parser fixtures (see texts/PROVENANCE), read as a capture holds them."""

from __future__ import annotations

import re
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import given, settings

from iosched.capture.source import TextSource
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.blockdevs import read_devices
from iosched.observe.classify import classified
from iosched.planning.hostplan import plan_host
from iosched.records.system import Host, System

TEXTS = Path(__file__).parent / "texts"


def test_multipath_ll_gives_each_map_its_paths_and_the_paths_their_maps(kb: Kb) -> None:
    text = (TEXTS / "multipath_-v4_-ll").read_text()
    expected: dict[str, set[str]] = {}
    dm = None
    for line in text.splitlines():  # the test's own reading: a map line names dm-N, its paths follow
        if header := re.search(r" (dm-\d+) ", line):
            dm = header[1]
            expected.setdefault(dm, set())
        elif dm and (path := re.search(r"[|`]- \d+:\d+:\d+:\d+ (sd[a-z]+) ", line)):
            expected[dm].add(path[1])
    devices, _ = read_devices(TextSource({}, {"multipath -v4 -ll": text}))
    by_name = {d.name: d for d in devices}
    for dm, paths in expected.items():
        assert set(by_name[dm].slaves) == paths, dm
        assert (by_name[dm].dm_uuid or "").startswith("mpath-")
        for path in paths:
            assert dm in by_name[path].holders
    system = classified(System(host=Host(kernel="4.18.0-553.el8_10.x86_64"), devices=devices), {"rhel8"},
                        {h.id for h in kb.section("hardware")})  # fmt: skip
    skipped = {s.device: s.reason for s in plan_host(kb, system, Context(workload="db")).skipped}
    assert all("a path of the multipath device" in skipped[p] for paths in expected.values() for p in paths)


_LINES = st.lists(
    st.one_of(
        st.text(max_size=80),
        st.sampled_from(["mpatha (3600) dm-2 NETAPP,LUN", "| `- 1:0:0:1 sdb 8:16 active ready running",
                         "36001 dm-5 LIO-ORG ,x", "`-mpathb (dm-2)  253:2 0 1G 0 mpath", "[3]    qla2xxx",
                         'ELEVATOR="deadline"', "ELEVATOR_TUNE_DEVS=\"/sys/block/{sd,dm-}*/queue/scheduler\"",
                         "NAME  KNAME RA RQ-SIZE", "(dm-) dm-x ("]),
    ),
    max_size=30,
).map("\n".join)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(_LINES, _LINES)
def test_random_command_outputs_never_raise(first: str, second: str) -> None:
    from iosched.capture import listings
    from iosched.mechanisms.ktune import device_globs, sysconfig_values

    for maps in (listings.multipath_maps(first), listings.multipath_maps(first + "\n" + second)):
        for dm, (_, _, paths) in maps.items():
            assert dm.startswith("dm-") and all(listings.DEVICE_NAME.fullmatch(p) for p in paths)
    assert all(k.isdigit() for k in listings.scsi_hosts(first))
    listings.lsblk_table(first + "\n" + second)
    assert all("\n" not in v for v in sysconfig_values(first).values())
    assert all("/" not in g and " " not in g for g in device_globs(second))
    devices, _ = read_devices(TextSource({}, {"multipath -ll": first, "lsblk": second, "lsscsi -H": first}))
    assert all(listings.DEVICE_NAME.fullmatch(d.name) for d in devices)


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="sdvab*?![]!, \t-0123456789", max_size=30),
    st.lists(st.sampled_from(["sda", "sdb", "vda", "vdb", "dm-0", "nvme0n1", "sr0"]), unique=True),
)
def test_tuned_devices_rules_give_a_subset_of_the_free_disks(rules: str, free: list[str]) -> None:
    from iosched.mechanisms.tuned import _scoped

    taken = _scoped("disk_x", {"devices": rules}, [], list(free))
    assert set(taken) <= set(free) and len(taken) == len(set(taken))
