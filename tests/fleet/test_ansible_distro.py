"""Ansible's distribution facts to os-release fields and KB distribution ids, as the probe maps os-release."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ansible_helpers import FIXTURES, kb_ids
from iosched.knowledge.base import Kb
from iosched.observe.classify import SUSE_IDS, listed
from iosched.observe.classify import distro_id as os_release_distro_id
from iosched.observe.distro import distro_id, os_release
from iosched.observe.release import parse_os_release

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
    "sles4sap_12_sp2": "sles12sp2",
    "sles4sap_12_sp3": "sles12sp3",
    "sles_15_6": "sles15sp6",
    "sles_16_0": "sles16",
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
    """The release's own id where the KB lists it, else the nearest release of its family, never listed as it."""
    candidate = CANDIDATES[path.stem]
    found = distro_id(*ansible_result(path), distros)
    assert distro_id(*ansible_result(path), {candidate}) == candidate
    if candidate in distros:
        assert found == candidate
    elif found is not None:
        assert found.rstrip("0123456789sp") == candidate.rstrip("0123456789sp")
        assert not listed(os_release(*ansible_result(path)), found)


@pytest.mark.parametrize("path", WITH_OS_RELEASE, ids=lambda p: p.stem)
def test_the_same_id_as_the_hosts_own_os_release(path: Path) -> None:
    """Ansible's name for a release and the release's os-release file give the same KB id."""
    fields = parse_os_release(json.loads(path.read_text())["input"]["/etc/os-release"])
    candidate = CANDIDATES[path.stem]
    assert os_release_distro_id(fields, {candidate}) == distro_id(*ansible_result(path), {candidate}) == candidate
    ids = {os_release(*ansible_result(path))["ID"], fields["ID"].lower()}
    assert len(ids) == 1 or ids <= SUSE_IDS  # SLES for SAP 12 SP3 says ID="sles"; Ansible reads SLES_SAP from its CPE


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
    ("name", "version"), [("SLED", "15.5"), ("RedHat", "nine"), ("RedHat", ""), ("", "9.3"), ("Gentoo", "2.17")]
)
def test_releases_without_a_kb_id(name: str, version: str, distros: set[str]) -> None:
    assert distro_id(name, version, distros) is None


def _family(kb: Kb, prefix: str, major: str | None = None) -> list[str]:
    """The KB's releases of a family (of one major version), oldest first, ordered by the numbers in their ids."""
    ids = [d.id for d in kb.section("distributions") if re.fullmatch(rf"{prefix}\d+(?:sp\d+)?", d.id)]
    if major is not None:
        ids = [i for i in ids if re.fullmatch(rf"{prefix}{major}(?:sp\d+)?", i)]
    return sorted(ids, key=lambda i: [int(n) for n in re.findall(r"\d+", i)])


@pytest.mark.parametrize(
    ("name", "version", "prefix", "major", "pick"),
    [
        ("SLES", "15.9", "sles", "15", -1),  # a later service pack: the last one the KB lists
        ("SLES", "16.0", "sles", None, -1),  # a major release the KB lacks: the family's latest
        ("SLES", "12", "sles", "12", 0),  # SLES 12 GA: the first SLES 12 service pack the KB lists
        ("RedHat", "11.0", "rhel", None, -1),
        ("Debian", "7.9", "debian", None, 0),
        ("Fedora", "12", "fedora", None, 0),
        ("Ubuntu", "24", "ubuntu", None, None),
    ],
)
def test_a_release_the_kb_does_not_list_is_the_nearest_of_its_family(
    kb: Kb, name: str, version: str, prefix: str, major: str | None, pick: int | None
) -> None:
    found = distro_id(name, version, kb_ids(kb, "distributions"))
    assert found is not None and not listed(os_release(name, version), found)
    if pick is not None:
        assert found == _family(kb, prefix, major)[pick]


def test_every_sles_service_pack_from_sp1_resolves_to_itself(kb: Kb) -> None:
    """SLES 12 SP1-SP5 and 15 SP1-SP7, as os-release and as Ansible name them, each its own KB release."""
    distros = kb_ids(kb, "distributions")
    for major, last in (("12", 5), ("15", 7)):
        for sp in range(1, last + 1):
            for name in ("SLES", "SLES_SAP"):
                found = distro_id(name, f"{major}.{sp}", distros)
                assert found == f"sles{major}sp{sp}" and listed(os_release(name, f"{major}.{sp}"), found)
                assert kb.get(found).kernel is not None


@pytest.mark.parametrize(
    ("name", "version"), [(None, "9.3"), ("RedHat", 9.3), ("Red\x1bHat", "9.3"), ("RedHat", "9.3; reboot")]
)
def test_invalid_facts_give_no_os_release(name: object, version: object) -> None:
    assert os_release(name, version) == {}
