"""Real Ansible fact documents (tests/fleet/ansible/README.md) read into System objects."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

from ansible_helpers import FIXTURES, REAL_FILES, kb_ids, raw_facts
from iosched.fleet.ansible_facts import HostFacts, fact_files, iter_facts, read_fact_file, read_facts
from iosched.fleet.ansible_system import BEFORE_2_4, NOT_IN_FACTS, to_system
from iosched.observe.distro import distro_id

_HUMAN = re.compile(r"(\d+\.\d\d) (Bytes|KB|MB|GB|TB|PB)")
_UNITS = {"Bytes": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40, "PB": 1 << 50}


@pytest.fixture(scope="module")
def distros(kb) -> set[str]:
    return kb_ids(kb, "distributions")


def hosts_of(path: Path, distros: set[str]) -> dict[str, HostFacts]:
    return {h.name: h for h in read_facts(path, distros)}


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_device_is_read_as_the_document_gives_it(path: Path, distros: set[str]) -> None:
    for host in read_facts(path, distros):
        if host.error:
            continue
        raw = raw_facts(host.source)
        system = host.system
        assert system is not None and system.source == host.source
        devices = raw.get("ansible_devices") or {}
        assert [d.name for d in system.devices if d.parent is None] == list(devices)
        partitions = {(p, name) for name, facts in devices.items() for p in facts.get("partitions") or {}}
        assert {(d.name, d.parent) for d in system.devices if d.parent} == partitions
        for device in (d for d in system.devices if d.parent is None):
            facts = devices[device.name]
            assert device.scheduler == (facts["scheduler_mode"] or None)
            assert device.rotational is (facts["rotational"] == "1")
            assert device.removable is (facts["removable"] == "1")
            human = _HUMAN.fullmatch(facts.get("size", ""))
            if human and (
                "links" in facts or str(facts["sectorsize"]) == "512"
            ):  # Ansible 2.4 and older used sectorsize
                unit = _UNITS[human[2]]
                assert abs(device.size_bytes - float(human[1]) * unit) <= 0.005 * unit + 1
        assert system.host.kernel == raw.get("ansible_kernel")
        assert system.host.arch == raw.get("ansible_architecture")
        release = raw.get("ansible_distribution"), raw.get("ansible_distribution_version")
        assert system.host.distro == distro_id(*release, distros)
        assert len(system.mounts) == len(raw.get("ansible_mounts", ()))
        assert NOT_IN_FACTS in system.missing


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stacking_is_consistent_both_ways(path: Path, distros: set[str]) -> None:
    for host in read_facts(path, distros):
        if host.error or BEFORE_2_4[1] in host.system.missing:
            continue
        system = host.system
        for device in system.devices:
            assert all(device.name in system.device(holder).slaves for holder in device.holders)
            assert all(device.name in system.device(slave).holders for slave in device.slaves)


def test_lvm_on_a_partition(distros: set[str]) -> None:
    hosts = hosts_of(FIXTURES / "console/keeper.txt", distros)
    assert list(hosts) == ["portal", "crmbeta", "apibeta", "cronjob"]
    for host in hosts.values():
        system = host.system
        sda, sda3, dm0 = system.device("sda"), system.device("sda3"), system.device("dm-0")
        assert (sda.holders, sda3.holders, sda3.parent, dm0.slaves) == ((), ("dm-0",), "sda", ("sda3",))
        assert (dm0.kind, dm0.scheduler, dm0.io_path, dm0.dm_name) == ("dm", None, "bio", "ubuntu--vg-ubuntu--lv")
        assert dm0.dm_uuid.startswith("LVM-")
        assert (sda.scheduler, sda.io_path, system.host.virtualization) == ("mq-deadline", "blk-mq", "vmware")
        assert {d.kind for d in system.devices} == {"dm", "loop", "disk", "partition", "optical"}
        assert system.missing == (NOT_IN_FACTS,)
    assert hosts["crmbeta"].system.host.os_release == {"ID": "ubuntu", "VERSION_ID": "22.04"}
    lines = (FIXTURES / "console/keeper.txt").read_text().splitlines()
    for name, host in hosts.items():
        assert lines[int(host.source.rpartition(":")[2]) - 1].startswith(f"{name} | SUCCESS => {{")


def test_sles_for_sap_on_azure(distros: set[str]) -> None:
    (host,) = read_facts(FIXTURES / "cache/x00scs00l373", distros)
    system = host.system
    assert system.host.os_release == {"ID": "sles_sap", "VERSION_ID": "12.5"}
    assert system.host.distro == ("sles12sp5" if "sles12sp5" in distros else None)
    assert system.host.virtualization == "microsoft"
    assert "scsi_mod.use_blk_mq=1" in system.host.cmdline.split()
    (boot,) = system.tuners
    assert (boot.kind, boot.settings) == ("kernel-cmdline", {"scsi_mod.use_blk_mq": "1"})
    assert system.device("sdc").holders == ("dm-0", "dm-1", "dm-2")
    assert all(system.device(f"dm-{n}").slaves == ("sdc",) for n in range(3))
    assert {(system.device(n).scheduler, system.device(n).io_path) for n in ("sda", "sdb", "sdc")} == {
        ("none", "blk-mq")
    }
    assert (system.device("fd0").scheduler, system.device("fd0").io_path) == ("cfq", "legacy")
    assert system.device("sda").wwn == raw_facts(host.source)["ansible_devices"]["sda"]["wwn"]


def test_multipath_from_a_yaml_cache(distros: set[str]) -> None:
    (host,) = read_facts(FIXTURES / "yaml-cache/SRV24-02.echd.ru", distros)
    system = host.system
    maps = [d for d in system.devices if d.dm_uuid and d.dm_uuid.startswith("mpath-")]
    assert len(maps) == 11
    for mpath in maps:
        assert mpath.scheduler == "mq-deadline"  # request-based dm-multipath has an elevator
        assert len(mpath.slaves) == 4 and all(system.device(s).holders == (mpath.name,) for s in mpath.slaves)
    lvm = [d for d in system.devices if d.dm_uuid and d.dm_uuid.startswith("LVM-")]
    assert len(lvm) == 3 and all(d.scheduler is None and d.slaves == ("sda3",) for d in lvm)
    assert system.host.distro is None and system.host.os_release == {"ID": "gentoo", "VERSION_ID": "2.7"}
    assert system.host.virtualization == "none"


def test_ibm_z_documents(distros: set[str]) -> None:
    dasd = read_facts(FIXTURES / "console/tessia-facts_dasd.txt", distros)[0].system
    assert [(d.name, d.kind, d.scheduler, d.parent) for d in dasd.devices] == [
        ("dasda", "dasd", "deadline", None),
        ("dasda1", "partition", None, "dasda"),
        ("dasdb", "dasd", "deadline", None),
        ("dasdb1", "partition", None, "dasdb"),
    ]
    assert (dasd.host.arch, dasd.host.virtualization) == ("s390x", "none")  # an LPAR
    fcp = read_facts(FIXTURES / "console/tessia-facts_fcp.txt", distros)[0].system
    disks = [d for d in fcp.devices if d.kind == "disk"]
    assert {(d.scheduler, d.io_path) for d in disks} == {(None, None)}  # 4.4 blk-mq prints "none" without brackets
    assert {d.holders for d in disks} == {("mpatha",), ("mpathb",)}  # device-mapper names before 2.4
    assert set(BEFORE_2_4) <= set(fcp.missing) and "sda: I/O path, active scheduler" in fcp.missing


def test_holders_before_ansible_2_4_are_dm_names_of_partitions(distros: set[str]) -> None:
    hosts = hosts_of(FIXTURES / "console/katello-ha.txt", distros)
    assert list(hosts) == ["katello-02.example.com", "katello-01.example.com"]
    for host in hosts.values():
        assert host.system.device("sda2").holders == ("rhel-root", "rhel-swap")
        assert host.system.host.virtualization == "kvm"


def test_cloud_hosts(distros: set[str]) -> None:
    nitro = read_facts(FIXTURES / "cache/13.229.88.18", distros)[0].system
    nvme = nitro.device("nvme0n1")
    assert (nvme.kind, nvme.scheduler, nvme.rotational) == ("nvme", "none", False)
    assert nvme.model == "Amazon Elastic Block Store"
    assert nitro.host.virtualization == "kvm"
    xen = read_facts(FIXTURES / "cache/100.26.35.227", distros)[0].system
    assert (xen.device("xvda").kind, xen.host.virtualization) == ("disk", "xen")
    droplet = read_facts(FIXTURES / "console/hexlet-debian12.txt", distros)[0].system
    assert droplet.device("vda").kind == "virtio"
    assert droplet.host.distro == ("debian12" if "debian12" in distros else None)


def test_ansible_1_tree_directory(distros: set[str]) -> None:
    hosts = hosts_of(FIXTURES / "tree", distros)
    assert ".invalid_file" not in hosts
    assert hosts["dead.dev.local"].error == "unreachable: Failed to connect to the host via ssh:"
    assert hosts["openbsd.dev.local"].error == "not a Linux host (OpenBSD)"
    assert hosts["win.dev.local"].error == "not a Linux host (Windows)"
    centos = hosts["centos.dev.local"]
    assert centos.system.host.distro == ("rhel6" if "rhel6" in distros else None)  # CentOS rebuilds RHEL
    assert centos.system.host.virtualization == "oracle"
    assert hosts["eek.electricmonk.nl"].system.host.virtualization == "none"  # a KVM host
    assert hosts["jib.electricmonk.nl"].system.device("sdb").rotational is False
    assert BEFORE_2_4[0] in centos.system.missing  # Ansible 1.x listed no dm, md or loop device


def test_fact_cache_directory(distros: set[str]) -> None:
    hosts = hosts_of(FIXTURES / "cache", distros)
    assert list(hosts) == sorted(p.name for p in (FIXTURES / "cache").iterdir())
    assert hosts["192.168.84.129"].error == "no Ansible facts in this document"
    partial = hosts["yegojidmal11c.mylabserver.com"].system
    assert partial.devices == () and partial.host.hostname == "master"
    assert {"kernel release (ansible_kernel)", "block devices (ansible_devices)"} <= set(partial.missing)
    centos = hosts["192.168.84.133"].system.host
    assert (centos.distro, centos.os_release) == ("rhel7", {"ID": "centos", "VERSION_ID": "7.7"})


def test_a_cache_file_without_facts_in_the_yaml_cache(distros: set[str]) -> None:
    hosts = hosts_of(FIXTURES / "yaml-cache", distros)
    assert hosts["SRV15-06.echd.ru"].error == "no Ansible facts in this document"
    assert hosts["SRV24-02.echd.ru"].error is None


def test_one_file_at_a_time_reads_the_same_hosts(distros: set[str]) -> None:
    directory = FIXTURES / "cache"
    whole = read_facts(directory, distros)
    assert list(iter_facts(directory, distros)) == whole
    assert [h for path in fact_files(directory) for h in read_fact_file(path, distros)] == whole
    assert pickle.loads(pickle.dumps(whole)) == whole  # hosts can travel between worker processes


@pytest.mark.parametrize("path", REAL_FILES[:3], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_hosts_alike_share_a_system_shape_but_keep_their_names(path: Path, distros: set[str]) -> None:
    facts = raw_facts(str(path))
    first = to_system(facts, distros, "a")
    other = to_system({**facts, "ansible_hostname": "other"}, distros, "b")
    assert other.devices is first.devices and other.mounts is first.mounts
    assert (other.host.hostname, other.source) == ("other", "b")
    assert other.host.replace(hostname=first.host.hostname) == first.host
    assert to_system(facts, distros, "a") == first


@pytest.mark.parametrize("from_json", [False, True], ids=["any-types", "json-types"])
def test_a_fact_unlike_in_type_is_a_shape_of_its_own(distros: set[str], from_json: bool) -> None:
    facts = raw_facts(str(REAL_FILES[0]))
    disk = next(iter(facts["ansible_devices"]))

    def with_model(value: object) -> tuple[str, ...]:
        devices = {**facts["ansible_devices"], disk: {**facts["ansible_devices"][disk], "model": value}}
        return to_system({**facts, "ansible_devices": devices}, distros, from_json=from_json).missing

    unreadable = f"{disk}: model"
    assert not any(m.startswith(unreadable) for m in with_model(None))
    assert any(m.startswith(unreadable) for m in with_model(float("nan")))
    assert any(m.startswith(unreadable) for m in with_model(1)) and with_model(1) == with_model(True)


def test_a_yaml_date_and_its_text_in_json_are_shapes_of_their_own(tmp_path: Path, distros: set[str]) -> None:
    """A YAML document's date or set is not the JSON text or list that MessagePack would write for it."""
    (tmp_path / "json").mkdir()
    (tmp_path / "yaml").mkdir()
    model = "2024-01-02"
    (tmp_path / "json/web1").write_text(
        json.dumps({"ansible_devices": {"sda": {"model": model}}, "ansible_mounts": ["a"]})
    )
    (tmp_path / "yaml/web1").write_text(
        f"ansible_devices: {{sda: {{model: {model}}}}}\nansible_mounts: !!set {{a: null}}\n"
    )
    (from_json,) = read_facts(tmp_path / "json", distros)
    (from_yaml,) = read_facts(tmp_path / "yaml", distros)
    assert from_json.system and from_yaml.system
    assert from_json.system.devices[0].model == model and from_yaml.system.devices[0].model is None
    assert from_json.system.missing != from_yaml.system.missing


