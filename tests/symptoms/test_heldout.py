"""The held-out captures (fixtures/heldout/README.md): each is diagnosed as its README says, from every device
format, and nothing is invented for the traps (a light read phase after a flood, the healthy disk under the loop)."""

from __future__ import annotations

import json

import pytest
from diagnose_helpers import DEVICE_FORMATS, FIXTURES, HOST_FILES

from iosched.cli import main

HELDOUT = FIXTURES / "heldout"
EXPECTED = {"throttled": ["IOD008"], "intermittent": ["IOD004"], "writeback-reads": ["IOD010"], "phases": [],
            "writeback-slow": ["IOD010"]}  # fmt: skip
"""Scenario -> the causes named for loop0, as README.md explains each (in writeback-slow, loop0 is the disk
under the loaded loop1)."""


def _diagnosed(name: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:
    here = HELDOUT / name
    args = ["diagnose", str(here / fmt), *(str(here / f) for f in HOST_FILES), "--root", str(here / "root"),
            "--format", "json"]  # fmt: skip
    assert main(args) == 0
    return {d["device"]: d for d in json.loads(capsys.readouterr().out)["devices"]}


def test_every_heldout_capture_is_listed() -> None:
    assert sorted(p.name for p in HELDOUT.iterdir() if p.is_dir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", EXPECTED)
@pytest.mark.parametrize("fmt", DEVICE_FORMATS)
def test_heldout_capture_is_diagnosed_right(name: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    devices = _diagnosed(name, fmt, capsys)
    found = devices["loop0"]
    assert [c["id"] for c in found["causes"]] == EXPECTED[name], (fmt, found["facts"])
    for cause in found["causes"]:
        assert all(e["window"] and e["source"] for e in cause["evidence"])
    if name == "writeback-slow":
        upper = devices["loop1"]
        named = {c["id"] for c in upper["causes"]}
        assert upper["stacked_on"] == ["loop0"] and not {"IOD009", "IOD002", "IOD006", "IOD001", "IOD007"} & named
        # tasks waited on I/O half the time, but the writer never passed the freerun ceiling: no dirty stall
        assert upper["facts"]["obs.dirty_pct_of_freerun"] < 100 and upper["facts"]["obs.psi_some.median"] > 40
    if not EXPECTED[name]:
        assert found["verdict"] == "unknown" and found["capture_next"] and found["plan_context"] == {}


def test_saturation_in_one_phase_names_the_phase(capsys: pytest.CaptureFixture[str]) -> None:
    (cause,) = _diagnosed("intermittent", "iostat-x-t.txt", capsys)["loop0"]["causes"]
    measured = [e for e in cause["evidence"] if e["fact"].startswith("obs.")]
    assert measured and all(e["window"].startswith("phase 2 of 2: ") for e in measured)


def test_the_disk_under_the_loop_gets_no_invented_cause(capsys: pytest.CaptureFixture[str]) -> None:
    """vda, barely used under the saturated loop device, is healthy (diskstats measures it too)."""
    assert _diagnosed("intermittent", "diskstats.log", capsys)["vda"]["verdict"] == "healthy"


def test_a_loop_over_a_file_on_an_idle_disk_queues_on_itself(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """The intermittent capture with what a --root tree says of the stacking (the loop's backing file, the mount
    holding it): vda under loop0 queues nothing, so the queueing starts on loop0 and the plan is for loop0."""
    import shutil

    root = tmp_path / "root"
    shutil.copytree(HELDOUT / "intermittent" / "root", root)
    (root / "sys/block/loop0/loop").mkdir()
    (root / "sys/block/loop0/loop/backing_file").write_text("/var/tmp/diag-cap/work-intermittent/disk.img\n")
    (root / "sys/block/vda/queue").mkdir(parents=True)
    (root / "sys/block/vda/queue/scheduler").write_text("[none] mq-deadline\n")
    (root / "proc/mounts").write_text("/dev/vda / ext4 rw 0 0\ntmpfs /tmp tmpfs rw 0 0\n")
    here = HELDOUT / "intermittent"
    assert main(["diagnose", str(here / "diskstats.log"), "--root", str(root), "--format", "json"]) == 0
    found = {d["device"]: d for d in json.loads(capsys.readouterr().out)["devices"]}
    loop = found["loop0"]
    assert loop["stacked_on"] == ["vda"] and "starts on loop0" in loop["stacking"] and loop["plan_context"]


def test_a_phase_names_itself_only_where_its_numbers_come_from(capsys: pytest.CaptureFixture[str]) -> None:
    """With --hw, the device's class is no measurement of the phase: its window names --hw, not the phase."""
    here = HELDOUT / "intermittent"
    assert main(["diagnose", str(here / "iostat-x-t.txt"), "--root", str(here / "root"), "--hw", "ssd",
                 "--format", "json"]) == 0  # fmt: skip
    (found,) = json.loads(capsys.readouterr().out)["devices"]
    (cause,) = found["causes"]
    classes = [e for e in cause["evidence"] if e["fact"].startswith("hw.")]
    assert classes and all(e["window"] == "the hardware named with --hw ssd" for e in classes)
