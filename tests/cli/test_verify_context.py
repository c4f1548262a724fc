"""`iosched verify` takes the context the way advise does: a --context file says what the flags say, and the
options verify lacks (--example, --kernel ...) are simply absent, not patched into its arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iosched.cli import main

CAPTURE = Path(__file__).resolve().parents[1] / "observe" / "captures" / "sos-rhel8-kvm-lvm"


def _verify(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, dict]:
    code = main(["verify", "--root", str(root), "--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_a_context_file_says_what_the_flags_say(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = CAPTURE.parent / "sos-rhel9-nvme-links"  # streaming raises read-ahead on its NVMe disk
    context = tmp_path / "context.yaml"
    context.write_text("workload: streaming\ngoal: throughput\n", encoding="utf-8")
    by_file = _verify(capsys, root, "--context", str(context))
    by_flags = _verify(capsys, root, "--workload", "streaming", "--goal", "throughput")
    default = _verify(capsys, root)
    assert by_file == by_flags
    assert by_file != default  # the context changed the plan that verify held the host to


def test_a_context_file_verify_cannot_read_is_a_usage_error(tmp_path: Path, capsys) -> None:
    context = tmp_path / "context.yaml"
    context.write_text("workload: [db]\n", encoding="utf-8")
    assert main(["verify", "--root", str(CAPTURE), "--context", str(context)]) == 2
    assert "context file" in capsys.readouterr().err
