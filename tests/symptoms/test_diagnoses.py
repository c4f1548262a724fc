"""Each capture is diagnosed as what it was made to show (fixtures/README.md), through the CLI."""

from __future__ import annotations

import json

import pytest
from diagnose_helpers import DEVICE_FORMATS, device, inputs, scenario

from iosched.cli import main

MADE_TO_SHOW = {
    "healthy": ["IOD010"],
    "burst": ["IOD010"],
    "saturation": ["IOD004"],
    "flood-none": ["IOD003", "IOD002", "IOD004"],
    "flood-mq-deadline": ["IOD002", "IOD004"],
    "readahead": ["IOD010"],  # the device was not the bottleneck: see fixtures/README.md
    "dirty-flush": [],  # dirty memory stayed under the freerun ceiling: see fixtures/README.md
    "slow-device": ["IOD007"],
    "writeback-none": ["IOD001"],
}
"""Scenario -> the causes it was made to show, first the one that must lead."""
SAR_SEES = {"flood-none": ["IOD004"], "flood-mq-deadline": ["IOD004"]}
"""sar -d has no r_await: of a write flood it shows the saturation, not the reads waiting behind it."""


def diagnose(name: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> dict:
    args = ["diagnose", *map(str, inputs(name, fmt)), "--root", str(scenario(name) / "root"), "--format", "json"]
    assert main(args) == 0
    (found,) = [d for d in json.loads(capsys.readouterr().out)["devices"] if d["device"] == device(name)]
    return found


@pytest.mark.parametrize("name", MADE_TO_SHOW)
@pytest.mark.parametrize("fmt", DEVICE_FORMATS)
def test_capture_is_diagnosed_as_made(name: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    found = diagnose(name, fmt, capsys)
    ids = [c["id"] for c in found["causes"]]
    expected = SAR_SEES.get(name, MADE_TO_SHOW[name]) if fmt in ("sar-d.txt", "sadf-d.txt") else MADE_TO_SHOW[name]
    assert ids == expected, (fmt, ids, found["facts"])


@pytest.mark.parametrize("name", ["healthy", "burst"])
def test_no_cause_is_invented_for_an_idle_device_or_a_burst(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    found = diagnose(name, "iostat-x-t.txt", capsys)
    assert found["verdict"] == "healthy" and found["plan_context"] == {} and found["plan"] is None


def test_every_cause_cites_numbers_with_a_window_and_a_source(capsys: pytest.CaptureFixture[str]) -> None:
    for name in MADE_TO_SHOW:
        for cause in diagnose(name, "iostat-x-t.txt", capsys)["causes"]:
            assert cause["evidence"] and cause["sources"]
            for evidence in cause["evidence"]:
                assert evidence["window"] and evidence["source"], (name, evidence)


@pytest.mark.parametrize("fmt", DEVICE_FORMATS)
def test_a_slow_device_is_named_on_the_loop_and_its_time_placed_below_it(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """slow-device: loop1's reads take ~100 ms each with one in flight, none queued; loop0 under its backing
    file serves each at once (the blkio throttle delays them before it). IOD007 for loop1, whose time is spent
    below it, and no cause for loop0 or the virtio disk."""
    here = scenario("slow-device")
    args = ["diagnose", *map(str, inputs("slow-device", fmt)), "--root", str(here / "root"), "--format", "json"]
    assert main(args) == 0
    devices = {d["device"]: d for d in json.loads(capsys.readouterr().out)["devices"]}
    upper = devices.pop("loop1")
    assert [c["id"] for c in upper["causes"]] == ["IOD007"], (fmt, upper["facts"])
    assert upper["stacked_on"] == ["loop0"] and "time is spent below loop1" in upper["stacking"]
    assert upper["plan_context"] == {} and all(e["window"] and e["source"] for e in upper["causes"][0]["evidence"])
    assert devices["loop0"]["verdict"] == "healthy"
    assert all(d["verdict"] == "healthy" for d in devices.values()), fmt


@pytest.mark.parametrize(("name", "paused"), [("writeback-none", True), ("dirty-flush", False)])
@pytest.mark.parametrize("memory", ["meminfo.log", "proc-vmstat.log"])
def test_the_freerun_ceiling_is_told_from_the_kernels_thresholds_or_from_meminfo(
    name: str, paused: bool, memory: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whether dirty memory passed the level where balance_dirty_pages pauses a writer: /proc/vmstat gives the
    kernel's thresholds, /proc/meminfo alone an estimate from MemAvailable; both tell the paused writer of
    writeback-none from dirty-flush's, which the flusher kept at the background threshold."""
    here = scenario(name)
    args = ["diagnose", str(here / "iostat-x-t.txt"), str(here / memory), str(here / "pressure-io.log"), "--format",
            "json"]  # fmt: skip
    assert main(args) == 0
    found = {d["device"]: d for d in json.loads(capsys.readouterr().out)["devices"]}[device(name)]
    assert (found["facts"]["obs.dirty_pct_of_freerun"] >= 100) is paused
    assert ("IOD001" in [c["id"] for c in found["causes"]]) is paused
