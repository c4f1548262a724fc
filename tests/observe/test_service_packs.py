"""Every SLES service pack from SP1 read from a host resolves to its own KB release, and a plan on a release the
KB takes from another, or does not list at all, says what it assumes (captures/scc-sles15sp4-btrfs-lvm, its
os-release rewritten to each release)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.hostplan import plan_host
from iosched.records.system import System
from probe_helpers import capture

SLES = capture("scc-sles15sp4-btrfs-lvm")


def host_on(tmp_path: Path, kb: Kb, version: str) -> System:
    """The SLES capture with its os-release saying ``version`` (``15.4``, ``12.1``), read and classified."""
    root = tmp_path / f"sles-{version}"
    shutil.copytree(SLES, root)
    text = (root / "basic-environment.txt").read_text()
    major, _, sp = version.partition(".")
    label = f"{major}-SP{sp}" if sp not in ("", "0") else major
    text = re.sub(r'^VERSION="[^"]*"$', f'VERSION="{label}"', text, flags=re.MULTILINE)
    text = re.sub(r'^VERSION_ID="[^"]*"$', f'VERSION_ID="{version}"', text, flags=re.MULTILINE)
    text = re.sub(r'^PRETTY_NAME="[^"]*"$', f'PRETTY_NAME="SUSE Linux Enterprise Server {label}"', text,
                  flags=re.MULTILINE)  # fmt: skip
    (root / "basic-environment.txt").write_text(text)
    return classified(read_root(root), {d.id for d in kb.section("distributions")},
                      {h.id for h in kb.section("hardware")})  # fmt: skip


@pytest.mark.parametrize("version", [f"12.{sp}" for sp in range(1, 6)] + [f"15.{sp}" for sp in range(1, 8)])
def test_every_service_pack_resolves_and_says_what_it_takes_from_another(tmp_path: Path, kb: Kb, version: str) -> None:
    system = host_on(tmp_path, kb, version)
    major, sp = version.split(".")
    distro = kb.get(f"sles{major}sp{sp}")
    assert system.host.distro == distro.id and distro.kernel is not None
    planned = plan_host(kb, system, Context(workload="db"))
    assert planned.plans and "distro_assumed" not in planned.host
    for plan in planned.plans:
        facts = [a for a in plan.assumptions if a.fact == "distro.facts"]
        assert [a.value for a in facts] == ([distro.facts_from] if distro.facts_from else [])
        assert all(distro.name in a.text and kb.get(distro.facts_from).name in a.text for a in facts)


@pytest.mark.parametrize("version", ["15.9", "16.0"])
def test_a_release_the_kb_does_not_list_is_planned_as_the_nearest_and_says_so(
    tmp_path: Path, kb: Kb, version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    system = host_on(tmp_path, kb, version)
    nearest = kb.get(system.host.distro)
    assert nearest is not None and nearest.family == "sles"
    planned = plan_host(kb, system, Context(workload="db"))
    said = planned.host["distro_assumed"]
    assert system.host.os_release["PRETTY_NAME"] in said and nearest.name in said
    assert main(["advise", "--root", str(tmp_path / f"sles-{version}"), "--workload", "db"]) == 0
    assert said in capsys.readouterr().out
    assert main(["probe", "--root", str(tmp_path / f"sles-{version}")]) == 0
    assert f"(KB: {nearest.id}, the nearest release of its family)" in capsys.readouterr().out
