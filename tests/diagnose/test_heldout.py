"""The held-out captures (fixtures/heldout/README.md): each is diagnosed as its README says, from every device
format, and nothing is invented for the traps (a light read phase after a flood, the healthy disk under the loop)."""

from __future__ import annotations

import json

import pytest
from diagnose_helpers import DEVICE_FORMATS, FIXTURES, HOST_FILES

from iosched.cli import main

HELDOUT = FIXTURES / "heldout"
EXPECTED = {"throttled": ["IOD008"], "intermittent": ["IOD004"], "writeback-reads": ["IOD001"], "phases": []}
"""Scenario -> the causes named for its loop device, as README.md explains each."""


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
    found = _diagnosed(name, fmt, capsys)["loop0"]
    assert [c["id"] for c in found["causes"]] == EXPECTED[name], (fmt, found["facts"])
    for cause in found["causes"]:
        assert all(e["window"] and e["source"] for e in cause["evidence"])
    if not EXPECTED[name]:
        assert found["verdict"] == "unknown" and found["capture_next"] and found["plan_context"] == {}


def test_saturation_in_one_phase_names_the_phase(capsys: pytest.CaptureFixture[str]) -> None:
    (cause,) = _diagnosed("intermittent", "iostat-x-t.txt", capsys)["loop0"]["causes"]
    assert all(e["window"].startswith("phase 2 of 2: ") for e in cause["evidence"])


def test_the_disk_under_the_loop_gets_no_invented_cause(capsys: pytest.CaptureFixture[str]) -> None:
    """vda, barely used under the saturated loop device, is healthy (diskstats measures it too)."""
    assert _diagnosed("intermittent", "diskstats.log", capsys)["vda"]["verdict"] == "healthy"
