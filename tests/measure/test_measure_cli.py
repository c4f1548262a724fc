"""``iosched compare`` and ``iosched bench`` argument handling through ``iosched.cli.main``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from measure_helpers import FIXTURES

from iosched.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_text_table_and_recommendation(capsys) -> None:
    code, out, err = run(capsys, "compare", str(FIXTURES / "bench-none-bfq"), "--points")
    assert code == 0, err
    assert "randread  read_iops" in out and "baseline" in out
    assert "Recommendation: none" in out
    assert "Naive points method" in out and "winner: bfq" in out


def test_compare_json_contract(capsys) -> None:
    code, out, _ = run(capsys, "compare", str(FIXTURES / "iozone-scheduler-sda-all-results.log"),
                       "--baseline", "none", "--format", "json")  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    # mq-deadline is 12 % faster in each of the log's 3 rounds: 3 + 3 runs cannot reach p <= 0.05
    assert doc["baseline"] == "none" and doc["recommendation"] == "none" and not doc["significant"]
    mq = [v for v in doc["verdicts"] if v["scheduler"] == "mq-deadline"]
    assert mq and all(v["verdict"] == "insufficient" and v["ratio"] > 1.1 for v in mq)
    assert all(v["ci_low"] is not None for v in mq)  # the JSON shows the intervals, so they are computed
    assert all({"scheduler", "test", "metric", "value", "unit", "run"} <= set(m) for m in doc["measurements"])
    assert doc["notes"]


def test_compare_markdown_and_svg_chart(capsys, tmp_path) -> None:
    chart = tmp_path / "chart.svg"
    code, out, _ = run(capsys, "compare", str(FIXTURES / "bench-none-bfq"), "--format", "markdown",
                       "--chart", str(chart))  # fmt: skip
    assert code == 0 and out.startswith("# Scheduler comparison")
    root = ET.fromstring(chart.read_text())
    assert root.tag.endswith("svg") and len(root.findall("{http://www.w3.org/2000/svg}rect")) > 2


def test_compare_one_scheduler_still_prints_measurements(capsys) -> None:
    code, out, _ = run(capsys, "compare", f"bfq={FIXTURES / 'pgbench-17.6-tpcb.txt'}")
    assert code == 0
    assert "Only bfq was measured" in out and "pgbench  tps" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", str(FIXTURES / "README.md")],
        ["compare", str(FIXTURES / "nope.json")],
        ["compare", str(FIXTURES / "pgbench-17.6-tpcb.txt")],
        ["compare", str(FIXTURES / "bench-none-bfq"), "--baseline", "kyber"],
        ["compare", str(FIXTURES / "bench-none-bfq"), "--chart", "out.png"],
        ["compare", f"Not/A=Name={FIXTURES / 'pgbench-17.6-tpcb.txt'}"],
        ["compare"],
        ["bench", "../sda", "--runtime", "1"],
        ["bench", "sda/1"],
        ["bench", "loop0", "--loop", "64M"],
        ["bench"],
        ["bench", "--loop", "12Q"],
        ["bench", "--loop", "1M"],
        ["bench", "--loop", "64M", "--workload", "nope"],
        ["bench", "--loop", "64M", "--rounds", "0"],
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("iosched: error:") and err.count("\n") == 1
