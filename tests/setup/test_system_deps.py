""".ci/system-deps waits for the apt and dpkg locks another process holds, says which lock and which process,
and gives up after a bounded time; `make demo` says what it does before each step."""

from __future__ import annotations

import fcntl
import os
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / ".ci" / "apt-locks"


def wait(seconds: int, *files: Path) -> subprocess.CompletedProcess[str]:
    script = f'source "{LOCKS}"; wait_for_locks {seconds} "$@"'
    return subprocess.run(["bash", "-c", script, "wait", *map(str, files)], capture_output=True, text=True,
                          timeout=seconds + 30)  # fmt: skip


def test_free_locks_and_missing_lock_files_do_not_wait(tmp_path: Path) -> None:
    (tmp_path / "lock").write_text("")
    done = wait(5, tmp_path / "lock", tmp_path / "absent")
    assert done.returncode == 0 and done.stderr == ""


def test_a_held_lock_is_waited_for_named_with_its_holder_then_given_up(tmp_path: Path) -> None:
    lock = tmp_path / "lock-frontend"
    with lock.open("w") as held:
        fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as apt and dpkg lock (fcntl)
        done = wait(2, tmp_path / "free", lock)
    assert done.returncode == 1
    first, last = done.stderr.strip().splitlines()[0], done.stderr.strip().splitlines()[-1]
    assert f"waiting up to 2s for {lock}" in first and f"pid {os.getpid()}" in first
    assert "giving up" in last and str(lock) in last


def test_a_lock_released_while_waiting_lets_it_go_on(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    held = lock.open("w")
    fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    timer = threading.Timer(1.5, held.close)
    timer.start()
    try:
        done = wait(30, lock)
    finally:
        timer.cancel()
        held.close()
    assert done.returncode == 0 and "waiting up to 30s" in done.stderr


def test_make_demo_says_what_it_does_before_each_step() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}  # under make test
    done = subprocess.run(["make", "--no-print-directory", "-n", "-B", "demo", "VENV=/nonexistent-venv"], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=True)  # fmt: skip
    lines = done.stdout.splitlines()
    commands = [i for i, line in enumerate(lines) if not line.startswith("echo ")]
    assert commands, done.stdout
    for i in commands:
        assert i > 0 and lines[i - 1].startswith("echo "), f"no progress line before: {lines[i]}"
