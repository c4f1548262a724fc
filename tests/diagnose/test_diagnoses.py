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
    "dirty-flush": ["IOD001"],
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
