"""verify reports every device it was asked about: a skipped device is a row with its reason and status n/a,
``compliant`` needs at least one compared setting, and naming a device that is not planned is exit 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.observe.loops import UNATTACHED

CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
DEBIAN = CAPTURES / "debian12-vm-live"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def skipped_reasons(capsys: pytest.CaptureFixture[str], root: Path) -> dict[str, str]:
    _, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "json")
    return {s["device"]: s["reason"] for s in json.loads(out)["skipped"]}


def test_a_skipped_device_named_with_device_is_exit_1_with_its_reason(capsys) -> None:
    reasons = skipped_reasons(capsys, DEBIAN)
    device = sorted(reasons)[0]
    code, out, _ = run(capsys, "verify", "--root", str(DEBIAN), "--device", device, "--workload", "db")
    assert code == 1
    assert "compliant" not in out and reasons[device].split(":")[0] in out
    assert f"| {device} | not planned | - | - | n/a |" in out
    code, out, _ = run(capsys, "verify", "--root", str(DEBIAN), "--device", device, "--format", "json")
    document = json.loads(out)
    assert code == 1 and not document["compliant"] and document["compared"] == 0
    assert document["unchecked"] == [device]
    assert [(r["device"], r["status"], r["because"]) for r in document["rows"]] == [(device, "n/a", reasons[device])]


def test_every_skipped_device_of_a_host_is_a_row_and_does_not_spoil_a_compliant_host(tmp_path: Path, capsys) -> None:
    root = tmp_path / "host"
    shutil.copytree(DEBIAN, root, symlinks=True)
    _, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "json")
    document = json.loads(out)
    for plan in document["plans"]:
        for step in plan["steps"]:
            assert step["kind"] == "scheduler", "this capture's plan changes only the scheduler"
            (root / f"sys/block/{plan['device']}/queue/scheduler").write_text(f"[{step['value']}] none\n")
        for path, content in plan["files"].items():
            (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
            (root / path.lstrip("/")).write_text(content + "\n")
    code, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db", "--format", "json")
    verified = json.loads(out)
    assert code == 0 and verified["compliant"] and verified["verdict"] == "compliant"
    na = {r["device"]: r["because"] for r in verified["rows"] if r["setting"] == "not planned"}
    assert na and all(na[s["device"]] == s["reason"] for s in document["skipped"] if s["reason"] != UNATTACHED)
    empty = [s["device"] for s in document["skipped"] if s["reason"] == UNATTACHED]
    assert sum("unattached" in reason for reason in na.values()) == (1 if empty else 0)


def test_a_host_with_nothing_planned_is_not_compliant(tmp_path: Path, capsys) -> None:
    root = tmp_path / "host"
    shutil.copytree(DEBIAN, root, symlinks=True)
    reasons = skipped_reasons(capsys, root)
    for name in (root / "sys/block").iterdir():
        if name.name not in reasons:
            shutil.rmtree(name) if name.is_dir() and not name.is_symlink() else name.unlink()
    code, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db")
    assert code == 1 and "nothing compared" in out and "**compliant**" not in out


def test_a_device_the_host_does_not_have_is_a_usage_error(capsys) -> None:
    code, out, err = run(capsys, "verify", "--root", str(DEBIAN), "--device", "sdq", "--workload", "db")
    assert code == 2 and out == "" and "sdq" in err and err.count("\n") == 1
    code, out, err = run(capsys, "advise", "--root", str(DEBIAN), "--device", "sdq", "--workload", "db")
    assert code == 2 and out == "" and "sdq" in err
