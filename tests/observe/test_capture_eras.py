"""Captures of each collecting tool and era (see each capture's PROVENANCE), read as the capture shows them.

Expected values are read from the capture's own files by the test (the lsblk tree, the ktune sysconfig), never
typed beside them.
"""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path

import pytest

from captured import copy_capture
from iosched.cli import main
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.mechanisms.ktune import device_globs, sysconfig_values
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.hostplan import plan_host
from iosched.records.system import System
from probe_helpers import capture, decisive

RHEL6 = capture("sos-rhel6-san-mpath")


def probed(root: Path, kb: Kb) -> System:
    return classified(read_root(root), {d.id for d in kb.section("distributions")},
                      {h.id for h in kb.section("hardware")})  # fmt: skip


def lsblk_tree(text: str) -> list[tuple[int, str, str | None]]:
    """(depth, name, kernel name in parentheses) of each row of util-linux 2.17's tree, parsed here."""
    rows = []
    for line in text.splitlines()[1:]:
        match = re.match(r"^([\s|`-]*)(\S+)(?: \((\S+)\))?\s", line)
        if match:
            rows.append((len(match[1]) // 2, match[2], match[3]))
    return rows


def test_rhel6_lsblk_rows_with_kernel_names_keep_every_multipath_path(kb: Kb) -> None:
    system = probed(RHEL6, kb)
    rows = lsblk_tree((RHEL6 / "sos_commands/block/lsblk").read_text())
    paths: dict[str, set[str]] = {}
    for (depth, name, _), (next_depth, _, kname) in itertools.pairwise(rows):
        if depth == 0 and next_depth == 1 and kname and name.startswith("sd"):
            paths.setdefault(kname, set()).add(name)
    assert len(paths) == 3
    for dm, disks in paths.items():
        device = system.device(dm)
        assert device is not None and set(device.slaves) == disks
        assert (device.dm_uuid or "").startswith("mpath-") and device.scheduler
        for disk in disks:
            assert dm in system.device(disk).holders
    planned = plan_host(kb, system, Context(workload="db"))
    skipped = {s.device: s.reason for s in planned.skipped}
    assert all("a path of the multipath device" in skipped[d] for disks in paths.values() for d in disks)
    assert {p.device for p in planned.plans} >= set(paths)


def test_rhel6_tuned_02_sets_its_elevator_on_the_devices_ktune_names(kb: Kb) -> None:
    system = probed(RHEL6, kb)
    name = (RHEL6 / "etc/tune-profiles/active-profile").read_text().strip()
    values = sysconfig_values((RHEL6 / "etc/tune-profiles" / name / "ktune.sysconfig").read_text())
    (ktune,) = [t for t in system.tuners if t.kind == "ktune"]
    assert not [t for t in system.tuners if t.kind == "tuned"]
    assert ktune.name == name and ktune.active
    assert ktune.settings["scheduler"] == values["ELEVATOR"]
    assert set(ktune.devices) == {"sd*", "cciss*", "dm-*", "vd*"} == set(device_globs(values["ELEVATOR_TUNE_DEVS"]))


def test_rhel6_elevator_on_the_command_line_stops_ktune_setting_one(tmp_path: Path, kb: Kb) -> None:
    root = tmp_path / "root"
    shutil.copytree(RHEL6, root, symlinks=True)
    cmdline = root / "proc/cmdline"
    cmdline.write_text(cmdline.read_text().strip() + " elevator=cfq\n")
    (ktune,) = [t for t in probed(root, kb).tuners if t.kind == "ktune"]
    assert "scheduler" not in ktune.settings


def test_rhel6_never_persists_into_a_tuned_2_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--root", str(RHEL6), "--workload", "desktop", "--persist", "tuned"]) == 2
    err = capsys.readouterr().err
    assert "tuned 0.2" in err and len(err.strip().splitlines()) == 1
    assert main(["advise", "--root", str(RHEL6), "--workload", "desktop", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"persist_method": "udev-rule"' in out and "tuned-profile" not in out


def test_rhel6_missing_lists_the_read_ahead_no_file_of_the_capture_shows(kb: Kb) -> None:
    system = probed(RHEL6, kb)
    assert not list(RHEL6.glob("sys/block/*/queue/read_ahead_kb"))
    assert not list(RHEL6.glob("sos_commands/block/lsblk_-t"))
    for name in ("sda", "sdb", "dm-1"):
        assert "read_ahead_kb" not in system.device(name).queue
        assert any(m.startswith(f"{name}:") and "read-ahead" in m for m in system.missing)


SOS3 = capture("sos-sles12sp5-legacy-mpath")
SOS4_LINKS = capture("sos-rhel9-nvme-links")


def lsblk_columns(text: str) -> dict[str, dict[str, str]]:
    """``lsblk -t``: whole-disk name -> its cells, split on blanks (the test's own reading; SCHED may be blank)."""
    header, *rows = text.splitlines()
    labels = header.split()
    found = {}
    for row in rows:
        if row[:1].isalnum():
            words = row.split()
            found[words[0]] = dict(zip(labels, words if len(words) == len(labels) else [], strict=False))
    return found


def test_sos3_takes_queue_values_from_lsblk_t_where_it_copied_only_the_scheduler(kb: Kb) -> None:
    assert {p.name for p in SOS3.glob("sys/block/*/queue/*")} == {"scheduler"}
    system = probed(SOS3, kb)
    table = lsblk_columns((SOS3 / "sos_commands/block/lsblk_-t").read_text())
    assert table
    for name, cells in table.items():
        queue = system.device(name).queue
        assert queue["read_ahead_kb"] == cells["RA"] and queue["nr_requests"] == cells["RQ-SIZE"]
        assert queue["minimum_io_size"] == cells["MIN-IO"] and queue["rotational"] == cells["ROTA"]
        assert queue["scheduler"] == (SOS3 / f"sys/block/{name}/queue/scheduler").read_text().strip()
    assert not [m for m in system.missing if "read-ahead" in m]


def test_sos4_reads_whole_queue_directories_through_relative_sys_block_links(kb: Kb) -> None:
    system = probed(SOS4_LINKS, kb)
    for link in (SOS4_LINKS / "sys/block").iterdir():
        target = link.readlink()
        assert link.is_symlink() and not target.is_absolute() and str(target).startswith("../devices/")
        queue = link / "queue"
        device = system.device(link.name)
        assert device.queue == {p.name: p.read_text().strip() for p in queue.iterdir()}
    partitions = [line.split()[3] for line in (SOS4_LINKS / "proc/partitions").read_text().splitlines()[2:]]
    disks = {d.name for d in system.devices if d.kind != "partition"}
    assert disks == {p.name for p in (SOS4_LINKS / "sys/block").iterdir()}
    assert {d.name: d.parent for d in system.devices if d.kind == "partition"} == {
        name: next(d for d in disks if name.startswith(d)) for name in partitions if name not in disks
    }


SCC_ZVM = capture("scc-sles15sp5-zvm-dasd")


def test_supportconfig_reads_the_scheduler_grep_whose_glob_the_shell_expanded(kb: Kb) -> None:
    text = (SCC_ZVM / "fs-diskio.txt").read_text()
    label = next(line for line in text.splitlines() if line.startswith("# /usr/bin/grep ''"))
    assert "*" not in label
    raw = dict(re.findall(r"^/sys/block/([^/]+)/queue/scheduler:(.*)$", text, re.MULTILINE))
    system = probed(SCC_ZVM, kb)
    assert raw
    for name, line in raw.items():
        device = system.device(name)
        assert device is not None
        assert device.schedulers == tuple(w.strip("[]") for w in line.split() if line.split() != ["none"])
        assert device.scheduler == (re.search(r"\[(\S+)\]", line)[1] if "[" in line else None)  # type: ignore[index]


def test_supportconfig_on_zvm_takes_the_hypervisor_from_lscpu_not_its_summary(kb: Kb) -> None:
    summary = (SCC_ZVM / "basic-environment.txt").read_text()
    assert re.search(r"^Hypervisor:\s+None$", summary, re.MULTILINE)
    assert re.search(r"^\s+Hypervisor:\s+z/VM", (SCC_ZVM / "hardware.txt").read_text(), re.MULTILINE)
    system = probed(SCC_ZVM, kb)
    assert system.host.virtualization == "zvm" and system.host.arch == "s390x"
    assert {d.kind for d in system.devices if d.name.startswith("dasd") and not d.parent} == {"dasd"}


def test_supportconfig_reads_vm_sysctls_from_memory_txt_and_skips_files_not_found(kb: Kb) -> None:
    text = (SCC_ZVM / "memory.txt").read_text()
    assert "2>/dev/null | grep ^vm" in text
    expected = dict(re.findall(r"^(vm\.dirty_\w+) = (\S+)$", text, re.MULTILINE))
    system = probed(SCC_ZVM, kb)
    assert expected and {k: v for k, v in system.sysctls.items() if k in expected} == expected
    assert "# /etc/fstab - File not found" in (SCC_ZVM / "fs-diskio.txt").read_text()
    from iosched.capture.supportconfig import read_supportconfig

    files = read_supportconfig(SCC_ZVM).files
    assert not [path for path in files if "not found" in path.lower() or path.startswith("etc/fstab")]


def test_a_disks_file_system_is_the_one_mounted_on_what_is_stacked_on_it(kb: Kb) -> None:
    """RHEL 6: ext4 nobarrier on an LV over partitions of three multipath maps reaches every map under it."""
    from iosched.planning.hostplan import context_for

    line = next(x for x in (RHEL6 / "proc/mounts").read_text().splitlines() if "nobarrier" in x)
    source, mountpoint, fstype, options = line.split()[:4]
    system = probed(RHEL6, kb)
    lv = next(d for d in system.devices if d.dm_name and source.endswith(d.dm_name))
    maps = [d for d in system.devices if (d.dm_uuid or "").startswith("mpath-")]
    assert len(maps) == 3
    for device in maps:
        ctx = context_for(kb, system, device, Context(workload="db"))
        expected = (fstype, mountpoint, decisive(kb, fstype, options))
        assert (ctx.fs, ctx.mountpoint, ctx.mount_options) == expected, device.name
    assert set(lv.slaves) == {h for m in maps for h in m.holders}


def test_a_disk_with_boot_on_one_partition_and_lvm_on_another_never_carries_boot(kb: Kb) -> None:
    """vda holds /boot on vda1 and the root LV on vda2: its file system is the LV's ``/``, never /boot's."""
    from iosched.planning.hostplan import context_for

    root = capture("sos-rhel8-kvm-lvm")
    mounts = {x.split()[1]: x.split() for x in (root / "proc/mounts").read_text().splitlines()}
    system = probed(root, kb)
    ctx = context_for(kb, system, system.device("vda"), Context(workload="db"))
    assert mounts["/boot"][0] == "/dev/vda1" and mounts["/"][0].startswith("/dev/mapper/")
    assert (ctx.mountpoint, ctx.fs, ctx.mount_options) == ("/", mounts["/"][2], decisive(kb, *mounts["/"][2:4]))
    vdb = context_for(kb, system, system.device("vdb"), Context(workload="db"))
    (data,) = [m for m in mounts.values() if m[0] == "/dev/vdb"]
    assert (vdb.mountpoint, vdb.fs, vdb.mount_options) == (data[1], data[2], decisive(kb, *data[2:4]))


RHEL8 = capture("sos-rhel8-kvm-lvm")


def with_customer_profile(tmp_path: Path, body: str) -> Path:
    """The RHEL 8 capture with a customer's TuneD profile, including the vendor's, made active; vdb shows its one
    hardware queue."""
    root = copy_capture(RHEL8.name, tmp_path / "root", vdb=1)  # a plan to change on vdb (sos copies no mq/)
    base = (root / "etc/tuned/active_profile").read_text().split()[0]
    (root / "etc/tuned/customer").mkdir(parents=True)
    (root / "etc/tuned/customer/tuned.conf").write_text(f"[main]\ninclude={base}\n\n{body}")
    (root / "etc/tuned/active_profile").write_text("customer\n")
    return root


def disk_tuners(system: System) -> dict[str | None, tuple[str, ...]]:
    return {t.section: t.devices for t in system.tuners if t.kind == "tuned" and t.section}


@pytest.mark.parametrize(
    ("body", "customer"),
    [
        ("[disk_db]\ntype=disk\ndevices=vdb\npriority=-1\nelevator=none\n", {"vdb"}),
        ("[disk_db]\ntype=disk\ndevices_udev_regex=^ID_SERIAL=pgdata01$\npriority=-1\nelevator=none\n", {"vdb"}),
        ("[disk_db]\ntype=disk\ndevices=!vdb, vd*\npriority=-1\nelevator=none\n", {"vda"}),
        ("[disk_db]\ntype=disk\ndevices=vdb\nelevator=none\n", set()),  # the vendor's [disk] took every disk first
    ],
)
def test_a_tuned_disk_section_sets_only_the_disks_tuned_gives_it(
    tmp_path: Path, kb: Kb, body: str, customer: set[str]
) -> None:
    root = with_customer_profile(tmp_path, body)
    system = probed(root, kb)
    serial = (root / "sos_commands/block/udevadm_info_.dev.vdb").read_text()
    assert "ID_SERIAL=pgdata01" in serial
    scoped = disk_tuners(system)
    disks = {d.name for d in system.devices if d.kind != "partition"}
    assert sorted(n for devices in scoped.values() for n in devices) == sorted(disks)  # each disk to one unit
    assert set(scoped.get("disk_db", ())) == customer
    assert set(scoped["disk"]) == disks - customer
    for section in scoped:
        (tuner,) = [t for t in system.tuners if t.section == section]
        assert tuner.settings.get("scheduler") == ("none" if section == "disk_db" else None)
    (everywhere,) = [t for t in system.tuners if t.kind == "tuned" and t.section is None]
    assert "scheduler" not in everywhere.settings and "queue/read_ahead_kb" not in everywhere.settings


def test_the_plan_names_the_customer_section_that_competes_and_verify_says_it_wins(
    tmp_path: Path, kb: Kb, capsys: pytest.CaptureFixture[str]
) -> None:
    root = with_customer_profile(tmp_path, "[disk_db]\ntype=disk\ndevices=vdb\npriority=-1\nelevator=bfq\n")
    assert main(["advise", "--root", str(root), "--workload", "db", "--persist", "udev", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "vdb scheduler: the TuneD profile customer [disk_db] sets bfq after iosched's udev rule" in out
    assert "vda scheduler: the TuneD profile customer" not in out  # [disk_db] does not reach vda


@pytest.mark.parametrize(
    "body",
    [
        "[disk]\ndevices=!vdb\n\n[disk_db]\ntype=disk\ndevices=vdb\nreadahead=8192\n",
        "[disk]\ndevices=!vda\n\n[disk_db]\ntype=disk\ndevices=vda\nreadahead=8192\n",
        "[disk_db]\ntype=disk\ndevices=vdb\npriority=-1\nreadahead=8192\nelevator=bfq\n",
        "[disk_db]\ntype=disk\ndevices=vdb\npriority=-7\nreadahead=8192\n",
    ],
)
def test_the_iosched_profile_takes_the_disk_and_carries_on_only_what_the_unit_that_had_it_set(
    tmp_path: Path, kb: Kb, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    """Whichever of the customer's [disk_db] and the vendor's [disk] has vdb, iosched's unit takes vdb from it
    (before it, by priority) and carries on its read-ahead, never the other's; the other disks stay with the
    included profile. Read back as TuneD assigns units, iosched's profile active."""
    import configparser
    import json

    from iosched.mechanisms import tuned

    root = with_customer_profile(tmp_path, body)
    system = probed(root, kb)
    had = {n: t for t in system.tuners if t.kind == "tuned" and t.section for n in t.devices}
    assert main(["advise", "--root", str(root), "--workload", "db", "--persist", "tuned", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    vdb = next(p for p in answer["plans"] if p["device"] == "vdb")
    (step,) = [s for s in vdb["steps"] if s["persist_method"] == "tuned-profile"]
    assert step["target"] == "scheduler"
    ((path, text),) = [(path, content) for path, content in answer["files"].items() if tuned.is_profile(path)]
    profile = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    profile.read_string(text)
    assert profile[f"{tuned.PREFIX}vdb"]["readahead"] == had["vdb"].settings["queue/read_ahead_kb"]
    (root / path.lstrip("/")).parent.mkdir(parents=True)
    (root / path.lstrip("/")).write_text(text + "\n")
    (root / "etc/tuned/active_profile").write_text(f"{tuned.PREFIX}customer\n")
    after = {n: t for t in probed(root, kb).tuners if t.kind == "tuned" and t.section for n in t.devices}
    assert after["vdb"].section == f"{tuned.PREFIX}vdb"
    assert after["vdb"].settings == {"scheduler": step["value"], **{
        k: v for k, v in had["vdb"].settings.items() if k != "scheduler"}}  # fmt: skip
    assert {n: t.settings for n, t in after.items() if n != "vdb"} == {
        n: t.settings for n, t in had.items() if n != "vdb"
    }


def test_each_disk_names_the_driver_of_the_adapter_it_hangs_off(kb: Kb) -> None:
    """From where sys/block/NAME leads (a saved ls -lanR, or the link itself) to the SCSI host's proc_name."""
    listing = (SOS3 / "sos_commands/block/ls_-lanR_.sys.block").read_text()
    hosts = dict(re.findall(r" (sd[a-z]+) -> \S+/host(\d+)/", listing))
    system = probed(SOS3, kb)
    assert hosts
    for disk, host in hosts.items():
        driver = (SOS3 / f"sys/class/scsi_host/host{host}/proc_name").read_text().strip()
        assert system.device(disk).driver == driver
    nvme = probed(SOS4_LINKS, kb)
    assert {d.name: d.driver for d in nvme.devices if d.kind != "partition"} == {"nvme0n1": "nvme"}
    rhel8 = probed(RHEL8, kb)
    assert rhel8.device("vda").driver == "virtio_blk" and rhel8.device("dm-0").driver is None


def test_rhel6_a_ktune_script_is_listed_as_not_read(kb: Kb) -> None:
    name = (RHEL6 / "etc/tune-profiles/active-profile").read_text().strip()
    assert (RHEL6 / "etc/tune-profiles" / name / "ktune.sh").is_file()
    assert any(name in m and "ktune.sh" in m for m in probed(RHEL6, kb).missing)


def applied(root: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, str], list]:
    """Plan ``root`` (a copy), then make it look as if the plan ran: its files written, its schedulers live.
    Returns the plan's JSON text, the schedulers it changed, and verify's rows."""
    import json

    assert main(["advise", "--root", str(root), *argv, "--format", "json"]) == 0
    text = capsys.readouterr().out
    plan = json.loads(text)
    changed = {s["device"]: s["value"] for p in plan["plans"] for s in p["steps"] if s["kind"] == "scheduler"}
    for path, content in plan["files"].items():
        (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / path.lstrip("/")).write_text(content + "\n")
    for device, value in changed.items():
        scheduler = root / f"sys/block/{device}/queue/scheduler"
        names = scheduler.read_text().replace("[", "").replace("]", "").split()
        scheduler.write_text(" ".join(f"[{w}]" if w == value else w for w in names) + "\n")
    main(["verify", "--root", str(root), *argv, "--format", "json"])
    return text, changed, json.loads(capsys.readouterr().out)["rows"]


def test_rhel6_verify_says_ktune_wins_over_a_udev_rule_at_boot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "root"
    shutil.copytree(RHEL6, root, symlinks=True)
    plan, changed, rows = applied(root, capsys, "--workload", "desktop")
    assert "tuned 0.2's ktune service enterprise-storage sets deadline after iosched's udev rule" in plan
    assert changed
    for device, value in changed.items():
        (row,) = [r for r in rows if r["device"] == device and r["setting"] == "persist scheduler"]
        assert row["status"] == "differs" and row["actual"] == f"{value}, but enterprise-storage sets deadline later"


def test_verify_says_the_customers_tuned_section_wins_on_its_disk_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = with_customer_profile(tmp_path, "[disk_db]\ntype=disk\ndevices=vdb\npriority=-1\nelevator=bfq\n")
    _, changed, rows = applied(root, capsys, "--workload", "db", "--persist", "udev")
    assert "vdb" in changed
    persisted = {r["device"]: r for r in rows if r["setting"] == "persist scheduler"}
    assert persisted["vdb"]["actual"] == f"{changed['vdb']}, but customer [disk_db] sets bfq later"
    assert all("customer" not in r["actual"] for d, r in persisted.items() if d != "vdb")


def test_ansible_holders_named_by_dm_name_carry_their_mounts_to_the_disk(tmp_path: Path, kb: Kb) -> None:
    """Ansible facts list an LV under its partition by dm name (``rhel-root``) without a dm device of its own."""
    import json

    from ansible_helpers import FIXTURES, raw_facts
    from iosched.fleet.ansible_facts import read_facts
    from iosched.planning.hostplan import context_for

    source = FIXTURES / "console/katello-ha.txt"
    (host, *_) = read_facts(source)
    assert host.system is not None
    sda = host.system.device("sda")
    holders = {h for p in host.system.devices if p.parent == "sda" for h in p.holders}
    assert holders and not holders & {d.name for d in host.system.devices}
    assert context_for(kb, host.system, sda, Context(workload="db")).mountpoint == "/"  # not /boot
    facts = raw_facts(f"{source}:{host.source.rsplit(':', 1)[1]}")
    mounted = {
        m["device"].removeprefix("/dev/mapper/")
        for m in raw_facts(f"{source}:{host.source.rsplit(':', 1)[1]}")["ansible_mounts"]
    }
    lv = sorted(holders - mounted)[0]  # the swap LV: nothing mounted on it yet
    facts["ansible_mounts"] = [*facts["ansible_mounts"], {"device": f"/dev/mapper/{lv}", "mount": "/srv/data",
                               "fstype": "xfs", "options": "rw,nobarrier"}]  # fmt: skip
    (tmp_path / "katello").write_text(json.dumps(facts))
    (changed,) = read_facts(tmp_path / "katello")
    assert changed.system is not None
    ctx = context_for(kb, changed.system, changed.system.device("sda"), Context(workload="db"))
    assert (ctx.mountpoint, ctx.mount_options) == ("/srv/data", "rw,nobarrier")


def test_supportconfig_names_the_adapter_driver_from_lsscsi_h(kb: Kb) -> None:
    root = capture("scc-sles15sp5-sap-vmware")
    text = (root / "fs-diskio.txt").read_text()
    drivers = dict(re.findall(r"^\[(\d+)\]\s+(\S+)$", text, re.MULTILINE))
    hosts = dict(re.findall(r" (s[dr][a-z0-9]+) -> \S+/host(\d+)/", text))
    system = probed(root, kb)
    assert hosts and drivers
    for device, host in hosts.items():
        assert system.device(device).driver == drivers[host]


RHEL7 = capture("sos-rhel7-physical-hdd")


def test_rhel7_sos3_reads_read_ahead_tuned_driver_and_the_lv_mount_of_each_disk(kb: Kb) -> None:
    from iosched.mechanisms.ini import parse_ini
    from iosched.planning.hostplan import context_for

    system = probed(RHEL7, kb)
    table = lsblk_columns((RHEL7 / "sos_commands/block/lsblk_-t").read_text())
    profile = (RHEL7 / "etc/tuned/active_profile").read_text().strip()
    conf = parse_ini((RHEL7 / f"usr/lib/tuned/{profile}/tuned.conf").read_text())
    (tuned,) = [t for t in system.tuners if t.kind == "tuned"]
    assert tuned.name == profile and tuned.settings["queue/read_ahead_kb"] == conf["disk"]["readahead"]
    host = (RHEL7 / "sys/class/scsi_host/host0/proc_name").read_text().strip()
    nobarrier = next(x.split() for x in (RHEL7 / "proc/mounts").read_text().splitlines() if "nobarrier" in x)
    for name in ("sda", "sdb"):
        device = system.device(name)
        assert device.queue["read_ahead_kb"] == table[name]["RA"] and device.io_path == "legacy"
        assert device.driver == host and device.hw == "raid"
    sdb = context_for(kb, system, system.device("sdb"), Context(workload="db"))
    assert (sdb.mountpoint, sdb.mount_options) == (nobarrier[1], decisive(kb, *nobarrier[2:4]))
    sda = context_for(kb, system, system.device("sda"), Context(workload="db"))
    root = next(x.split() for x in (RHEL7 / "proc/mounts").read_text().splitlines() if x.split()[1] == "/")
    # / on its LV; /boot never stands for it
    assert (sda.mountpoint, sda.mount_options) == ("/", decisive(kb, *root[2:4]))


def test_supportconfig_lsblk_columns_with_empty_cells_and_the_lv_mount_reach_the_dasd(kb: Kb) -> None:
    from iosched.planning.hostplan import context_for

    text = (SCC_ZVM / "fs-diskio.txt").read_text()
    header = next(line for line in text.splitlines() if line.startswith("NAME "))
    assert "  SCHED " not in header and re.search(r"\s{3,}", text.split(header, 1)[1].splitlines()[1])
    system = probed(SCC_ZVM, kb)
    mounts = {x.split()[1]: x.split() for x in text.splitlines() if x.startswith("/dev/mapper/")}
    (lv_mount,) = mounts.values()
    lv = next(d for d in system.devices if d.dm_name and lv_mount[0].endswith(d.dm_name))
    (partition,) = lv.slaves
    disk = system.device(partition).parent
    ctx = context_for(kb, system, system.device(disk), Context(workload="db"))
    assert (ctx.mountpoint, ctx.fs) == (lv_mount[1], lv_mount[2])
    assert all(d.rotational is False for d in system.devices if d.kind == "dasd")
