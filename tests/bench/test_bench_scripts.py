"""Every bench script runs, with a tiny workload, so that none rots unseen (the numbers are not checked here:
speed is what the scripts print, never a test's verdict)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
TINY = {  # script: (arguments for a tiny run, a line its output must have)
    "fleet_ansible_size.py": (["--hosts", "20"], "variables tree (inventory, group_vars, play)"),
    "fleet_files.py": (["--hosts", "40", "--repeat", "1", "--serials"], "paired with an advise run"),
    "fleet_plan.py": (["--hosts", "40"], "hosts planned in"),
    "fleet_read.py": (["--hosts", "40"], "read_facts (files to System)"),
    "host_disks.py": (["--disks", "2", "4", "--runs", "1"], "ms a disk"),
    "probe.py": (["--runs", "1"], "bare interpreter"),
    "startup.py": (["--runs", "1", "--only", "list"], "list elevators"),
}
SLOW = {"startup.py", "probe.py"}
ELSEWHERE = {"site_build.py": "tests/sitegen/conftest.py builds the session's site with it (built_site)"}
"""Scripts whose tiny run is a fixture's work: it runs and checks them once for every test that needs it."""


def test_every_bench_script_has_a_tiny_run() -> None:
    assert {p.name for p in BENCH.glob("*.py")} == set(TINY) | set(ELSEWHERE)
    assert all((BENCH.parent / where.split()[0]).read_text().count(name) for name, where in ELSEWHERE.items())


@pytest.mark.parametrize(
    "script", [pytest.param(name, marks=[pytest.mark.slow] if name in SLOW else []) for name in sorted(TINY)]
)
def test_bench_script_runs(script: str, tmp_path: Path) -> None:
    argv, expected = TINY[script]
    env = {**os.environ, "IOSCHED_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(BENCH / script), *argv], capture_output=True, text=True, env=env,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert expected in done.stdout, done.stdout
