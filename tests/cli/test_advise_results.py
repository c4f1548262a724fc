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


def _write_runs(directory: Path, runs: dict[str, tuple[float, float]], rounds: int = 5) -> None:
    template = json.loads(REAL.read_text())
    for scheduler, (iops, p99) in runs.items():
        for rnd in range(1, rounds + 1):
            jitter = 1 + rnd / 100
            doc = _scaled(template, iops * jitter, p99 * jitter)
            (directory / f"randread-{scheduler}-r{rnd}.json").write_text(json.dumps(doc))


def _measurements(path: Path) -> list[dict]:
    """What one result file holds, as ``iosched compare --format json`` lists it."""
    from iosched.measure import load

    return [m.to_json() for m in load([path], names=frozenset(), scheduler_hint="none").measurements]


def _plan(results: Path | list[Path], capsys: pytest.CaptureFixture[str], *context: str) -> dict:
    paths = [str(p) for p in (results if isinstance(results, list) else [results])]
    argv = [*(context or ("--hw", "nvme", "--workload", "db", "--kernel", "6.8")), "--format", "json"]
    assert main(["advise", *argv, "--results", *paths]) == 0
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


def test_the_plan_context_holds_only_what_the_user_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_runs(tmp_path, {"none": (10_000, 1_000), "kyber": (20_000, 500)})
    plan = _plan(tmp_path, capsys)
    assert plan["context"] == {"hw": "nvme", "workload": "db", "kernel": "6.8"}
    argv = ["advise", "--hw", "nvme", "--workload", "db", "--kernel", "6.8", "--format", "markdown", "--results",
            str(tmp_path)]  # fmt: skip
    assert main(argv) == 0
    assert "**Measured**" in capsys.readouterr().out  # the answer says what the measurements showed
    assert main([*argv, "--detail", "full"]) == 0
    context_line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("Context:"))
    assert context_line == "Context: hw=nvme, workload=db, kernel=6.8"


def test_one_result_given_three_times_is_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three copies of one run per scheduler once made a 3 + 3 'complete separation' and switched schedulers."""
    _write_runs(tmp_path, {"none": (10_000, 1_000), "kyber": (20_000, 500)}, rounds=1)
    copies = tmp_path / "copies"
    copies.mkdir()
    for name in ("none", "kyber"):
        for n in (1, 2, 3):
            (copies / f"randread-{name}-copy{n}.json").write_bytes((tmp_path / f"randread-{name}-r1.json").read_bytes())
    same_file = [tmp_path / "randread-none-r1.json", tmp_path / "randread-kyber-r1.json"] * 3
    for results in (copies, same_file):
        plan = _plan(results, capsys)
        assert plan["scheduler"] == "none" and plan["scheduler_rules"] == ["IOS101"]
        per_run = len({(m["test"], m["metric"]) for m in _measurements(copies / "randread-none-copy1.json")})
        assert plan["measured"][0].startswith(f"{2 * per_run} measurements of kyber, none")
        assert any("counted once" in line for line in plan["measured"])


def test_fairness_goal_is_judged_on_tail_latency(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from iosched.knowledge.kbcache import load_checked

    goal = next(w.goal for w in load_checked().section("workloads") if w.id == "fileserver")
    assert goal == "fairness"
    # none: the same IOPS as bfq (the rules' choice for a file server on a disk), a tenth of the tail latency
    _write_runs(tmp_path, {"bfq": (10_000, 5_000), "none": (10_050, 500)})
    plan = _plan(tmp_path, capsys, "--hw", "hdd", "--workload", "fileserver")
    assert plan["scheduler"] == "none" and plan["scheduler_rules"] == ["IOS190"]
    assert "goal: fairness" in plan["measured"][0] and "tail latency" in plan["measured"][0]
    assert any("read_clat_p99" in line and "lower is better" in line for line in plan["measured"][1:])
    throughput = _plan(tmp_path, capsys, "--hw", "hdd", "--workload", "fileserver", "--goal", "throughput")
    assert "IOS190" not in throughput["scheduler_rules"]  # IOPS tie: for throughput the measurements decide nothing


def test_fifo_as_results_is_refused_not_waited_on(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    fifo = tmp_path / "none-results.json"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "iosched", "advise", "--hw", "ssd", "--results", str(fifo)],
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 2 and "not a regular file" in done.stderr and done.stderr.count("\n") == 1
