"""Each capture read right: schedulers, rotational flags, kernel, distribution, stacking, tuners."""

from __future__ import annotations

import re

import pytest

from iosched.observe.classify import classified
from iosched.observe.reader import layout, read_root
from iosched.records.system import System
from probe_helpers import NAMES, bracketed, capture, raw_schedulers

# The KB distribution each capture's release files name (see captures/README.md).
DISTRIBUTIONS = {
    "debian12-vm-live": "debian12",
    "sos-rhel8-kvm-lvm": "rhel8",
    "sos-sles12sp5-legacy-mpath": "sles12sp5",
    "sos-ubuntu2404-nvme-md": "ubuntu2404",
    "scc-sles15sp5-sap-vmware": "sles15sp5",
    "sos-rhel6-san-mpath": "rhel6",
    "sos-rhel9-nvme-links": "rhel9",
    "scc-sles15sp5-zvm-dasd": "sles15sp5",
    "sos-rhel7-physical-hdd": "rhel7",
    "scc-sles15sp4-btrfs-lvm": "sles15sp4",
}
LAYOUTS = {
    "debian12-vm-live": "tree",
    "scc-sles15sp5-sap-vmware": "supportconfig",
    "scc-sles15sp5-zvm-dasd": "supportconfig",
    "scc-sles15sp4-btrfs-lvm": "supportconfig",
}


def probed(name: str, distro_ids: set[str], hardware_ids: set[str]) -> System:
    return classified(read_root(capture(name)), distro_ids, hardware_ids)


def test_every_capture_is_listed() -> None:
    assert set(NAMES) == set(DISTRIBUTIONS)


@pytest.mark.parametrize("name", NAMES)
def test_layout_distribution_and_kernel(name: str, distro_ids: set[str], hardware_ids: set[str]) -> None:
    root = capture(name)
    system = probed(name, distro_ids, hardware_ids)
    assert layout(root) == LAYOUTS.get(name, "sosreport")
    assert system.host.distro == DISTRIBUTIONS[name] and DISTRIBUTIONS[name] in distro_ids
    uname = root / "sos_commands/kernel/uname_-a"
    if (root / "proc/sys/kernel/osrelease").is_file():
        assert system.host.kernel == (root / "proc/sys/kernel/osrelease").read_text().strip()
    elif uname.is_file():
        assert system.host.kernel == uname.read_text().split()[2]
    else:
        assert system.host.kernel in (root / "basic-environment.txt").read_text()
    assert system.host.arch == ("s390x" if "zvm" in name else "x86_64")
    assert system.source == str(root)


@pytest.mark.parametrize("name", NAMES)
def test_schedulers_match_the_raw_files(name: str) -> None:
    system = read_root(capture(name))
    raw = raw_schedulers(capture(name))
    if name.startswith("scc-"):  # supportconfig: the grep lines of fs-diskio.txt
        text = (capture(name) / "fs-diskio.txt").read_text()
        raw = dict(re.findall(r"^/sys/block/([^/]+)/queue/scheduler:(.*)$", text, re.MULTILINE))
    assert raw
    for device_name, line in raw.items():
        device = system.device(device_name)
        assert device is not None, device_name
        assert device.scheduler == bracketed(line)
        if bracketed(line):
            assert device.schedulers == tuple(w.strip("[]") for w in line.split())
        else:
            assert device.schedulers == () and device.io_path == "bio"


@pytest.mark.parametrize("name", NAMES)
def test_rotational_matches_the_raw_files(name: str) -> None:
    system = read_root(capture(name))
    files = sorted(capture(name).glob("sys/block/*/queue/rotational"))
    for path in files:
        assert system.device(path.parts[-3]).rotational is (path.read_text().strip() == "1")


