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
from probe_helpers import capture

from iosched.cli import main
from iosched.context import Context
from iosched.host import plan_host
from iosched.kb import Kb
from iosched.system.classify import classified
from iosched.system.ktune import device_globs, sysconfig_values
from iosched.system.model import System
from iosched.system.reader import read_root

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
