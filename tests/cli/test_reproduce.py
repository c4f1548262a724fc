"""The reproduce command every output format names runs as written and gives the same plan: parsed from the
output, run in the same format, it prints the same document."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from iosched.cli import main

CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
FORMATS = ("sh", "markdown", "json", "ansible")
FLAGS = ("--hw", "raid", "--workload", "db", "--distro", "sles12sp5", "--device", "sdc",
         "--wwn", "0x5000c500a1b2c3d4", "--cache", "battery-backed", "--fs", "ext4", "--mountpoint", "/srv/pg-data",
         "--kernel", "4.12.14", "--io-path", "legacy", "--mount-options", "rw,nobarrier", "--goal", "throughput",
         "--symptom", "dirty-stall", "--scheduler", "cfq", "--persist", "udev,sysctl")  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def reproduce_of(fmt: str, out: str) -> list[str]:
    """The reproduce command an output names, as argv."""
    patterns = {"sh": r"^# iosched \S+ plan \(KB \S+\): (iosched advise .*)$", "markdown": r"^Reproduce: `(.*)`$",
                "ansible": r"^# reproduce: (.*)$"}  # fmt: skip
    if fmt == "json":
        line = json.loads(out)["reproduce"]
    else:
        found = re.search(patterns[fmt], out, re.MULTILINE)
        assert found, f"no reproduce line in {fmt}"
        line = found[1]
    argv = shlex.split(line)
    assert argv[:2] == ["iosched", "advise"]
    return argv[1:]


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> None:
    for fmt in FORMATS:
        first = run(capsys, *argv, "--format", fmt)
        again = run(capsys, *reproduce_of(fmt, first), "--format", fmt)
        assert again == first, fmt


def test_every_kb_example_is_reproduced_in_every_format(kb, capsys) -> None:
    examples = kb.section("examples")
    assert examples
    for example in examples:
        check(capsys, "advise", "--example", example.id)


def test_every_context_flag_is_reproduced(capsys) -> None:
    check(capsys, "advise", *FLAGS)
    out = run(capsys, "advise", *FLAGS, "--format", "json")
    assert set(json.loads(out)["context"]) == {f.lstrip("-").replace("-", "_") for f in FLAGS[::2]} - {"symptom"} | {
        "symptoms"
    }


def test_a_context_file_is_reproduced_without_the_file(tmp_path: Path, capsys) -> None:
    context = tmp_path / "host.yaml"
    context.write_text("hw: nvme\nworkload: analytics\nkernel: '5.15'\ndevice: nvme1n1\n")
    for fmt in FORMATS:
        first = run(capsys, "advise", "--context", str(context), "--format", fmt)
        assert str(context) not in first
        assert run(capsys, *reproduce_of(fmt, first), "--format", fmt) == first


@pytest.mark.parametrize("capture", sorted(p.name for p in CAPTURES.iterdir() if p.is_dir()))
def test_a_host_plan_is_reproduced_by_reading_the_host_again(capture: str, capsys) -> None:
    check(capsys, "advise", "--root", str(CAPTURES / capture), "--workload", "db", "--cache", "volatile")


def test_a_synonym_plans_the_same_as_the_id_its_reproduce_line_names(kb, capsys) -> None:
    synonym = next(s for w in kb.section("workloads") for s in w.synonyms)
    first = json.loads(run(capsys, "advise", "--hw", "ssd", "--workload", synonym, "--format", "json"))
    again = json.loads(run(capsys, *reproduce_of("json", json.dumps(first)), "--format", "json"))
    first["assumptions"] = [a for a in first["assumptions"] if synonym not in a["text"]]
    first["answer"]["assumptions"] = [a for a in first["answer"]["assumptions"] if synonym not in a["text"]]
    assert again == first


def test_a_plan_with_measured_results_is_reproduced_with_them(tmp_path: Path, capsys) -> None:
    from tests.cli.test_advise_results import _write_runs

    _write_runs(tmp_path, {"none": (10_000, 1_000), "kyber": (20_000, 500)})
    argv = ("advise", "--hw", "nvme", "--workload", "db", "--kernel", "6.8", "--results", str(tmp_path))
    first = json.loads(run(capsys, *argv, "--format", "json"))
    assert first["measured"] and "--results" in first["reproduce"]
    check(capsys, *argv)
