"""The barrier risk is found through every stack in every collector: with ``nobarrier`` added to every mount of a
host, each planned disk that holds a file system (on a partition, an LV, LUKS, md, a multipath map or itself) is
planned with its barriers off, whether the host was read from sysfs, a sosreport, a supportconfig or Ansible facts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from iosched.fleet.ansible_facts import read_facts
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.reader import layout, read_root
from iosched.planning.hostplan import plan_host
from iosched.records.system import System
from probe_helpers import NAMES, capture

ANSIBLE = Path(__file__).parents[1] / "fleet" / "ansible"
SOURCES = [f"capture:{n}" for n in NAMES] + [f"ansible:{d}" for d in ("cache", "tree")]


def systems(source: str, kb: Kb) -> Iterator[tuple[str, System]]:
    """(collector, System) of each host a source holds."""
    kind, _, name = source.partition(":")
    distros, hardware = {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")}
    if kind == "capture":
        yield layout(capture(name)), classified(read_root(capture(name)), distros, hardware)
        return
    for host in read_facts(ANSIBLE / name, distros):
        if host.system is not None:
            yield "ansible", classified(host.system, distros, hardware)


def disks_under_mounts(kb: Kb, system: System) -> set[str]:
    """The devices a plan is made for under each mounted file system the KB describes, walked down from the mount
    (``/dev/mapper/NAME`` or a kernel name) through partitions and holders to whole disks or multipath maps."""
    filesystems = {m.filesystem for m in kb.section("mount_options")}
    by_name = {d.name: d for d in system.devices}
    names = {d.name: d.name for d in system.devices} | {f"mapper/{d.dm_name}": d.name for d in system.devices
                                                         if d.dm_name}  # fmt: skip
    # Ansible facts before dm devices were listed name an LV only among the holders of what it sits on
    names |= {f"mapper/{h}": d.name for d in system.devices for h in d.holders if h not in by_name}
    mapped = any(d.kind == "dm" for d in system.devices)  # old Ansible facts list no dm device and no holders
    found: set[str] = set()
    for mount in system.mounts:
        start = names.get(mount.device.removeprefix("/dev/"))
        if mount.fstype in filesystems and mount.device.startswith("/dev/") and mapped:
            assert start is not None, f"{mount.device} ({mount.mountpoint}) is no device the host was read to have"
        stack = [start] if mount.fstype in filesystems and start else []
        while stack:
            device = by_name.get(stack.pop())
            if device is None:
                continue
            if device.parent:
                stack.append(device.parent)
            elif device.slaves and not (device.dm_uuid or "").startswith("mpath-"):
                stack.extend(device.slaves)
            else:
                found.add(device.name)
    return found


def without_barriers(system: System) -> System:
    return system.replace(mounts=tuple(m.replace(options=(*m.options, "nobarrier")) for m in system.mounts))


def test_nobarrier_reaches_every_disk_under_a_file_system_in_every_collector(kb: Kb) -> None:
    found: dict[str, int] = {}
    for source in SOURCES:
        for collector, system in systems(source, kb):
            before = {p.device: p for p in plan_host(kb, system, Context(workload="db")).plans}
            after = {p.device: p for p in plan_host(kb, without_barriers(system), Context(workload="db")).plans}
            assert before.keys() == after.keys(), source
            holding = [d for d, p in after.items() if p.context.get("fs")]
            assert holding == [d for d, p in before.items() if p.context.get("fs")], source
            for device in holding:
                assert after[device].facts.get("mount.barriers") is False, (source, device)
            assert disks_under_mounts(kb, system) & after.keys() <= set(holding), source
            found[collector] = found.get(collector, 0) + len(holding)
    assert {"tree", "sosreport", "supportconfig", "ansible"} <= {k for k, v in found.items() if v > 0}, found
