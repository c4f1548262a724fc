"""Hosts whose facts cannot be read are reported one by one; nothing in a fact document stops the run."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_helpers import FIXTURES, REAL_FILES
from iosched.fleet.ansible_docs import MAX_CONSOLE_BYTES
from iosched.fleet.ansible_facts import FactsError, HostFacts, read_fact_file, read_facts
from iosched.fleet.ansible_system import NOT_IN_FACTS, to_system

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def assert_one_safe_line(host: HostFacts) -> None:
    assert (host.system is None) != (host.error is None)
    for text in (host.name, host.error or ""):
        assert not _CONTROL.search(text) and len(text) <= 300


def test_console_output_with_failed_and_unreachable_hosts() -> None:
    hosts = read_facts(FIXTURES / "constructed/console-errors.txt", {"ubuntu2404", "rhel9"})
    assert [(h.name, h.error and h.error.split(":")[0]) for h in hosts] == [
        ("web1", None),
        ("db1", "failed"),
        ("db2", "unreachable"),
        ("db3", "unreachable"),
        ("old1", "failed"),
        ("skip1", "skipped"),
        ("web1", "appears again (first at line 2)"),
        ("bad1", "unreadable JSON (Expecting property name enclosed in double quotes"),
        ("web2", None),
        ("../etc/passwd", "not an inventory host name"),
    ]
    assert hosts[1].error == "failed: Missing sudo password"
    assert hosts[3].error == "unreachable: Failed to connect to the host via ssh: Connection timed out"
    assert [h.source.rpartition(":")[2] for h in hosts] == ["2", "27", "31", "36", "37", "38", "39", "40", "41", "42"]
    web1, web2 = hosts[0].system, hosts[8].system
    assert (web1.host.distro, web1.device("vda").scheduler) == ("ubuntu2404", "mq-deadline")
    assert (web2.host.distro, web2.device("sda").scheduler, web2.device("sda").rotational) == ("rhel9", "none", False)
    assert {"mounts (ansible_mounts)", "kernel command line (ansible_proc_cmdline, ansible_cmdline)"} <= set(
        web2.missing
    )


def test_cciss_names_and_stacking() -> None:
    (host,) = read_facts(FIXTURES / "constructed/cciss/dl380.example.com", {"rhel6"})
    system = host.system
    assert [d.name for d in system.devices] == [
        "cciss!c0d0", "cciss!c0d0p1", "cciss!c0d0p2", "cciss!c0d1", "dm-0", "dm-1", "dm-2",
    ]  # fmt: skip
    c0d0, c0d0p2 = system.device("cciss!c0d0"), system.device("cciss!c0d0p2")
    assert (c0d0.kind, c0d0.scheduler, c0d0.io_path, c0d0.holders) == ("disk", "deadline", "legacy", ())
    assert (c0d0p2.kind, c0d0p2.parent, c0d0p2.holders) == ("partition", "cciss!c0d0", ("dm-0", "dm-1"))
    assert (system.device("dm-0").slaves, system.device("dm-0").dm_name) == (("cciss!c0d0p2",), "vg00-root")
    assert system.device("dm-2").slaves == ("cciss!c0d1",)
    assert c0d0.wwn is None  # Ansible keys by-id links by /dev/cciss/c0d0's basename, so a cciss disk has none
    assert system.host.distro == "rhel6" and system.host.virtualization == "none"
    assert system.host.cmdline == "elevator=deadline quiet ro root=/dev/mapper/vg00-root"
    assert system.tuners[0].settings == {"scheduler": "deadline"}


def test_odd_values_are_dropped_and_listed_as_missing() -> None:
    (host,) = read_facts(FIXTURES / "constructed/edge/odd.example.com", {"rhel8"})
    system = host.system
    assert [d.name for d in system.devices] == ["nvme0n1", "sda", "sdb"]
    assert system.host.os_release == {"ID": "ol", "VERSION_ID": "8.9"}
    assert system.host.distro == "rhel8"  # as the probe maps Oracle Linux (iosched.observe.classify)
    assert (system.host.kernel, system.host.hostname, system.host.virtualization) == (None, None, None)
    sda = system.device("sda")
    assert (sda.model, sda.serial, sda.size_bytes, sda.vendor) == (None, None, None, "ATA")
    nvme = system.device("nvme0n1")
    assert nvme.size_bytes == 468843606 * 4096  # Ansible 2.18+: an int count of sectorsize sectors
    assert [m.mountpoint for m in system.mounts] == ["/srv"]
    assert system.missing == (
        "kernel release (ansible_kernel)",
        "virtualization (ansible_virtualization_type, ansible_virtualization_role)",
        "kernel command line (ansible_proc_cmdline, ansible_cmdline)",
        "block device 4 (ansible_devices: not a device name with facts)",
        "block device 5 (ansible_devices: not a device name with facts)",
        "block device 6 (ansible_devices: not a device name with facts)",
        "sda: I/O path, active scheduler, rotational, model, serial, size",
        "sdb: I/O path, active scheduler, rotational",
        "mount 2 (ansible_mounts: no device, mount point or type)",
        "mount 3 (ansible_mounts: no device, mount point or type)",
        NOT_IN_FACTS,
    )  # a null vendor (nvme0n1) is no value, not a missing one


def test_a_dump_of_the_ansible_facts_variable() -> None:
    (host,) = read_facts(FIXTURES / "constructed/edge/facts-variable.example.com", {"debian12"})
    system = host.system
    assert (system.host.distro, system.host.arch, system.host.virtualization) == ("debian12", "aarch64", "none")
    assert [(d.kind, d.scheduler, d.io_path) for d in system.devices] == [
        ("mmc", "bfq", "blk-mq"),
        ("zram", None, "bio"),
    ]


def test_missing_input_is_an_error_for_the_whole_run(tmp_path: Path) -> None:
    with pytest.raises(FactsError, match="no such file or directory"):
        read_facts(tmp_path / "absent")


def test_files_that_are_not_fact_documents(tmp_path: Path) -> None:
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "binary").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "list").write_text("[1, 2, 3]")
    (tmp_path / "yaml-scalar").write_text("just words\n")
    (tmp_path / "deep").write_text("[" * 100_000)
    (tmp_path / "subdir").mkdir()
    (tmp_path / "link").symlink_to(FIXTURES / "cache/13.229.88.18")
    os.mkfifo(tmp_path / "fifo")
    with (tmp_path / "huge").open("wb") as fh:
        fh.truncate(MAX_CONSOLE_BYTES + 1)
    (tmp_path / "bad name").write_text((FIXTURES / "cache/13.229.88.18").read_text())
    hosts = {h.name: h for h in read_facts(tmp_path)}
    for host in hosts.values():
        assert_one_safe_line(host)
    assert hosts["subdir"].error == hosts["fifo"].error == "not a regular file"
    assert hosts["link"].error == "a symbolic link, not a regular file"
    assert hosts["huge"].error == "larger than 64 MiB"
    assert hosts["bad name"].error == "the file name is not an inventory host name"
    assert hosts["list"].error == "not a JSON object of facts"
    assert all(hosts[n].error.startswith("not a JSON or YAML") for n in ("empty", "binary", "deep"))
    assert hosts["yaml-scalar"].error == "not a JSON object of facts"


def test_a_symbolic_link_named_on_the_command_line_is_followed(tmp_path: Path) -> None:
    (tmp_path / "web1").symlink_to(FIXTURES / "cache/13.229.88.18")
    assert read_facts(tmp_path / "web1")[0].error is None
    assert read_fact_file(tmp_path / "web1")[0].error == "a symbolic link, not a regular file"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=30,
)
_device = st.fixed_dictionaries(
    {},
    optional={
        key: _json | st.sampled_from(["", "0", "1", "none", "mq-deadline", "sda1", "dm-0"])
        for key in ("scheduler_mode", "rotational", "removable", "model", "vendor", "serial", "wwn", "sectors",
                    "sectorsize", "holders", "links", "partitions")
    },
)  # fmt: skip
_facts = st.fixed_dictionaries(
    {},
    optional={
        "ansible_devices": st.dictionaries(st.text(max_size=10), _device | _json, max_size=4) | _json,
        "ansible_mounts": st.lists(_json | st.dictionaries(st.sampled_from(["device", "mount", "fstype", "options"]),
                                                           _json, max_size=4), max_size=3),
        "ansible_kernel": _json, "ansible_distribution": _json, "ansible_distribution_version": _json,
        "ansible_virtualization_type": _json, "ansible_virtualization_role": _json, "ansible_cmdline": _json,
        "ansible_proc_cmdline": _json, "ansible_hostname": _json, "ansible_architecture": _json,
        "ansible_system": _json, "ansible_os_family": _json,
    },
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_facts)
def test_random_fact_documents_never_crash(facts: dict) -> None:
    system = to_system(facts, {"rhel9"}, "random")
    for device in system.devices:
        assert not _CONTROL.search(device.name + (device.model or "") + (device.scheduler or ""))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(_facts, _json), st.sampled_from(["cache", "tree", "console", "wrapped"]))
def test_random_documents_on_disk_become_one_host_each(tmp_path: Path, document, form: str) -> None:
    text = json.dumps(document)
    text = {"tree": f'{{"ansible_facts": {text}}}', "console": f"web1 | SUCCESS => {text}\n",
            "wrapped": json.dumps({"__payload__": text})}.get(form, text)  # fmt: skip
    path = tmp_path / ("s1_web1" if form == "wrapped" else "web1")
    path.write_text(text)
    (host,) = read_facts(path, {"rhel9"})
    assert host.name == "web1"
    assert_one_safe_line(host)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(REAL_FILES), st.integers(min_value=0, max_value=10**6), st.integers(0, 400), st.text(max_size=40)
)
def test_damaged_real_documents(sample: Path, cut: int, length: int, junk: str) -> None:
    text = sample.read_text(encoding="utf-8")
    cut %= max(len(text), 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / sample.name
        path.write_text(text[:cut] + junk + text[cut + length :], encoding="utf-8", errors="surrogatepass")
        for host in read_facts(path, {"rhel9"}):
            assert_one_safe_line(host)
