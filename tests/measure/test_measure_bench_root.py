"""Short real benches on loop devices (root and fio needed; CI runs them as root)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from measure_helpers import load_results

from iosched.cli import main

pytestmark = [
    pytest.mark.root,
    pytest.mark.fio,
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root (loop devices, scheduler switching)"),
    pytest.mark.skipif(shutil.which("fio") is None, reason="needs fio (.ci/system-deps installs it)"),
]


@contextlib.contextmanager
def loop(tmp_path: Path, size: int = 64 * 2**20):
    image = tmp_path / "disk.img"
    with image.open("wb") as fh:
        fh.truncate(size)
    name = subprocess.run(["losetup", "--find", "--show", str(image)], capture_output=True, text=True,
                          check=True).stdout.strip().removeprefix("/dev/")  # fmt: skip
    original = current(name)  # loop devices keep their scheduler across detach and reuse
    try:
        yield name
    finally:
        sysfs(name, "scheduler").write_text(original)
        subprocess.run(["losetup", "-d", f"/dev/{name}"], check=False)


def sysfs(name: str, *parts: str) -> Path:
    return Path("/sys/block", name, "queue", *parts)


def current(name: str) -> str:
    return next(w.strip("[]") for w in sysfs(name, "scheduler").read_text().split() if w.startswith("["))


TWO = ("--scheduler", "none", "--scheduler", "mq-deadline")
"""The baseline (mq-deadline) and one other: what a test of switching, keeping and restoring needs, without every
elevator's run (a second each)."""


def bench_loops() -> set[str]:
    listed = subprocess.run(["losetup", "-a"], capture_output=True, text=True, check=False).stdout
    return {line for line in listed.splitlines() if "iosched-bench-" in line}


