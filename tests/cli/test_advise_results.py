"""`advise --results`: significant measured evidence outranks heuristics; a tie keeps the rule-based choice."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from iosched.cli import main

REAL = Path(__file__).resolve().parents[1] / "measure" / "fixtures" / "bench-none-bfq" / "randread-none-r1.json"


def _scaled(template: dict, iops: float, p99_us: float) -> dict:
    """The real fio 3 output with its read IOPS, bandwidth and latency percentiles set to new values."""
    doc = copy.deepcopy(template)
    read = doc["jobs"][0]["read"]
    factor = iops / read["iops"]
    read["iops"] = iops
    for key in ("bw", "bw_bytes", "io_bytes", "io_kbytes"):
        read[key] = int(read[key] * factor)
    for section in ("clat_ns", "lat_ns"):
        if "percentile" in read.get(section, {}):
            read[section]["percentile"] = {k: int(p99_us * 1000) for k in read[section]["percentile"]}
        read.get(section, {})["mean"] = p99_us * 500
    return doc


def _write_runs(directory: Path, runs: dict[str, tuple[float, float]]) -> None:
    template = json.loads(REAL.read_text())
    for scheduler, (iops, p99) in runs.items():
        for rnd in (1, 2, 3):
            jitter = 1 + rnd / 100
            doc = _scaled(template, iops * jitter, p99 * jitter)
            (directory / f"randread-{scheduler}-r{rnd}.json").write_text(json.dumps(doc))


def _plan(directory: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    argv = ["advise", "--hw", "nvme", "--workload", "db", "--kernel", "6.8", "--format", "json", "--results",
            str(directory)]  # fmt: skip
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_a_clear_measured_winner_outranks_the_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_runs(tmp_path, {"none": (10_000, 1_000), "kyber": (20_000, 500)})
    plan = _plan(tmp_path, capsys)
    assert plan["scheduler"] == "kyber"
    assert plan["scheduler_rules"] == ["IOS190"]
    assert any(o["rule"] == "IOS101" and o["winner"] == "IOS190" for o in plan["overridden"])
    assert any("kyber" in line and "better" in line for line in plan["measured"])


def test_a_difference_inside_the_noise_keeps_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_runs(tmp_path, {"none": (10_000, 1_000), "kyber": (10_100, 990)})
    plan = _plan(tmp_path, capsys)
    assert plan["scheduler"] == "none" and plan["scheduler_rules"] == ["IOS101"]
    assert plan["measured"]


def test_unrecognised_results_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("this is not a benchmark\n")
    assert main(["advise", "--hw", "ssd", "--results", str(junk)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
