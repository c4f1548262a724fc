"""Line-level damage to every text a capture holds (supportconfig reports, saved lsblk tables, ktune sysconfig,
TuneD profiles, sysfs values): the probe still gives a System, every line it shows is one clean line, and nothing
raises. Whole-file damage is tested in test_probe_fuzz.py."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import shutil
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from iosched.cli import main
from iosched.observe.reader import read_root
from probe_helpers import NAMES, capture, scratch

TEXTS = sorted(
    (name, str(path.relative_to(capture(name))))
    for name in NAMES
    for path in capture(name).rglob("*")
    if path.is_file() and not path.is_symlink() and path.name != "PROVENANCE"
)
EDITS = ("delete", "duplicate", "cut", "insert", "blank-columns", "swap")
JUNK = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["#==[ Command ]====#", "# /usr/bin/grep '' /sys/block/x/queue/scheduler", "`-mpathz (dm-99)",
                     "ELEVATOR_TUNE_DEVS=\"/sys/block/{sd,}*/queue/scheduler\"", "[disk_x]", "devices=!*",
                     "devices_udev_regex=(", "priority=x", "NAME KNAME RA", "/sys/block/../queue/scheduler:[x]"]),
)  # fmt: skip


@functools.cache
def pristine(name: str) -> Path:
    """A copy of capture ``name`` for this process, beside the examples' trees (in memory where the machine has
    it), for each example to hard-link instead of copying every file again."""
    holder = scratch()
    _kept.append(holder)
    root = Path(holder.name) / name
    shutil.copytree(capture(name), root, symlinks=True)
    return root


_kept: list[object] = []
"""The pristine copies' directories, removed when the process ends."""


def linked_copy(name: str, destination: Path, damaged: str) -> Path:
    """The tree of capture ``name`` at ``destination``, each file a hard link to the pristine copy but
    ``damaged`` (relative), a file of its own, so that damaging it leaves the pristine copy as it was."""
    shutil.copytree(pristine(name), destination, symlinks=True, copy_function=os.link)
    path = destination / damaged
    path.unlink()
    shutil.copy2(pristine(name) / damaged, path)
    return path


def damage(text: str, edits: list[tuple[str, int, str]]) -> str:
    lines = text.split("\n")
    for how, where, junk in edits:
        i = where % max(len(lines), 1)
        if how == "delete" and lines:
            del lines[i]
        elif how == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif how == "cut" and lines:
            lines[i] = lines[i][: where % (len(lines[i]) + 1)]
        elif how == "insert":
            lines.insert(i, junk)
        elif how == "blank-columns" and lines:
            lines[i] = " ".join(" " * len(w) if n % 2 else w for n, w in enumerate(lines[i].split(" ")))
        elif how == "swap" and len(lines) > 1:
            lines[i], lines[i - 1] = lines[i - 1], lines[i]
    return "\n".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(TEXTS),
    st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 10**6), JUNK), min_size=1, max_size=8),
)
def test_damaged_lines_of_any_capture_text_give_a_system_and_clean_lines(
    text: tuple[str, str], edits: list[tuple[str, int, str]]
) -> None:
    name, rel = text
    with scratch() as tmp:
        root = Path(tmp) / "root"
        path = linked_copy(name, root, rel)
        path.write_text(damage(path.read_text(errors="replace"), edits))
        system = read_root(root)
        for line in system.missing:
            assert "\n" not in line and len(line) < 1000
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["probe", "--root", str(root)])
        assert code == 0 and err.getvalue() == ""
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["advise", "--root", str(root), "--workload", "db"])
        assert code in (0, 2) and "Traceback" not in err.getvalue()
        assert code == 0 or len(err.getvalue().strip().splitlines()) == 1