def test_live_capture_loop_device_on_bfq(hardware_ids: set[str], distro_ids: set[str]) -> None:
    root = capture("debian12-vm-live")
    system = probed("debian12-vm-live", distro_ids, hardware_ids)
    on_bfq = [n for n, line in raw_schedulers(root).items() if bracketed(line) == "bfq"]
    assert len(on_bfq) == 1 and on_bfq[0].startswith("loop")
    loop = system.device(on_bfq[0])
    tunables = root / "sys/block" / loop.name / "queue/iosched"
    assert loop.kind == "loop" and loop.io_path == "blk-mq" and loop.hw is None
    assert loop.iosched == {p.name: p.read_text().strip() for p in tunables.iterdir()}
    assert {"slice_idle", "low_latency"} <= set(loop.iosched)
    assert loop.nr_hw_queues == len(list((root / "sys/block" / loop.name / "mq").iterdir()))
    vda = system.device("vda")
    assert vda.kind == "virtio" and vda.hw == "virtual" and vda.serial
    assert system.device("zram0").io_path == "bio" and system.device("zram0").scheduler is None
    assert system.host.virtualization == "kvm"
    assert system.sysctls["vm.dirty_ratio"] == (root / "proc/sys/vm/dirty_ratio").read_text().strip()
    assert any(m.mountpoint == "/" and m.device == "/dev/vda" for m in system.mounts)
    assert system.missing == ("kernel command line (proc/cmdline)",)


def test_rhel8_lvm_on_virtio_with_tuned(distro_ids: set[str], hardware_ids: set[str]) -> None:
    root = capture("sos-rhel8-kvm-lvm")
    system = probed("sos-rhel8-kvm-lvm", distro_ids, hardware_ids)
    root_lv, vda2, vda = system.device("dm-0"), system.device("vda2"), system.device("vda")
    assert root_lv.kind == "dm" and root_lv.dm_name == "rhel-root" and root_lv.dm_uuid.startswith("LVM-")
    assert root_lv.slaves == ("vda2",) and root_lv.io_path == "bio" and root_lv.scheduler is None
    assert vda2.kind == "partition" and vda2.parent == "vda" and vda2.holders == ("dm-0", "dm-1")
    assert vda.io_path == "blk-mq" and vda.hw == "virtual" and root_lv.hw == "virtual" and vda2.hw == "virtual"
    assert system.device("vdb").serial == "pgdata01"  # ID_SERIAL from udevadm info
    assert system.device("sr0").kind == "optical" and system.device("sr0").hw is None
    assert system.host.virtualization == "kvm"  # QEMU firmware with a KVM clock
    assert system.host.hostname == (root / "sos_commands/host/hostname").read_text().strip()
    tuned = next(t for t in system.tuners if t.kind == "tuned")
    guest = (root / "usr/lib/tuned/virtual-guest/tuned.conf").read_text()
    assert tuned.name == (root / "etc/tuned/active_profile").read_text().strip() and tuned.active
    assert tuned.settings["vm.dirty_ratio"] == re.search(r"^vm.dirty_ratio\s*=\s*(\d+)", guest, re.M).group(1)
    assert tuned.settings["queue/read_ahead_kb"] == ">4096"  # from the included throughput-performance
    assert "kernel.numa_balancing" not in tuned.settings  # only in a section conditioned on aarch64
    udev = [t for t in system.tuners if t.kind == "udev"]
    assert [t.name for t in udev] == ["/etc/udev/rules.d/60-pgsql-scheduler.rules:2"]
    assert udev[0].settings == {"scheduler": "none", "queue/read_ahead_kb": "128"}
    assert [t.name for t in system.tuners if t.kind == "sysctl.d"][-1] != "/etc/sysctl.conf"
    assert system.missing == ()


