"""Mount options read from a machine are data: kept as the kernel shows them, quotes and all, and never a reason
to leave a disk unplanned. A disk's file system is the one that matters: ``/`` over the btrfs subvolumes beside it,
and the mount of an LV reaches the disks under it in every collector's form (texts/PROVENANCE, captures/README.md).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.mounts import parse_mounts, split_options
from iosched.observe.reader import read_root
from iosched.planning.hostplan import context_for, plan_host
from iosched.records.system import System
from probe_helpers import capture

TEXTS = Path(__file__).parent / "texts"
SLES_BTRFS = capture("scc-sles15sp4-btrfs-lvm")
RHEL8 = capture("sos-rhel8-kvm-lvm")


def probed(root: Path, kb: Kb) -> System:
    return classified(read_root(root), {d.id for d in kb.section("distributions")},
                      {h.id for h in kb.section("hardware")})  # fmt: skip


def mounts_of(root: Path, section: str = "/proc/mounts") -> list[list[str]]:
    """The fields of each line of a supportconfig's ``section`` (in fs-diskio.txt), read here."""
    text = (root / "fs-diskio.txt").read_text()
    body = text.split(f"# {section}\n", 1)[1].split("\n\n", 1)[0]
    return [line.split() for line in body.splitlines()]


def test_quoted_option_values_stay_whole_as_the_kernel_shows_them() -> None:
    text = (TEXTS / "proc_mounts_quotes").read_text()
    quoted = re.findall(r'context="[^"]*"', text)
    mounts = parse_mounts(text)
    assert len(mounts) == len(text.splitlines()) and len(quoted) == 4
    contexts = [o for m in mounts for o in m.options if o.startswith("context=")]
    assert contexts == quoted
    assert all(o.count('"') % 2 == 0 for m in mounts for o in m.options)


_PLAIN = st.text(st.characters(codec="utf-8", exclude_characters=',"', exclude_categories=("Cc", "Zs", "Zl", "Zp")),
                 min_size=1, max_size=12)  # fmt: skip
_QUOTED = st.builds(lambda k, v: f'{k}="{v}"', _PLAIN, st.text(st.characters(exclude_characters='"'), max_size=20))


@given(st.lists(st.one_of(_PLAIN, _QUOTED, st.sampled_from(["subvol=/@/.snapshots/1/snapshot", "nobarrier"])),
                max_size=8))  # fmt: skip
def test_options_split_at_commas_outside_quotes_only(options: list[str]) -> None:
    assert split_options(",".join(options)) == tuple(options)


def _with_options(system: System, device: str, options: tuple[str, ...]) -> System:
    """The system with the mount of ``device`` given other options."""
    mounts = tuple(m.replace(options=options) if m.device == f"/dev/{device}" else m for m in system.mounts)
    return system.replace(mounts=mounts)


@given(
    mode=st.sampled_from(["rw", "ro"]),
    options=st.lists(st.one_of(_PLAIN, _QUOTED, st.sampled_from(["nobarrier", "barrier=0"])), max_size=8),
)
def test_a_disk_is_planned_whatever_its_mount_options(kb: Kb, mode: str, options: list[str]) -> None:
    """vdb of the RHEL 8 capture, mounted with any options a host can show after the access mode the kernel
    always shows first: planned, and its barrier state is what the options the KB describes say."""
    system = _with_options(_RHEL8_SYSTEM.get(kb), "vdb", (mode, *options))
    planned = plan_host(kb, system, Context(workload="db"))
    assert "vdb" not in {s.device for s in planned.skipped}
    (plan,) = [p for p in planned.plans if p.device == "vdb"]
    fs = plan.context["fs"]
    off = {o.option for o in kb.section("mount_options") if o.filesystem == fs and o.disables_barriers}
    assert plan.facts["mount.barriers"] == (not off.intersection(options))


class _Cached:
    system: System | None = None

    def get(self, kb: Kb) -> System:
        if self.system is None:
            self.system = probed(RHEL8, kb)
        return self.system


_RHEL8_SYSTEM = _Cached()


def test_a_podman_hosts_selinux_context_leaves_its_disk_planned_and_whole(kb: Kb, tmp_path: Path) -> None:
    """The RHEL 8 capture's data disk mounted as a podman host mounts its storage: with a quoted SELinux context
    (insights-core's sample): planned, the context kept whole, and the barriers known to be on."""
    context = re.findall(r'context="[^"]*,[^"]*"', (TEXTS / "proc_mounts_quotes").read_text())[0]
    root = tmp_path / "root"
    shutil.copytree(RHEL8, root, symlinks=True)
    lines = (root / "proc/mounts").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("/dev/vdb "))
    fields = lines[at].split()
    fields[3] = f"rw,{context},noatime"
    lines[at] = " ".join(fields)
    (root / "proc/mounts").write_text("\n".join(lines) + "\n")
    system = probed(root, kb)
    (mount,) = [m for m in system.mounts if m.device == "/dev/vdb"]
    assert mount.options == ("rw", context, "noatime")
    planned = plan_host(kb, system, Context(workload="db"))
    (plan,) = [p for p in planned.plans if p.device == "vdb"]
    assert plan.facts["mount.barriers"] is True and plan.context["mountpoint"] == fields[1]


