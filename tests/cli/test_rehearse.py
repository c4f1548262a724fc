"""Rehearsal: a scratch loop device planned as if it were the hardware named, marked as such in every format,
and really applied and undone; unattached loop devices are one line in the reports people read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.observe.loops import UNATTACHED

CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
REHEARSE = ("advise", "--device", "loop3", "--rehearse", "SSD", "--workload", "db")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def rehearsal_rule(kb) -> str:
    (rule,) = [r for r in kb.section("rules") if getattr(r.when, "fact", None) == "device.rehearsal"]
    return rule.id


def test_a_rehearsal_is_marked_in_every_format(kb, capsys) -> None:
    rule = rehearsal_rule(kb)
    code, out, _ = run(capsys, *REHEARSE, "--format", "json")
    plan = json.loads(out)
    assert code == 0 and plan["device"] == "loop3" and plan["context"]["rehearse"] == "ssd"
    assert plan["context"]["hw"] == "ssd" and plan["facts"]["device.rehearsal"] is True
    assert rule in [w["id"] for w in plan["warnings"]] and plan["scheduler"]
    for fmt in ("text", "markdown", "sh", "ansible"):
        code, out, _ = run(capsys, *REHEARSE, "--format", fmt)
        assert code == 0 and "REHEARSAL" in out and rule in out, fmt
    code, out, _ = run(capsys, "advise", "--hw", "ssd", "--device", "sdb", "--workload", "db", "--format", "json")
    assert rule not in [w["id"] for w in json.loads(out)["warnings"]]


def test_a_rehearsal_touches_only_its_loop_device_and_persists_nothing(kb, capsys) -> None:
    """Whatever the workload and hardware, a rehearsal's steps are of the loop device, it writes no file, and the
    host-wide steps the same plan has on a real disk (vm.dirty_ratio for a dirty-stall) are named as left out."""
    real = ("--hw", "hdd", "--device", "sdb", "--workload", "batch", "--distro", "sles12sp5",
            "--symptom", "dirty-stall")  # fmt: skip
    code, out, _ = run(capsys, "advise", *real, "--format", "json")
    host_wide = [s for s in json.loads(out)["steps"] if s["device"] is None]
    assert code == 0 and host_wide and json.loads(out)["files"]
    rehearsed = ("--device", "loop3", "--rehearse", "hdd", *real[4:])
    code, out, _ = run(capsys, "advise", *rehearsed, "--format", "json")
    plan = json.loads(out)
    assert code == 0 and plan["steps"] and all(s["device"] == "loop3" for s in plan["steps"]) and not plan["files"]
    (said,) = [w["text"] for w in plan["warnings"] if w["id"] == rehearsal_rule(kb)]
    assert all(f"{s['target']} = {s['value']}" in said for s in host_wide) and "Left out" in said
    code, script, _ = run(capsys, "advise", *rehearsed, "--format", "sh")
    assert code == 0 and not any("converge sysctl" in line for line in script.splitlines())
    assert "persist_file '/" not in script
    planned = 0
    for hw in (h.id for h in kb.section("hardware")):
        for workload in (w.id for w in kb.section("workloads")):
            code, out, _ = run(capsys, "advise", "--device", "loop3", "--rehearse", hw, "--workload", workload,
                               "--format", "json")  # fmt: skip
            if code == 0:
                plan = json.loads(out)
                assert all(s["device"] == "loop3" for s in plan["steps"]) and not plan["files"], (hw, workload)
                planned += bool(plan["steps"])
    assert planned >= 10


@pytest.mark.parametrize(
    ("argv", "said"),
    [(("--device", "loop3", "--hw", "ssd"), "--rehearse"), (("--device", "sdb", "--rehearse", "ssd"), "not one"),
     (("--rehearse", "ssd"), "--device loopN"),
     (("--device", "loop3", "--rehearse", "ssd", "--hw", "hdd"), "contradicts"),
     (("--device", "loop3", "--rehearse", "sdd"), "did you mean ssd")],
)  # fmt: skip
def test_rehearsal_is_only_for_scratch_loop_devices(argv: tuple[str, ...], said: str, capsys) -> None:
    code, out, err = run(capsys, "advise", *argv)
    assert code == 2 and out == "" and said in err and err.count("\n") == 1


def _with_empty_loops(tmp_path: Path) -> tuple[Path, list[str]]:
    root = tmp_path / "host"
    shutil.copytree(CAPTURES / "debian12-vm-live", root, symlinks=True)
    loops = sorted(p.name for p in (root / "sys/block").iterdir() if p.name.startswith("loop"))
    for name in loops[1:]:
        (root / "sys/block" / name / "size").write_text("0\n")
    return root, loops[1:]


def test_unattached_loop_devices_are_one_line_in_reports(tmp_path: Path, capsys) -> None:
    root, empty = _with_empty_loops(tmp_path)
    assert len(empty) >= 3
    code, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "markdown")
    assert code == 0 and sum(name in out for name in empty) == 2  # the first and last name the run, in one line
    assert out.count("unattached loop") == 1 and f"{len(empty)} unattached" in out
    _, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "sh")
    assert out.count("unattached loop") == 1
    _, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "json")
    skipped = {s["device"]: s["reason"] for s in json.loads(out)["skipped"]}
    assert all(skipped[name] == UNATTACHED for name in empty), "JSON keeps every device"
    code, out, _ = run(capsys, "probe", "--root", str(root))
    assert code == 0 and out.count("unattached loop") == 1
    assert not any(line.startswith(empty[1] + " ") for line in out.splitlines())
    _, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db")
    assert out.count("unattached loop") == 1
    other = tmp_path / "other"
    shutil.copytree(root, other, symlinks=True)
    for name in ("etc/hostname", "proc/sys/kernel/hostname"):
        (other / name).write_text("other\n")
    code, out, _ = run(capsys, "fleet", str(root), str(other), "--workload", "db", "--format", "markdown")
    assert code == 0 and out.count("unattached loop") == 1 and f"{2 * len(empty)} unattached" in out


@pytest.mark.root
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("losetup"), reason="needs root and losetup")
def test_a_rehearsed_plan_is_applied_and_undone_on_a_loop_device(tmp_path: Path) -> None:
    image = tmp_path / "scratch.img"
    image.write_bytes(b"")
    os.truncate(image, 32 * 1024 * 1024)
    attached = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True, check=True)
    device = Path(attached.stdout.strip()).name
    queue = Path(f"/sys/block/{device}/queue")
    iosched = [sys.executable, "-m", "iosched"]
    args = ["advise", "--probe", "--device", device, "--rehearse", "ssd", "--workload", "db"]
    journal = tmp_path / "undo.sh"
    written: list[Path] = []
    try:
        (queue / "scheduler").write_text("none")
        before = {p.name: p.read_text() for p in queue.iterdir() if p.is_file() and os.access(p, os.W_OK)}
        out = subprocess.run([*iosched, *args, "--format", "json"], capture_output=True, text=True, check=True).stdout
        (plan,) = json.loads(out)["plans"]
        assert plan["device"] == device and plan["previous_scheduler"] == "none" and plan["steps"]
        written = [Path(p) for p in plan["files"]]
        assert written == [], "a rehearsal persists nothing"
        script = subprocess.run([*iosched, *args, "--format", "sh"], capture_output=True, text=True, check=True).stdout
        env = {**os.environ, "IOSCHED_JOURNAL": str(journal)}
        subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, text=True)
        scheduler = next(s["value"] for s in plan["steps"] if s["kind"] == "scheduler")
        assert f"[{scheduler}]" in (queue / "scheduler").read_text()
        assert all(p.exists() for p in written)
        subprocess.run(["sh", str(journal)], env=env, check=True, capture_output=True, text=True)
        after = {p.name: p.read_text() for p in queue.iterdir() if p.is_file() and os.access(p, os.W_OK)}
        assert after == before and not any(p.exists() for p in written)
    finally:
        for path in written:
            path.unlink(missing_ok=True)
        (queue / "scheduler").write_text("none")
        subprocess.run(["losetup", "-d", f"/dev/{device}"], check=False)


@pytest.mark.parametrize(
    ("devices", "shown"),
    [(["loop0", "loop2", "loop3", "loop4"], "loop0, loop2-loop4"), (["loop1", "loop2"], "loop1, loop2"),
     ([f"loop{n}" for n in range(8)], "loop0-loop7")],
)  # fmt: skip
def test_loop_names_are_runs(devices: list[str], shown: str) -> None:
    from iosched.observe.loops import names

    assert names(devices) == shown
