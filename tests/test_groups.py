"""The suite's own pytest-xdist set-up: tests that touch the machine (loop devices, /proc/sys, /run/iosched)
run on one worker, one after another, as the README's test command runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.root  # what it runs touches the machine too: in the root group, it runs alone
@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="runs tests marked root")
def test_tests_marked_root_run_in_their_group_on_one_worker() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup", "-v", "-m", "root",
         "-k", "full_disk or read_only or already_as_assumed", "tests/planning/test_converge.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = [line for line in done.stdout.splitlines() if " PASSED " in line]
    assert len(ran) == 3, done.stdout[-3000:]
    assert all(line.rstrip().endswith("@root") for line in ran), ran  # xdist named the group: one worker runs it
    assert len({line.split()[0] for line in ran}) == 1, ran