def test_the_root_disk_of_a_sles_btrfs_host_takes_its_context_from_root_not_a_subvolume(kb: Kb) -> None:
    mounts = mounts_of(SLES_BTRFS)
    root = next(m for m in mounts if m[1] == "/")
    beside = [m[1] for m in mounts if m[0] == root[0] and m[1] != "/"]
    assert beside and any("subvol=" in o for o in root[3].split(","))
    system = probed(SLES_BTRFS, kb)
    (lv,) = [d for d in system.devices if d.dm_name and root[0] == f"/dev/mapper/{d.dm_name}"]
    (partition,) = lv.slaves
    disk = system.device(system.device(partition).parent)
    ctx = context_for(kb, system, disk, Context(workload="db"))
    assert (ctx.mountpoint, ctx.fs) == ("/", root[2])
    planned = plan_host(kb, system, Context(workload="db"))
    assert disk.name in {p.device for p in planned.plans}


def test_a_nobarrier_lv_in_a_supportconfig_reaches_every_disk_under_it(kb: Kb) -> None:
    """supportconfig: ``/dev/mapper/VG-LV`` mounted nobarrier, the LV shown as ``VG-LV dm-N`` in an lsblk table
    without a TYPE column: each disk under it gets the barrier step for that mount point."""
    (lv_mount,) = [m for m in mounts_of(SLES_BTRFS) if "nobarrier" in m[3].split(",")]
    system = probed(SLES_BTRFS, kb)
    (lv,) = [d for d in system.devices if d.dm_name and lv_mount[0] == f"/dev/mapper/{d.dm_name}"]
    assert len(lv.slaves) == 2
    planned = plan_host(kb, system, Context(workload="db"))
    plans = {p.device: p for p in planned.plans}
    restoring = {o.id for o in kb.section("mount_options") if o.filesystem == lv_mount[2] and o.restores_barriers}
    for disk in lv.slaves:
        steps = [s for s in plans[disk].steps if s.kind == "mount-option"]
        assert [(s.mountpoint, s.previous) for s in steps] == [(lv_mount[1], "nobarrier")], disk
        assert steps[0].target in restoring
        assert plans[disk].facts["mount.barriers"] is False
    others = [p for name, p in plans.items() if name not in lv.slaves]
    assert others and all(p.facts.get("mount.barriers") is not False for p in others)


def test_a_mount_with_barriers_on_plans_no_barrier_step(kb: Kb) -> None:
    """The same LV mounted with the options of the sample without nobarrier: no step, barriers known on."""
    system = probed(SLES_BTRFS, kb)
    mounts = tuple(
        m.replace(options=tuple(o for o in m.options if o != "nobarrier")) if "nobarrier" in m.options else m
        for m in system.mounts
    )
    planned = plan_host(kb, system.replace(mounts=mounts), Context(workload="db"))
    for plan in planned.plans:
        assert not [s for s in plan.steps if s.kind == "mount-option"]
        assert plan.facts.get("mount.barriers") is True, plan.device


def test_every_device_of_the_sles_btrfs_capture_with_a_file_system_is_planned(kb: Kb) -> None:
    system = probed(SLES_BTRFS, kb)
    planned = plan_host(kb, system, Context(workload="db"))
    disks = {d.name for d in system.devices if d.kind == "disk"}
    assert disks == {p.device for p in planned.plans}
    assert all(p.context.get("fs") for p in planned.plans)


def test_a_mount_point_no_command_may_name_still_gives_its_file_system_and_barrier_state(
    kb: Kb, tmp_path: Path
) -> None:
    """vdb mounted where a plan cannot write the path into a command (a space, octal-escaped as the kernel does):
    its file system and options still reach the plan, and the barrier step asks for the mount point."""
    root = tmp_path / "root"
    shutil.copytree(RHEL8, root, symlinks=True)
    lines = (root / "proc/mounts").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("/dev/vdb "))
    fields = lines[at].split()
    fields[1], fields[2], fields[3] = r"/srv/pg\040data", "ext4", "rw,nobarrier"
    lines[at] = " ".join(fields)
    (root / "proc/mounts").write_text("\n".join(lines) + "\n")
    system = probed(root, kb)
    assert [m.mountpoint for m in system.mounts if m.device == "/dev/vdb"] == ["/srv/pg data"]
    ctx = context_for(kb, system, system.device("vdb"), Context(workload="db"))
    assert (ctx.fs, ctx.mountpoint, ctx.mount_options) == ("ext4", None, "rw,nobarrier")
    (plan,) = [p for p in plan_host(kb, system, Context(workload="db")).plans if p.device == "vdb"]
    assert plan.facts["mount.barriers"] is False
    assert [s.mountpoint for s in plan.steps if s.kind == "mount-option"] == [None]
