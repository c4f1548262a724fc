"""advise --root/--probe plans every device of a host from what was read; verify flips between differs and
ok as the capture changes; live, on a loop device: probe, plan, apply the sh plan, verify, undo, verify."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from captured import copy_capture
from iosched.cli import main
from iosched.mechanisms import udev
from iosched.observe.reader import read_root
from iosched.persist import files

CAPTURES = Path(__file__).parent / "captures"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("capture", sorted(p.name for p in CAPTURES.iterdir() if p.is_dir()))
def test_every_device_is_planned_or_skipped_with_the_real_previous(capture: str, capsys) -> None:
    root = CAPTURES / capture
    system = read_root(root)
    code, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "json")
    assert code == 0
    document = json.loads(out)
    planned = {p["device"]: p for p in document["plans"]}
    skipped = {s["device"]: s["reason"] for s in document["skipped"]}
    assert planned, "a capture with disks plans at least one"
    assert set(planned) | set(skipped) == {d.name for d in system.devices}
    for name, plan in planned.items():
        device = system.device(name)
        assert plan["previous_scheduler"] == device.scheduler, name
        assert plan["kernel"] in system.host.kernel
        assert plan["context"]["distro"] == document["host"]["distro"]
    for device in system.devices:
        if device.kind == "partition" or device.parent:
            assert "partition" in skipped[device.name]
        if any((d.dm_uuid or "").startswith("mpath-") for d in system.devices if d.name in device.holders):
            assert "multipath" in skipped[device.name]


def test_multipath_is_planned_on_the_dm_device_and_lvm_on_its_disks(capsys) -> None:
    code, out, _ = run(capsys, "advise", "--root", str(CAPTURES / "sos-sles12sp5-legacy-mpath"), "--format", "json")
    assert code == 0
    document = json.loads(out)
    planned = {p["device"] for p in document["plans"]}
    skipped = {s["device"]: s["reason"] for s in document["skipped"]}
    assert "dm-0" in planned and {"sdb", "sdc"} <= set(skipped)
    assert all("bio-based" in skipped[d] for d in ("dm-1", "dm-2"))
    _, out, _ = run(capsys, "advise", "--root", str(CAPTURES / "sos-rhel8-kvm-lvm"), "--format", "json")
    document = json.loads(out)
    assert {"vda"} <= {p["device"] for p in document["plans"]}
    lvm = {s["device"]: s["reason"] for s in document["skipped"] if s["device"].startswith("dm-")}
    assert lvm and all("(vda)" in reason for reason in lvm.values())


def _multiqueue_guest(tmp_path: Path) -> Path:
    """The Debian guest's capture with four hardware queues on vda and an old admin's udev rule that gives vd* disks
    mq-deadline at boot: the plan moves vda to none, and must persist it (its rule sorts after the old one)."""
    root = copy_capture("debian12-vm-live", tmp_path / "host", vda=4)
    old = root / "etc/udev/rules.d/10-old-admin.rules"
    old.parent.mkdir(parents=True, exist_ok=True)
    old.write_text('ACTION=="add|change", KERNEL=="vd*", ATTR{queue/scheduler}="mq-deadline"\n')
    return root


def test_verify_flips_from_differs_to_ok_as_the_capture_changes(tmp_path: Path, capsys) -> None:
    root = _multiqueue_guest(tmp_path)
    code, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db", "--format", "json")
    before = json.loads(out)
    assert code == 1 and not before["compliant"]
    differing = [r for r in before["rows"] if r["status"] == "differs"]
    assert differing and all(r["device"] == "vda" for r in differing)
    # make the capture what the plan wants: the scheduler, and the udev rule that keeps it
    _, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "json")
    (plan,) = [p for p in json.loads(out)["plans"] if p["device"] == "vda"]
    (step,) = [s for s in plan["steps"] if s["kind"] == "scheduler"]
    (root / "sys/block/vda/queue/scheduler").write_text(f"mq-deadline kyber bfq [{step['value']}]\n")
    code, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db", "--format", "json")
    half = json.loads(out)
    assert code == 1 and [r["setting"] for r in half["rows"] if r["status"] == "differs"] == ["persist scheduler"]
    for path, content in plan["files"].items():
        (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / path.lstrip("/")).write_text(content + "\n")
    code, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db", "--format", "json")
    after = json.loads(out)
    assert code == 0 and after["compliant"], [r for r in after["rows"] if r["status"] != "ok"]
    assert any(r["setting"] == "scheduler" and r["device"] == "vda" and r["status"] == "ok" for r in after["rows"])


def test_a_later_udev_rule_that_sets_the_scheduler_wins_and_verify_says_so(tmp_path: Path, capsys) -> None:
    root = _multiqueue_guest(tmp_path)
    _, out, _ = run(capsys, "advise", "--root", str(root), "--workload", "db", "--format", "json")
    (plan,) = [p for p in json.loads(out)["plans"] if p["device"] == "vda"]
    (step,) = [s for s in plan["steps"] if s["kind"] == "scheduler"]
    (root / "sys/block/vda/queue/scheduler").write_text(f"mq-deadline kyber bfq [{step['value']}]\n")
    for path, content in plan["files"].items():
        (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / path.lstrip("/")).write_text(content + "\n")
    later = root / "etc/udev/rules.d/99-local.rules"
    later.write_text('ACTION=="add|change", KERNEL=="vd*", ATTR{queue/scheduler}="bfq"\n')
    code, out, _ = run(capsys, "verify", "--root", str(root), "--workload", "db", "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == 1
    assert any(r["setting"] == "persist scheduler" and "99-local.rules" in (r["actual"] or "") for r in rows)


def test_verify_needs_a_host(capsys) -> None:
    code, _, err = run(capsys, "verify", "--workload", "db")
    assert code == 2 and err.count("\n") == 1


@pytest.mark.root
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("losetup"), reason="needs root and losetup")
def test_live_probe_plan_apply_verify_undo_on_a_loop_device(tmp_path: Path) -> None:
    image = tmp_path / "disk.img"
    image.write_bytes(b"")
    os.truncate(image, 64 * 1024 * 1024)
    loop = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True, check=True)
    device = Path(loop.stdout.strip()).name
    scheduler = Path(f"/sys/block/{device}/queue/scheduler")
    original = scheduler.read_text()
    iosched = [sys.executable, "-m", "iosched"]
    common = ["--probe", "--device", device, "--rehearse", "ssd", "--workload", "db"]
    journal = tmp_path / "undo.sh"
    written: list[Path] = []
    try:
        scheduler.write_text("none")
        plan = json.loads(subprocess.run([*iosched, "advise", *common, "--format", "json"], capture_output=True,
                                         text=True, check=True).stdout)  # fmt: skip
        (device_plan,) = plan["plans"]
        assert device_plan["previous_scheduler"] == "none" and device_plan["scheduler"] == "mq-deadline"
        written = [Path(p) for p in device_plan["files"]]
        assert not any(p.exists() for p in written), "a test must not overwrite this machine's own files"
        differs = subprocess.run([*iosched, "verify", *common, "--format", "json"], capture_output=True, text=True)
        assert differs.returncode == 1
        script = subprocess.run([*iosched, "advise", *common, "--format", "sh"], capture_output=True, text=True,
                                check=True).stdout  # fmt: skip
        env = {**os.environ, "IOSCHED_JOURNAL": str(journal)}
        subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, text=True)
        assert "[mq-deadline]" in scheduler.read_text()
        ok = subprocess.run([*iosched, "verify", *common, "--format", "json"], capture_output=True, text=True)
        assert ok.returncode == 0, ok.stdout
        assert json.loads(ok.stdout)["compliant"]
        subprocess.run(["sh", str(journal)], env=env, check=True, capture_output=True, text=True)
        assert "[none]" in scheduler.read_text()
        assert not any(p.exists() for p in written)
        again = subprocess.run([*iosched, "verify", *common, "--format", "json"], capture_output=True, text=True)
        assert again.returncode == 1
    finally:
        for path in written:
            path.unlink(missing_ok=True)
        scheduler.write_text(original[original.index("[") + 1 : original.index("]")] if "[" in original else "none")
        subprocess.run(["losetup", "-d", f"/dev/{device}"], check=False)


def test_files_of_a_host_plan_are_one_udev_file_per_device() -> None:
    from iosched.knowledge.context import Context
    from iosched.knowledge.kbcache import load_checked
    from iosched.observe.classify import classified
    from iosched.planning.hostplan import plan_host

    kb = load_checked()
    distros, presets = {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")}
    system = classified(read_root(CAPTURES / "sos-sles12sp5-legacy-mpath"), distros, presets)
    host = plan_host(kb, system, Context(workload="db"))
    merged = files(host.plans)
    ruled = {p.device for p in host.plans if any(s.persist_method == "udev-rule" for s in p.steps)}
    assert ruled and {path for path in merged if udev.is_rules(path)} == {udev.path(d) for d in ruled}
    for device in ruled:
        assert sum("ACTION" in line for line in merged[udev.path(device)].splitlines()) == 1
