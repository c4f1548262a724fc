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

from iosched.cli import main
from iosched.measure import load_results

pytestmark = [
    pytest.mark.root,
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


def bench_loops() -> set[str]:
    listed = subprocess.run(["losetup", "-a"], capture_output=True, text=True, check=False).stdout
    return {line for line in listed.splitlines() if "iosched-bench-" in line}


def test_loop_bench_writes_results_and_detaches(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    before = bench_loops()  # another bench may be running on this machine
    code = main(["bench", "--loop", "64M", "--runtime", "1", "--rounds", "1", "--workload", "randread",
                 "--output", str(out)])  # fmt: skip
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    doc = json.loads((out / "manifest.json").read_text())
    assert doc["complete"] and doc["loop"] and doc["fio_version"].startswith("fio-")
    assert len(doc["runs"]) == len(doc["schedulers"]) >= 1
    assert all(r["scheduler_before"] == r["scheduler_after"] == r["scheduler"] for r in doc["runs"])
    assert {m.scheduler for m in load_results([out])} == set(doc["schedulers"])
    assert "Recommendation:" in stdout
    assert bench_loops() <= before


def test_device_bench_restores_scheduler_and_tunables(tmp_path, capsys) -> None:
    with loop(tmp_path) as name:
        available = sysfs(name, "scheduler").read_text().replace("[", "").replace("]", "").split()
        if "mq-deadline" not in available:
            pytest.skip("mq-deadline is not available on this kernel")
        sysfs(name, "scheduler").write_text("mq-deadline")
        sysfs(name, "iosched", "read_expire").write_text("123")  # not the default (500)
        tuned = sysfs(name, "iosched", "read_expire").read_text().strip()  # as the kernel rounded it to jiffies
        code = main(["bench", name, "--runtime", "1", "--rounds", "1", "--workload", "seqwrite",
                     "--output", str(tmp_path / "out")])  # fmt: skip
        assert code == 0, capsys.readouterr().err
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