def test_sles12_legacy_multipath(distro_ids: set[str], hardware_ids: set[str]) -> None:
    system = probed("sos-sles12sp5-legacy-mpath", distro_ids, hardware_ids)
    mpath, sdb, sdc, sda = (system.device(n) for n in ("dm-0", "sdb", "sdc", "sda"))
    assert mpath.dm_uuid == f"mpath-{mpath.dm_name}" and mpath.slaves == ("sdb", "sdc")
    assert sdb.holders == sdc.holders == ("dm-0",)
    assert {mpath.hw, sdb.hw, sdc.hw} == {"san"}
    assert {d.io_path for d in (mpath, sda, sdb, sdc)} == {"legacy"}
    assert sda.model == "LOGICAL VOLUME" and sda.vendor == "HPE" and sda.hw == "raid"
    assert sdb.rotational is False and sda.rotational is True  # from lsblk -t: sos 3.9 copies no rotational
    assert system.device("dm-1").io_path == "bio" and system.device("dm-1").slaves == ("sda2",)
    assert system.device("sda2").parent == "sda" and system.device("sda2").holders == ("dm-1", "dm-2")
    assert system.device("system-root") is None  # the LV is known by its kernel name only
    assert system.host.virtualization == "none"
    rules = {t.name: t.settings for t in system.tuners if t.kind == "udev"}
    assert rules == {
        "/lib/udev/rules.d/60-ssd-scheduler.rules:9": {"scheduler": "deadline"},
        "/etc/udev/rules.d/99-mpath-scheduler.rules:2": {"scheduler": "deadline"},
    }
    assert system.sysctls["vm.dirty_bytes"] == "629145600" == system.tuners[0].settings["vm.dirty_bytes"]


def test_ubuntu_nvme_md(distro_ids: set[str], hardware_ids: set[str]) -> None:
    system = probed("sos-ubuntu2404-nvme-md", distro_ids, hardware_ids)
    md0 = system.device("md0")
    assert md0.kind == "md" and md0.slaves == ("nvme0n1p2", "nvme1n1p2") and md0.io_path == "bio"
    assert md0.hw == "nvme"  # the common preset of its members
    for name in ("nvme0n1", "nvme1n1", "nvme2n1"):
        nvme = system.device(name)
        assert nvme.kind == "nvme" and nvme.hw == "nvme" and nvme.io_path == "blk-mq"
        assert nvme.model.startswith("SAMSUNG") and nvme.wwn.startswith("eui.")
    assert system.device("nvme0n1").serial == "SAMSUNG_MZQL21T9HCJR-00A07_S64GNE0R700123"
    assert system.device("nvme0n1p2").holders == ("md0",)
    assert system.host.virtualization == "none"
    assert system.sysctls["vm.dirty_bytes"] == "1073741824"  # sysctl -a: sos copies no /proc/sys
    names = [t.name for t in system.tuners if t.kind == "sysctl.d"]
    assert names == sorted(names, key=lambda n: n.rsplit("/", 1)[1])  # applied in file-name order
    assert system.missing == ()


def test_supportconfig_sles15_sap_on_vmware(distro_ids: set[str], hardware_ids: set[str]) -> None:
    root = capture("scc-sles15sp5-sap-vmware")
    system = probed("scc-sles15sp5-sap-vmware", distro_ids, hardware_ids)
    assert system.host.virtualization == "vmware" and system.host.hostname == "s4hana01"
    sda = system.device("sda")
    assert sda.model == "Virtual disk" and sda.vendor == "VMware" and sda.hw == "virtual"
    assert sda.rotational is True and sda.io_path == "blk-mq"  # ROTA of the lsblk table
    assert system.device("sda2").parent == "sda" and system.device("sr0").removable is True
    assert any(m.mountpoint == "/hana/data" and "largeio" in m.options for m in system.mounts)
    assert system.host.cmdline.startswith("BOOT_IMAGE=/boot/vmlinuz-5.14.21")
    saptune = [t for t in system.tuners if t.kind == "saptune"]
    order = re.search(r'^NOTE_APPLY_ORDER="(.*)"', (root / "plugin-saptune.txt").read_text(), re.M).group(1)
    assert [t.name for t in saptune] == [f"note {n}" for n in order.split()]
    assert all(t.active and t.settings == {} for t in saptune)
    assert len([m for m in system.missing if m.startswith("saptune note")]) == len(order.split())
    bfq = [t for t in system.tuners if t.kind == "udev" and t.settings == {"scheduler": "bfq"}]
    assert [t.name.split(":")[0] for t in bfq] == ["/usr/lib/udev/rules.d/60-io-scheduler.rules"]
