"""Ansible's distribution facts to os-release fields and KB distribution ids, as the probe maps os-release."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ansible_helpers import FIXTURES, kb_ids

from iosched.system.classify import distro_id as os_release_distro_id
from iosched.system.distro import distro_id, os_release
from iosched.system.release import parse_os_release

ANSIBLE_FIXTURES = sorted((FIXTURES / "distribution").glob("*.json"))
WITH_OS_RELEASE = [p for p in ANSIBLE_FIXTURES if "/etc/os-release" in json.loads(p.read_text())["input"]]

# The id each of Ansible's distribution fixtures names, whether or not the KB describes that release yet.
CANDIDATES = {
    "almalinux_8_3_beta": "rhel8",
    "amazon_linux_2": "amzn2",
    "centos_6.7": "rhel6",
    "centos_8_1": "rhel8",
    "centos_stream_8": "rhel8",
    "debian_7.9": "debian7",
    "debian_10": "debian10",
    "fedora_31": "fedora31",
    "opensuse_leap_15.1": "opensuse-leap151",
    "redhat_6.7": "rhel6",
    "redhat_7.7": "rhel7",
    "rockylinux_8_3": "rhel8",
    "sles_11.3": "sles11sp3",
    "sles_11.4": "sles11sp4",
    "sles_12_sp0": "sles12",
    "sles_12_sp1": "sles12sp1",
    "sles_15_6": "sles15sp6",
    "ubuntu_14.04": "ubuntu1404",
    "ubuntu_16.04": "ubuntu1604",
    "ubuntu_18.04": "ubuntu1804",
}


@pytest.fixture(scope="module")
def distros(kb) -> set[str]:
    return kb_ids(kb, "distributions")


def ansible_result(path: Path) -> tuple[str, str]:
    result = json.loads(path.read_text())["result"]
    return result["distribution"], result["distribution_version"]


def test_every_fixture_has_an_expectation() -> None:
    assert sorted(CANDIDATES) == [p.stem for p in ANSIBLE_FIXTURES]


@pytest.mark.parametrize("path", ANSIBLE_FIXTURES, ids=lambda p: p.stem)
def test_ansible_distribution_facts(path: Path, distros: set[str]) -> None:
    candidate = CANDIDATES[path.stem]
    assert distro_id(*ansible_result(path), distros) == (candidate if candidate in distros else None)
    assert distro_id(*ansible_result(path), {candidate}) == candidate


@pytest.mark.parametrize("path", WITH_OS_RELEASE, ids=lambda p: p.stem)
def test_the_same_id_as_the_hosts_own_os_release(path: Path) -> None:
    """Ansible's name for a release and the release's os-release file give the same KB id."""
    fields = parse_os_release(json.loads(path.read_text())["input"]["/etc/os-release"])
    candidate = CANDIDATES[path.stem]
    assert os_release_distro_id(fields, {candidate}) == distro_id(*ansible_result(path), {candidate}) == candidate
    assert os_release(*ansible_result(path))["ID"] == fields["ID"].lower()


@pytest.mark.parametrize(
    ("name", "version", "expected"),
    [
        ("SLES", "12.5", "sles12sp5"),
        ("SLES_SAP", "15.5", "sles15sp5"),
        ("SLES", "11.1", "sles11sp1"),
        ("RedHat", "9.3", "rhel9"),
        ("RedHat", "8.10", "rhel8"),
        ("CentOS", "7", "rhel7"),
        ("Rocky", "9.4", "rhel9"),
        ("OracleLinux", "8.9", "ol8"),
        ("Amazon", "2023", "amzn2023"),
        ("CentOS", "9", "centos9"),
        ("Ubuntu", "24.04", "ubuntu2404"),
        ("Ubuntu", "14.04", "ubuntu1404"),
        ("Debian", "12", "debian12"),
        ("Debian", "11.9", "debian11"),
        ("Fedora", "40", "fedora40"),
    ],
)
def test_releases_the_kb_describes(name: str, version: str, expected: str, distros: set[str]) -> None:
    assert expected in distros
    assert distro_id(name, version, distros) == expected


@pytest.mark.parametrize(
    ("name", "version"),
    [("SLED", "15.5"), ("Ubuntu", "24"), ("RedHat", "nine"), ("RedHat", ""), ("", "9.3"), ("Fedora", "12")],
)
def test_releases_without_a_kb_id(name: str, version: str, distros: set[str]) -> None:
    assert distro_id(name, version, distros) is None


@pytest.mark.parametrize(
    ("name", "version"), [(None, "9.3"), ("RedHat", 9.3), ("Red\x1bHat", "9.3"), ("RedHat", "9.3; reboot")]
)
def test_invalid_facts_give_no_os_release(name: object, version: object) -> None:
    assert os_release(name, version) == {}
