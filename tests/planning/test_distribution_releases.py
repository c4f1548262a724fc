"""Every distribution release of the KB plans for every hardware preset and workload, and a host is recognised as
the release it runs: from the names people type, from its os-release file, and by the kernel it booted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError, resolve
from iosched.knowledge.normalise import distribution as named_distribution
from iosched.observe.classify import distro_id
from iosched.observe.distro import ANSIBLE_IDS
from iosched.observe.release import parse_os_release
from iosched.planning.engine import advise

# Ansible's unit-test fixtures: the /etc/os-release a host holds and the kernel release it ran (tests/fleet/ansible)
ANSIBLE_DISTRIBUTIONS = Path(__file__).resolve().parents[1] / "fleet" / "ansible" / "distribution"
OS_RELEASE_FIXTURES = {"sles_15_6.json": "sles15sp6", "amazon_linux_2.json": "amzn2"}


def _supported(distro: object, preset: object) -> bool:
    """The release's kernel drives this class of device at all (NVMe before 3.3, ZNS before 5.9 are not)."""
    return preset.since is None or distro.kernel >= preset.since  # type: ignore[attr-defined]


def test_every_release_plans_for_every_hardware_preset_and_workload(kb: Kb) -> None:
    planned = 0
    for distro in kb.section("distributions"):
        for preset in kb.section("hardware"):
            for workload in kb.section("workloads"):
                ctx = Context(hw=preset.id, distro=distro.id, workload=workload.id)
                try:
                    resolved, plan = resolve(kb, ctx), advise(kb, ctx)
                except ContextError:
                    assert not _supported(distro, preset), (distro.id, preset.id, workload.id)
                    continue
                assert resolved.distribution is not None and resolved.distribution.id == distro.id
                assert resolved.kernel == distro.kernel and plan.kernel == str(distro.kernel), (distro.id, preset.id)
                assert plan.io_path == resolved.io_path, (distro.id, preset.id, workload.id)
                planned += 1
    assert planned >= len(kb.section("distributions")) * len(kb.section("workloads"))


def test_every_release_is_found_by_its_own_name(kb: Kb) -> None:
    distributions = list(kb.section("distributions"))
    ids = [d.id for d in distributions]
    for distro in distributions:
        assert named_distribution(distro.name, lambda: distributions, ids) == distro.id, distro.name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SLES 15 SP6", "sles15sp6"),
        ("sles15-sp7", "sles15sp7"),
        ("Amazon Linux 2023", "amzn2023"),
        ("Amazon Linux 2", "amzn2"),
        ("Fedora 42", "fedora42"),
        ("fedora-43", "fedora43"),
        ("CentOS Stream 9", "centos9"),
        ("CentOS Stream 10", "centos10"),
        ("Oracle Linux 9.6", "ol9"),
        ("Ubuntu 25.04", "ubuntu2504"),
        ("Ubuntu 25.10", "ubuntu2510"),
    ],
)
def test_releases_as_people_write_them(kb: Kb, text: str, expected: str) -> None:
    resolved = resolve(kb, Context(hw="ssd", distro=text))
    assert resolved.distribution is not None and resolved.distribution.id == expected


@pytest.mark.parametrize("name", sorted(OS_RELEASE_FIXTURES))
def test_a_hosts_os_release_names_its_release(kb: Kb, name: str) -> None:
    fixture = json.loads((ANSIBLE_DISTRIBUTIONS / name).read_text())
    fields = parse_os_release(fixture["input"]["/etc/os-release"])
    ids = {d.id for d in kb.section("distributions")}
    assert distro_id(fields, ids, fixture["platform.release"]) == OS_RELEASE_FIXTURES[name]


@pytest.mark.parametrize(
    ("kernel", "expected"),
    [("5.15.0-305.176.4.el8uek.x86_64", "ol8"), ("4.18.0-553.el8_10.x86_64", "rhel8"), (None, "ol8")],
)
def test_oracle_linux_is_its_uek_release_only_on_the_uek_kernel(kb: Kb, kernel: str | None, expected: str) -> None:
    """Oracle Linux's entries describe the Unbreakable Enterprise Kernel; on the Red Hat Compatible Kernel the host
    is the RHEL release it rebuilds, and with no kernel known the release's default kernel (UEK) is assumed."""
    ids = {d.id for d in kb.section("distributions")}
    fields = {"ID": ANSIBLE_IDS["OracleLinux"], "VERSION_ID": "8.10"}
    assert distro_id(fields, ids, kernel) == expected