IDENTIFIERS = ["S1", None, "", "a b;c", 7, "WD-WCC4N0:1.2_x"]
"""Serials and WWNs of disks: read, absent, empty, refused (not an identifier), not text."""


def test_hosts_alike_but_for_their_identifiers_read_as_each_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, distros: set[str]
) -> None:
    """A System made once for hosts whose devices differ only in serials and WWNs (as facts, and as a by-id link)
    is, with each host's own, the System its facts give read alone."""
    from iosched.fleet import ansible_system

    monkeypatch.setattr(ansible_system, "_SHAPES", {})
    monkeypatch.setattr(ansible_system, "_ALIKE", {})
    documents = 0
    for path in sorted((FIXTURES / "cache").iterdir()):
        facts = json.loads(path.read_bytes())
        documents += 1
        for copy, serial in enumerate(IDENTIFIERS):  # the first device's differ in kind; the others' in value
            for k, device in enumerate((facts.get("ansible_devices") or {}).values()):
                for j, each in enumerate((device, *(device.get("partitions") or {}).values())):
                    first = k == j == 0
                    each["serial"] = serial if first else f"S{k}-{j}-{copy}"
                    each["wwn"] = IDENTIFIERS[-1 - copy] if first else f"0x{k}{j}{copy}"
                    if isinstance(each.get("links"), dict):  # a by-id link names the serial
                        each["links"]["ids"] = [*(each["links"].get("ids") or [])[:4], f"ata-X_{each['serial']}"]
            (tmp_path / f"{path.name}-{copy}").write_text(json.dumps(facts))
    read = [h for h in read_facts(tmp_path, distros) if h.system]
    alone = [to_system(json.loads(Path(h.source).read_bytes()), distros, h.source) for h in read]
    assert [h.system for h in read] == alone and len(alone) >= 5 * len(IDENTIFIERS)
    assert len({(d.serial, d.wwn) for s in alone for d in s.devices}) > len(IDENTIFIERS)
    assert 0 < len(ansible_system._ALIKE) <= 3 * documents  # identifiers read, absent or refused: 3 Systems
