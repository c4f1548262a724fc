"""Distribution names and versions, as Ansible and os-release spell them, to KB distribution ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ansible_helpers import FIXTURES, kb_ids

from iosched.system.distro import distro_id, family

ANSIBLE_FIXTURES = sorted((FIXTURES / "distribution").glob("*.json"))
WITH_OS_RELEASE = [p for p in ANSIBLE_FIXTURES if "/etc/os-release" in json.loads(p.read_text())["input"]]

# The id each of Ansible's distribution fixtures names, whether or not the KB describes that release yet.
CANDIDATES = {
    "almalinux_8_3_beta": "rhel8",
    "amazon_linux_2": None,
    "centos_6.7": "rhel6",
    "centos_8_1": "rhel8",
    "centos_stream_8": "rhel8",
    "debian_7.9": "debian7",
    "debian_10": "debian10",
    "fedora_31": "fedora31",
    "opensuse_leap_15.1": None,
    "redhat_6.7": "rhel6",
    "redhat_7.7": "rhel7",
    "rockylinux_8_3": "rhel8",
    "sles_11.3": "sles11sp3",
    "sles_11.4": "sles11sp4",
    "sles_12_sp0": "sles12",
    "sles_12_sp1": "sles12sp1",
    "ubuntu_14.04": "ubuntu1404",
    "ubuntu_16.04": "ubuntu1604",
    "ubuntu_18.04": "ubuntu1804",
}


@pytest.fixture(scope="module")
def distros(kb) -> set[str]:
    return kb_ids(kb, "distributions")


def test_every_fixture_has_an_expectation() -> None:
    assert sorted(CANDIDATES) == [p.stem for p in ANSIBLE_FIXTURES]


@pytest.mark.parametrize("path", ANSIBLE_FIXTURES, ids=lambda p: p.stem)
def test_ansible_distribution_facts(path: Path, distros: set[str]) -> None:
    result = json.loads(path.read_text())["result"]
    name, version = result["distribution"], result["distribution_version"]
    candidate = CANDIDATES[path.stem]
    assert distro_id(name, version, distros) == (candidate if candidate in distros else None)
    assert distro_id(name, version, {candidate} if candidate else set()) == candidate


@pytest.mark.parametrize("path", WITH_OS_RELEASE, ids=lambda p: p.stem)
def test_os_release_of_the_same_hosts_maps_alike(path: Path) -> None:
    release = json.loads(path.read_text())["input"]["/etc/os-release"]
    fields = dict(line.split("=", 1) for line in release.splitlines() if "=" in line)
    os_id, version_id = (fields.get(k, "").strip('"') for k in ("ID", "VERSION_ID"))
    candidate = CANDIDATES[path.stem]
    assert distro_id(os_id, version_id, {candidate} if candidate else set()) == candidate


@pytest.mark.parametrize(
    ("name", "version", "expected"),
    [
        ("SLES", "12.5", "sles12sp5"),
        ("SLES_SAP", "15.5", "sles15sp5"),
        ("sles", "11.1", "sles11sp1"),
        ("RedHat", "9.3", "rhel9"),
        ("rhel", "8.10", "rhel8"),
        ("CentOS", "7", "rhel7"),
        ("Rocky", "9.4", "rhel9"),
        ("Ubuntu", "24.04", "ubuntu2404"),
        ("ubuntu", "14.04", "ubuntu1404"),
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
    [
        ("OracleLinux", "8.9"),
        ("SLED", "15.5"),
        ("Ubuntu", "24"),
        ("RedHat", "nine"),
        ("RedHat", ""),
        ("", "9.3"),
        (None, "9.3"),
        ("RedHat", 9.3),
        ("Fedora", "39"),
    ],
)
def test_releases_without_a_kb_id(name: object, version: object, distros: set[str]) -> None:
    assert distro_id(name, version, distros) is None


def test_families() -> None:
    assert [family(n) for n in ("SLES_SAP", "AlmaLinux", "Ubuntu", "Debian", "Fedora", "OracleLinux", 7)] == [
        "sles",
        "rhel",
        "ubuntu",
        "debian",
        "fedora",
        None,
        None,
    ]
