"""Saved command outputs of public parser fixtures (see texts/PROVENANCE), read as a capture holds them."""

from __future__ import annotations

import re
from pathlib import Path

from iosched.context import Context
from iosched.host import plan_host
from iosched.kb import Kb
from iosched.system.blockdevs import read_devices
from iosched.system.classify import classified
from iosched.system.model import Host, System
from iosched.system.source import TextSource

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
