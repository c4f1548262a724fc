"""``iosched probe`` on the live root: a fresh loop device with its real scheduler, switched and switched back."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.measure.bench.device import loop_device, set_scheduler
from iosched.observe.reader import read_root
from probe_helpers import bracketed

pytestmark = [
    pytest.mark.root,
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root (loop devices, scheduler switching)"),
    pytest.mark.skipif(shutil.which("losetup") is None, reason="needs losetup (util-linux)"),
]
LOOP_SIZE = 64 * 2**20


def sysfs_scheduler(name: str) -> str:
    return Path(f"/sys/block/{name}/queue/scheduler").read_text()


def test_probe_sees_a_loop_device_switch_and_switch_back() -> None:
    with loop_device(LOOP_SIZE) as name:
        before = read_root(Path("/")).device(name)
        assert before is not None and before.kind == "loop" and before.io_path == "blk-mq"
        assert before.scheduler == bracketed(sysfs_scheduler(name))
        assert before.size_bytes == LOOP_SIZE and before.nr_hw_queues
        target = "bfq" if "bfq" in before.schedulers else next(s for s in before.schedulers if s != before.scheduler)
        try:
            assert set_scheduler(name, target) == target
            switched = read_root(Path("/")).device(name)
            assert switched.scheduler == target == bracketed(sysfs_scheduler(name))
            tunables = Path(f"/sys/block/{name}/queue/iosched")
            assert set(switched.iosched) == ({p.name for p in tunables.iterdir()} if tunables.is_dir() else set())
        finally:
            set_scheduler(name, before.scheduler)
        after = read_root(Path("/")).device(name)
        assert after.scheduler == before.scheduler == bracketed(sysfs_scheduler(name))


def test_probe_command_on_the_live_root(capsys: pytest.CaptureFixture[str]) -> None:
    with loop_device(LOOP_SIZE) as name:
        assert main(["probe", "--format", "json"]) == 0
        data = json.loads(capsys.readouterr().out)
        shown = {d["name"]: d for d in data["devices"]}
        assert shown[name]["scheduler"] == bracketed(sysfs_scheduler(name))
        assert data["host"]["kernel"] == Path("/proc/sys/kernel/osrelease").read_text().strip()
        assert data["source"] == "/"
