"""os-release to KB distribution ids, and devices to KB hardware presets (the KB says which ids exist)."""

from __future__ import annotations

import pytest

from iosched.observe.classify import distro_id, hardware_preset, listed
from iosched.records.system import Device, Host

RELEASES = [
    ({"ID": "sles", "VERSION_ID": "12.5"}, "sles12sp5"),
    ({"ID": "sles", "VERSION_ID": "11.4"}, "sles11sp4"),
    ({"ID": "sles_sap", "VERSION_ID": "15.5"}, "sles15sp5"),
    ({"ID": "opensuse-leap", "VERSION_ID": "15.5"}, "sles15sp5"),
    ({"ID": "rhel", "VERSION_ID": "9.4"}, "rhel9"),
    ({"ID": "rocky", "VERSION_ID": "8.9", "ID_LIKE": "rhel centos fedora"}, "rhel8"),
    ({"ID": "centos", "VERSION_ID": "7"}, "rhel7"),
    ({"ID": "ubuntu", "VERSION_ID": "24.04"}, "ubuntu2404"),
    ({"ID": "ubuntu", "VERSION_ID": "16.04"}, "ubuntu1604"),
    ({"ID": "debian", "VERSION_ID": "12"}, "debian12"),
    ({"ID": "fedora", "VERSION_ID": "40"}, "fedora40"),
]


@pytest.mark.parametrize(("release", "expected"), RELEASES)
def test_known_releases(release: dict[str, str], expected: str, distro_ids: set[str]) -> None:
    assert expected in distro_ids
    assert distro_id(release, distro_ids) == expected


@pytest.mark.parametrize(
    "release",
    [
        {"ID": "opensuse-leap", "VERSION_ID": "15.2"},  # before Leap was built from SLE binaries
        {"ID": "arch"},
        {"ID": "debian"},  # testing/sid: no VERSION_ID
        {},
        {"ID": "ubuntu", "VERSION_ID": "garbage"},
    ],
)
def test_unknown_releases(release: dict[str, str], distro_ids: set[str]) -> None:
    assert distro_id(release, distro_ids) is None


def test_only_ids_the_kb_has() -> None:
    """The release's own id, else the nearest release of its family the KB has, never another family's."""
    rhel94 = {"ID": "rhel", "VERSION_ID": "9.4"}
    assert distro_id(rhel94, {"rhel9"}) == "rhel9" and listed(rhel94, "rhel9")
    assert distro_id(rhel94, {"rhel8", "rhel10"}) == "rhel8" and not listed(rhel94, "rhel8")
    assert distro_id(rhel94, {"rhel10"}) == "rhel10"
    assert distro_id(rhel94, {"ubuntu2404", "sles15sp5"}) is None


