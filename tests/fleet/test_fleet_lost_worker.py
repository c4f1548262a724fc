"""A fleet worker killed by SIGKILL (the out-of-memory killer) mid-task: the pool notices, gives its task again
once, a unit or shape at a time, and reports a unit or shape lost twice as an error of its hosts alone; the run
ends, and every other host has the outcome a run without the kill gives it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from iosched.fleet import pool as fleet_pool
from iosched.fleet.pool import LOST, POOL_MIN_UNITS, Needs, Request
from iosched.knowledge.kbcache import load_checked

ANSIBLE = Path(__file__).parent / "ansible"
VICTIM = "h0100"
BOUND_SECONDS = 300


@pytest.fixture
def facts(tmp_path: Path) -> Path:
    """Real cache documents under enough names for the pool."""
    real = sorted(p for p in (ANSIBLE / "cache").iterdir() if p.is_file())
    cache = tmp_path / "cache"
    cache.mkdir()
    for i in range(POOL_MIN_UNITS + 200):
        (cache / f"h{i:04d}").write_bytes(real[i % len(real)].read_bytes())
    return cache


@pytest.fixture
def bounded() -> Iterator[None]:
    """The test fails, rather than hangs, when the run does not end."""

    def expire(*_: object) -> None:
        raise TimeoutError("the fleet run did not end")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(BOUND_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _kill_self() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _planned(cache: Path, jobs: int) -> tuple[list[tuple[Any, ...]], list[int]]:
    lost: list[int] = []
    outcomes, sets = fleet_pool.run(load_checked(), [cache], Request(workload="db"), Needs(text=True), jobs=jobs,
                                    lost=lost.append)  # fmt: skip
    return [(o.name, o.workload, o.error, sets[o.plans].text if o.plans else None) for o in outcomes], lost


def _killing(monkeypatch: pytest.MonkeyPatch, marker: Path | None) -> None:
    """Workers read the victim by killing themselves: once (when ``marker`` is a path), or every time."""
    entry = fleet_pool._entry

    def reading(path: str, distros: Any) -> Any:
        if os.path.basename(path) == VICTIM and os.getpid() != parent:
            if marker is None:
                _kill_self()
            elif not marker.exists():
                marker.touch()
                _kill_self()
        return entry(path, distros)

    parent = os.getpid()
    monkeypatch.setattr(fleet_pool, "_entry", reading)


def test_a_worker_killed_reading_is_replaced_and_its_units_read_again(
    facts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bounded: None
) -> None:
    alone, lost = _planned(facts, 1)
    assert not lost
    _killing(monkeypatch, tmp_path / "killed")
    pooled, lost = _planned(facts, 2)
    assert (tmp_path / "killed").exists(), "a worker was killed"
    assert lost == [1] and pooled == alone


def test_a_unit_lost_twice_is_its_host_error_alone(facts: Path, monkeypatch: pytest.MonkeyPatch, bounded: None) -> None:
    alone, _ = _planned(facts, 1)
    _killing(monkeypatch, None)
    pooled, lost = _planned(facts, 2)
    assert lost == [2]
    victim = [i for i, host in enumerate(alone) if host[0] == VICTIM]
    assert len(victim) == 1 and pooled[victim[0]] == (VICTIM, "db", LOST, None)
    assert pooled[: victim[0]] + pooled[victim[0] + 1 :] == alone[: victim[0]] + alone[victim[0] + 1 :]


def test_a_worker_killed_planning_is_replaced_and_its_shapes_planned_again(
    facts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bounded: None
) -> None:
    alone, _ = _planned(facts, 1)
    marker = tmp_path / "killed"
    plan_shapes: Callable[..., Any] = fleet_pool.Worker.plan_shapes

    def planning(self: fleet_pool.Worker, shapes: Any) -> Any:
        if not marker.exists():
            marker.touch()
            _kill_self()
        return plan_shapes(self, shapes)

    monkeypatch.setattr(fleet_pool.Worker, "plan_shapes", planning)
    pooled, lost = _planned(facts, 2)
    assert marker.exists() and lost == [1] and pooled == alone


def test_the_command_ends_with_one_line_and_exit_status_1(facts: Path) -> None:
    """The CLI in a process of its own, whose workers die reading one host every time: the JSON document
    has every host, the victim with the error; stderr has one line; exit status 1."""
    script = (
        "import os, signal, sys\n"
        "from iosched.fleet import pool as fleet_pool\n"
        "entry = fleet_pool._entry\n"
        "def reading(path, distros):\n"
        f"    if os.path.basename(path) == {VICTIM!r}:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return entry(path, distros)\n"
        "fleet_pool._entry = reading\n"
        "from iosched.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    argv = ["fleet", str(facts), "--workload", "db", "--format", "json", "--jobs", "2"]
    done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True,
                          timeout=BOUND_SECONDS)  # fmt: skip
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("iosched: fleet: 2 worker processes ended") and "1 host lost twice" in line
    hosts = json.loads(done.stdout)["hosts"]
    assert [h["host"] for h in hosts] == sorted(p.name for p in facts.iterdir())
    assert [h["host"] for h in hosts if LOST in h["errors"]] == [VICTIM]