def test_loop_bench_writes_results_and_detaches(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    before = bench_loops()  # another bench may be running on this machine
    code = main(["bench", "--loop", "64M", "--runtime", "1", "--rounds", "1", "--workload", "randread",
                 *TWO, "--output", str(out)])  # fmt: skip
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    doc = json.loads((out / "manifest.json").read_text())
    assert doc["complete"] and doc["loop"] and doc["preconditioned"] and doc["fio_version"].startswith("fio-")
    assert len(doc["runs"]) == len(doc["schedulers"]) >= 1
    assert all(r["scheduler_before"] == r["scheduler_after"] == r["scheduler"] for r in doc["runs"])
    assert {m.scheduler for m in load_results([out])} == set(doc["schedulers"])
    assert "Recommendation:" in stdout
    assert "with 1 round(s) no scheduler can be shown better or worse" in stderr  # said before it starts
    assert bench_loops() <= before


def test_device_bench_restores_scheduler_and_tunables(tmp_path, capsys) -> None:
    with loop(tmp_path) as name:
        available = sysfs(name, "scheduler").read_text().replace("[", "").replace("]", "").split()
        if "mq-deadline" not in available:
            pytest.skip("mq-deadline is not available on this kernel")
        sysfs(name, "scheduler").write_text("mq-deadline")
        sysfs(name, "iosched", "read_expire").write_text("123")  # not the default (500)
        tuned = sysfs(name, "iosched", "read_expire").read_text().strip()  # as the kernel rounded it to jiffies
        # a write workload runs on a device that holds no data; 4k random writes, not gigabytes of 1M ones
        code = main(["bench", name, "--runtime", "1", "--rounds", "1", "--workload", "randrw", *TWO,
                     "--output", str(tmp_path / "out")])  # fmt: skip
        assert code == 0, capsys.readouterr().err
        assert json.loads((tmp_path / "out/manifest.json").read_text())["workloads"] == ["randrw"]
        assert current(name) == "mq-deadline"
        assert sysfs(name, "iosched", "read_expire").read_text().strip() == tuned != "500"


def test_device_with_a_file_system_is_not_written(tmp_path, capsys) -> None:
    if shutil.which("mkfs.ext4") is None:
        pytest.skip("needs mkfs.ext4")
    with loop(tmp_path) as name:
        subprocess.run(["mkfs.ext4", "-q", "-F", f"/dev/{name}"], check=True)
        code = main(["bench", name, "--runtime", "1", "--rounds", "1", "--workload", "seqwrite",
                     "--output", str(tmp_path / "out")])  # fmt: skip
        assert code == 2
        assert "holds data" in capsys.readouterr().err
        blkid = subprocess.run(["blkid", "-p", "-o", "value", "-s", "TYPE", f"/dev/{name}"], capture_output=True,
                               text=True, check=False).stdout  # fmt: skip
        assert blkid.strip() == "ext4"


def test_sigterm_mid_run_restores_the_scheduler(tmp_path) -> None:
    with loop(tmp_path) as name:
        before = current(name)
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "engine")}
        proc = subprocess.Popen([sys.executable, "-m", "iosched", "bench", name, "--runtime", "5", "--rounds", "2",
                                 "--workload", "randread", "--output", str(tmp_path / "out")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)  # fmt: skip
        manifest = tmp_path / "out" / "manifest.json"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not manifest.exists():
            time.sleep(0.1)
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        assert proc.returncode != 0
        assert current(name) == before
        doc = json.loads(manifest.read_text())
        assert doc["complete"] is False and doc["finished"]


def bench_process(*argv: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "engine")}
    return subprocess.Popen([sys.executable, "-m", "iosched", "bench", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip


def wait_for(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def state_of(pid: int) -> dict:
    return json.loads(Path(f"/run/iosched/bench-{pid}.json").read_text())


def fio_of(output: Path) -> list[str]:
    """fio processes writing into ``output``."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            args = cmdline.read_bytes().split(b"\0")
            if args[0].endswith(b"fio") and any(str(output).encode() in a for a in args):
                found.append(cmdline.parent.name)
    return found


def test_sigkill_leaves_state_that_the_next_bench_undoes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = bench_process("--loop", "64M", "--runtime", "5", "--rounds", "2", "--workload", "randread",
                         "--output", str(out))  # fmt: skip
    wait_for(lambda: (out / "manifest.json").exists() and fio_of(out))
    state = state_of(proc.pid)
    image = Path(state["image"])
    loops = [p.parent.parent.name for p in Path("/sys/block").glob("loop*/loop/backing_file")
             if p.read_text().strip() == str(image)]  # fmt: skip
    assert state["device"] in loops and state["scheduler"]
    proc.kill()
    proc.wait(timeout=30)
    assert image.is_file()  # killed outright: nothing was cleaned up ...
    wait_for(lambda: not fio_of(out), 2)  # ... but fio died with it, long before its 5 s were up
    rerun = main(["bench", "--loop", "64M", "--runtime", "1", "--rounds", "1", "--workload", "randread", *TWO,
                  "--output", str(tmp_path / "again")])  # fmt: skip
    assert rerun == 0
    assert not image.parent.exists()
    assert not Path(f"/run/iosched/bench-{proc.pid}.json").exists()
    assert not [p for p in Path("/sys/block").glob("loop*/loop/backing_file")
                if p.read_text().strip().removesuffix(" (deleted)") == str(image)]  # fmt: skip
    assert not Path(f"/run/iosched/bench-{os.getpid()}.json").exists()


def test_sigkill_on_a_device_restores_its_original_scheduler_next_time(tmp_path: Path, capsys) -> None:
    with loop(tmp_path) as name:
        available = sysfs(name, "scheduler").read_text().replace("[", "").replace("]", "").split()
        if "mq-deadline" not in available or len(available) < 2:
            pytest.skip("needs mq-deadline and another scheduler")
        sysfs(name, "scheduler").write_text("mq-deadline")
        sysfs(name, "iosched", "read_expire").write_text("123")
        tuned = sysfs(name, "iosched", "read_expire").read_text().strip()
        others = [s for s in available if s != "mq-deadline"]
        out = tmp_path / "out"
        proc = bench_process(name, "--runtime", "5", "--rounds", "2", "--workload", "randread", "--output", str(out),
                             *(f"--scheduler={s}" for s in others))  # fmt: skip
        wait_for(lambda: current(name) != "mq-deadline" and fio_of(out))
        assert state_of(proc.pid)["scheduler"] == "mq-deadline"
        proc.kill()
        proc.wait(timeout=30)
        assert current(name) != "mq-deadline"  # what a killed bench leaves behind
        again = tmp_path / "again"
        code = main(["bench", name, "--runtime", "1", "--rounds", "1", "--workload", "randread", *TWO,
                     "--output", str(again)])  # fmt: skip
        err = capsys.readouterr().err
        assert code == 0, err
        assert f"an earlier bench (pid {proc.pid})" in err and f"restored {name} to mq-deadline" in err
        assert json.loads((again / "manifest.json").read_text())["original_scheduler"] == "mq-deadline"
        assert current(name) == "mq-deadline"
        assert sysfs(name, "iosched", "read_expire").read_text().strip() == tuned


def test_a_loop_image_larger_than_the_disk_is_one_line(tmp_path: Path, capsys) -> None:
    before = set(Path(os.environ.get("TMPDIR", "/tmp")).glob("iosched-bench-*"))
    code = main(["bench", "--loop", "20T", "--output", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "does not fit" in err and err.count("\n") == 1
    assert set(Path(os.environ.get("TMPDIR", "/tmp")).glob("iosched-bench-*")) <= before


@pytest.mark.parametrize("moment", ["filling", "measuring"])
def test_sigterm_on_a_loop_bench_leaves_nothing_behind(tmp_path: Path, moment: str) -> None:
    out = tmp_path / "out"
    proc = bench_process("--loop", "256M" if moment == "filling" else "64M", "--runtime", "5", "--rounds", "1",
                         "--workload", "randread", "--output", str(out))  # fmt: skip
    state = Path(f"/run/iosched/bench-{proc.pid}.json")
    wait_for(lambda: state.exists() and (moment == "filling" or fio_of(out)))
    image = Path(state_of(proc.pid)["image"])
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    assert not image.parent.exists() and not state.exists() and not fio_of(out)
    assert not [p for p in Path("/sys/block").glob("loop*/loop/backing_file")
                if p.read_text().strip().removesuffix(" (deleted)") == str(image)]  # fmt: skip