BARE, VM = Host(virtualization="none"), Host(virtualization="kvm")
HDD = Device(name="sda", kind="disk", rotational=True, vendor="ATA", model="ST4000NM0035-1V4")
SSD = Device(name="sdb", kind="disk", rotational=False, vendor="ATA", model="SAMSUNG MZ7LH960")
STORVSC = Device(name="sdf", kind="disk", rotational=True, vendor="Msft", model="Virtual Disk", driver="storvsc")
PRESETS = [
    (HDD, BARE, "hdd"),
    (SSD, BARE, "ssd"),
    (SSD, VM, "virtual"),
    (Device(name="sdc", kind="disk", rotational=True, vendor="VMware", model="Virtual disk"), Host(), "virtual"),
    (Device(name="xvda", kind="disk", rotational=True), Host(), "virtual"),
    (Device(name="vda", kind="virtio", rotational=True), Host(), "virtual"),
    (Device(name="nvme0n1", kind="nvme", rotational=False, model="SAMSUNG MZQL21T9HCJR-00A07"), BARE, "nvme"),
    (Device(name="nvme1n1", kind="nvme", model="Amazon Elastic Block Store"), Host(virtualization="amazon"), "ebs"),
    (Device(name="sda", kind="disk", rotational=True, vendor="DELL", model="PERC H730P Mini"), BARE, "raid"),
    (Device(name="sda", kind="disk", rotational=True, vendor="HPE", model="LOGICAL VOLUME"), BARE, "raid"),
    (Device(name="sdd", kind="disk", rotational=True, zoned="host-managed"), BARE, "smr"),
    (Device(name="dasda", kind="dasd", rotational=False), Host(virtualization="zvm"), "dasd"),
    (Device(name="mmcblk0", kind="mmc", rotational=False), BARE, "emmc"),
    (STORVSC, Host(virtualization="microsoft"), "virtual"),
    (Device(name="rbd0", kind="other", rotational=False, size_bytes=10 * 2**30), BARE, None),  # no preset: --hw
    (Device(name="nbd0", kind="other", rotational=False, size_bytes=2**30), BARE, None),
    (Device(name="bcache0", kind="other", rotational=True), BARE, None),  # bio-based: its members are planned
    (Device(name="ublkb0", kind="other", rotational=False), BARE, None),
    (Device(name="loop0", kind="loop", rotational=True), BARE, None),
    (Device(name="zram0", kind="zram"), BARE, None),
    (Device(name="sr0", kind="optical", rotational=True), BARE, None),
    (Device(name="sde", kind="disk"), BARE, None),  # rotational unknown
]


@pytest.mark.parametrize(("device", "host", "expected"), PRESETS)
def test_single_devices(device: Device, host: Host, expected: str | None, hardware_ids: set[str]) -> None:
    assert expected is None or expected in hardware_ids
    assert hardware_preset(device, host, hardware_ids) == expected


def test_stacked_devices(hardware_ids: set[str]) -> None:
    mpath = Device(name="dm-0", kind="dm", dm_uuid="mpath-3600a0980", slaves=("sdb", "sdc"))
    path = SSD.replace(holders=("dm-0",))
    lvm = Device(name="dm-1", kind="dm", dm_uuid="LVM-abc", slaves=("sda1",))
    part = Device(name="sda1", kind="partition", parent="sda", holders=("dm-1",))
    mixed = Device(name="md0", kind="md", slaves=("sda", "sdb"))
    kpartx = Device(name="dm-2", kind="dm", dm_uuid="part1-mpath-3600a0980", slaves=("dm-0",))
    devices = {d.name: d for d in (mpath, path, lvm, part, mixed, kpartx, HDD)}
    assert hardware_preset(mpath, BARE, hardware_ids, devices) == "san"
    assert hardware_preset(path, BARE, hardware_ids, devices) == "san"  # a path of a multipath map
    assert hardware_preset(kpartx, BARE, hardware_ids, devices) == "san"
    assert hardware_preset(part, BARE, hardware_ids, devices) == "hdd"  # its disk's preset
    assert hardware_preset(lvm, BARE, hardware_ids, devices) == "hdd"  # LVM on a partition of that disk
    assert hardware_preset(mixed, BARE, hardware_ids, devices) is None  # members disagree
    assert hardware_preset(lvm, BARE, hardware_ids) is None  # without the others it cannot tell


def test_stacking_loops_end(hardware_ids: set[str]) -> None:
    a = Device(name="dm-0", kind="dm", slaves=("dm-1",))
    b = Device(name="dm-1", kind="dm", slaves=("dm-0",))
    assert hardware_preset(a, BARE, hardware_ids, {"dm-0": a, "dm-1": b}) is None


def test_bcache_on_a_disk_is_not_taken_for_that_disk(hardware_ids: set[str]) -> None:
    """bcache0 has no elevator and no preset of its own; what it is built on is planned, not bcache0 as that disk."""
    bcache = Device(name="bcache0", kind="other", slaves=("sdb",))
    assert hardware_preset(bcache, BARE, hardware_ids, {"bcache0": bcache, "sdb": SSD}) is None


def test_only_presets_the_kb_has(hardware_ids: set[str]) -> None:
    assert hardware_preset(HDD, BARE, hardware_ids - {"hdd"}) is None
