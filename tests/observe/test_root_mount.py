"""A file system mounted on ``/`` reaches the plan like any other: its mount options are read, the barrier
rules see them, and the mount-option step remounts ``/`` and edits its fstab line, and no other."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.cli import main
from iosched.grammar import MOUNT_POINT, PATH, matches
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.mechanisms import fstab
from iosched.observe.reader import read_root
from iosched.planning.hostplan import context_for
from probe_helpers import capture, decisive

DEBIAN = capture("debian12-vm-live")


def root_with_nobarrier(tmp_path: Path) -> tuple[Path, list[str]]:
    """The Debian capture with ``nobarrier`` added to the options of its ``/`` mount; that mount's fields."""
    root = tmp_path / "root"
    shutil.copytree(DEBIAN, root, symlinks=True)
    mounts = (root / "proc/mounts").read_text().splitlines()
    at = next(i for i, line in enumerate(mounts) if line.split()[1] == "/")
    fields = mounts[at].split()
    fields[3] += ",nobarrier"
    mounts[at] = " ".join(fields)
    (root / "proc/mounts").write_text("\n".join(mounts) + "\n")
    return root, fields


@given(st.text(alphabet="/.a-_ \n", max_size=12))
def test_a_mount_point_is_the_root_directory_or_an_absolute_path_of_plain_names(value: str) -> None:
    assert matches(MOUNT_POINT, value) == (value == "/" or matches(PATH, value))
    assert not matches(PATH, "/")


@pytest.mark.parametrize("bad", ["//", "/.", "/..", "/srv/", "srv", "/ ", "/srv/../etc"])
def test_the_grammar_stays_closed_around_the_root_directory(bad: str) -> None:
    assert not matches(MOUNT_POINT, bad)


def test_root_mount_options_reach_the_context_of_the_disk_under_it(tmp_path: Path, kb: Kb) -> None:
    root, fields = root_with_nobarrier(tmp_path)
    system = read_root(root)
    disk = system.device(fields[0].removeprefix("/dev/"))
    assert disk is not None
    ctx = context_for(kb, system, disk, Context(workload="db"))
    assert (ctx.fs, ctx.mountpoint, ctx.mount_options) == (fields[2], "/", decisive(kb, *fields[2:4]))


def test_a_plan_remounts_root_with_barriers_and_edits_its_fstab_line_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, fields = root_with_nobarrier(tmp_path)
    assert main(["advise", "--root", str(root), "--workload", "db", "--format", "json"]) == 0
    (plan,) = [p for p in json.loads(capsys.readouterr().out)["plans"] if p["device"] == fields[0].split("/")[-1]]
    assert "IOS902" in {w["id"] for w in plan["warnings"]}
    (step,) = [s for s in plan["steps"] if s["kind"] == "mount-option"]
    assert (step["mountpoint"], step["value"], step["previous"]) == ("/", "barrier", "nobarrier")
    assert step["command"] == "sudo mount -o remount,barrier /"
    assert step["verify"] == "findmnt -no OPTIONS /"
    assert main(["advise", "--root", str(root), "--workload", "db", "--format", "markdown"]) == 0
    (edit,) = [line for line in capsys.readouterr().out.splitlines() if line.endswith(f" {fstab.FILE}")]
    table = tmp_path / "fstab"
    table.write_text(  # the layout Debian's installer writes: a comment names each mount point
        "# / was on /dev/vda1 during installation\n"
        "UUID=0b7f6c55-3f0a-4d3e-9d5c-2a1f8e6b9c10 /               ext4    nobarrier,errors=remount-ro 0       1\n"
        "# /boot was on /dev/vda2 during installation\n"
        "UUID=5d1c2f3e-8a9b-4c7d-b6e5-f4a3b2c1d0e9 /boot           ext4    nobarrier       0       2\n"
        "/dev/vdb1\t/srv/nobarrier\text4\tnobarrier\t0\t2\n"
    )
    before = table.read_text().splitlines()
    command = edit.removeprefix("sudo ").replace(fstab.FILE, str(table))
    subprocess.run(["sh", "-c", command], check=True)
    after = table.read_text().splitlines()
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed == [(before[1], before[1].replace("nobarrier", "barrier"))]


@pytest.mark.parametrize(("mountpoint", "code"), [("/", 0), ("//", 2), ("/srv/..", 2)])
def test_advise_takes_root_as_a_mount_point_from_the_command_line(
    capsys: pytest.CaptureFixture[str], mountpoint: str, code: int
) -> None:
    argv = ["advise", "--hw", "raid", "--workload", "db", "--kernel", "6.8", "--fs", "ext4"]
    assert main([*argv, "--mountpoint", mountpoint, "--mount-options", "rw,nobarrier", "--format", "sh"]) == code
    out, err = capsys.readouterr()
    if code:
        assert err.count("\n") == 1 and "mount point" in err
    else:
        assert "sudo mount -o remount,barrier /\n" in out.replace("#   ", "")
