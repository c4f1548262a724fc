"""Two plans of different devices (sdb-like and sdc-like) applied with their sh scripts under one root never
destroy each other's persistent files; undone in either order they leave /etc as it was before; an undo
leaves a file that changed since its apply, and says so."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from captured import copy_capture
from iosched.cli import main
from iosched.mechanisms import sysctld, udev

PLANS = {
    "sdb": ("--hw", "hdd", "--workload", "batch", "--distro", "sles12sp5", "--symptom", "dirty-stall"),
    "sdc": (
        "--hw",
        "ssd",
        "--workload",
        "batch",
        "--distro",
        "sles12sp5",
        "--symptom",
        "dirty-stall",
        "--scheduler",
        "cfq",
    ),
}
LOCAL = {"etc/udev/rules.d/99-local.rules": 'KERNEL=="sdz", ATTR{queue/scheduler}="bfq"\n',
         "etc/sysctl.d/10-local.conf": "vm.swappiness = 10\n"}  # fmt: skip


def advise(capsys: pytest.CaptureFixture[str], device: str, fmt: str) -> str:
    code = main(["advise", *PLANS[device], "--device", device, "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def make_root(capsys: pytest.CaptureFixture[str], root: Path) -> dict[str, dict]:
    """A root with the two disks (their scheduler offered as the plan's kernel has them) and the sysctls the
    plans set, and files of the admin's own in rules.d and sysctl.d."""
    plans = {device: json.loads(advise(capsys, device, "json")) for device in PLANS}
    for device, plan in plans.items():
        queue = root / "sys/block" / device / "queue"
        queue.mkdir(parents=True)
        offered = sorted({plan["previous_scheduler"], plan["scheduler"]})
        (queue / "scheduler").write_text(" ".join(f"[{n}]" if n == plan["previous_scheduler"] else n
                                                  for n in offered) + "\n")  # fmt: skip
        for step in plan["steps"]:
            if step["kind"] == "sysctl":
                path = root / "proc/sys" / step["target"].replace(".", "/")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("30\n")
    for name, text in LOCAL.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return plans


def etc(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted((root / "etc").rglob("*")) if p.is_file()}


def apply(capsys, root: Path, device: str, journal: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_JOURNAL": str(journal), "IOSCHED_APPLY_CONSIDER": "1"}
    done = subprocess.run(["sh", "-c", advise(capsys, device, "sh")], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def undo(root: Path, journal: Path, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "IOSCHED_ROOT": str(root)}
    done = subprocess.run(["sh", str(journal)], env=env, capture_output=True, text=True)
    assert done.returncode == code, done.stderr
    return done


@pytest.mark.parametrize("order", [("sdb", "sdc"), ("sdc", "sdb")])
def test_two_plans_keep_both_and_undo_in_either_order_leaves_etc_as_before(
    order: tuple[str, str], tmp_path: Path, capsys
) -> None:
    root = tmp_path / "root"
    plans = make_root(capsys, root)
    assert all(any(udev.is_rules(p) for p in plan["files"]) for plan in plans.values())
    assert all(any(sysctld.is_conf(p) for p in plan["files"]) for plan in plans.values())
    before = etc(root)
    journals = {device: tmp_path / f"undo-{device}.sh" for device in PLANS}
    for device in PLANS:
        apply(capsys, root, device, journals[device])
    applied = etc(root)
    for device, plan in plans.items():
        for path, content in plan["files"].items():
            assert applied[path.lstrip("/")] == content + "\n", f"{device}'s {path} was replaced"
    assert {k: v for k, v in applied.items() if k in before} == before
    first, second = order
    undo(root, journals[first])
    left = etc(root)
    assert all(path.lstrip("/") not in left for path in plans[first]["files"])
    assert all(left[path.lstrip("/")] == content + "\n" for path, content in plans[second]["files"].items())
    undo(root, journals[second])
    assert etc(root) == before
    for device, plan in plans.items():
        assert (root / "sys/block" / device / "queue/scheduler").read_text().strip() == plan["previous_scheduler"]


def test_an_undo_leaves_a_file_that_changed_since_its_apply_and_says_so(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    plans = make_root(capsys, root)
    before = etc(root)
    journal = tmp_path / "undo.sh"
    apply(capsys, root, "sdb", journal)
    (rules,) = [p for p in plans["sdb"]["files"] if udev.is_rules(p)]
    edited = root / rules.lstrip("/")
    edited.write_text(edited.read_text() + "# edited by hand\n")
    done = undo(root, journal, code=1)
    assert "changed since" in done.stderr and rules in done.stderr and "left 1 " in done.stderr
    assert edited.read_text().endswith("# edited by hand\n")
    assert {k: v for k, v in etc(root).items() if k != rules.lstrip("/")} == before


def test_a_second_plan_of_the_same_device_is_undone_to_the_first(tmp_path: Path, capsys) -> None:
    root = tmp_path / "root"
    make_root(capsys, root)
    before = etc(root)
    first, second = tmp_path / "undo-1.sh", tmp_path / "undo-2.sh"
    apply(capsys, root, "sdb", first)
    once = etc(root)
    apply(capsys, root, "sdb", second)
    undo(root, second)
    assert etc(root) == once
    undo(root, first)
    assert etc(root) == before


TUNED_HOST = Path(__file__).parents[1] / "observe" / "captures" / "sos-rhel8-kvm-lvm"


def test_two_plans_on_a_tuned_host_keep_both_disks_units_in_the_one_profile(tmp_path: Path, capsys) -> None:
    """TuneD runs one profile per host, so the plans of vda and vdb share iosched's profile: the second keeps
    the first's unit; undone in the reverse order the profile goes back to the first's, then away."""
    root = copy_capture(TUNED_HOST.name, tmp_path / "host", vda=1, vdb=1)
    (root / "sys/block/vda/queue/scheduler").write_text("mq-deadline kyber [bfq] none\n")  # so that vda is planned
    scripts, paths = {}, set()
    for device in ("vda", "vdb"):
        common = ("advise", "--root", str(root), "--device", device, "--workload", "db")
        code = main([*common, "--format", "json"])
        (plan,) = json.loads(capsys.readouterr().out)["plans"]
        assert code == 0 and {s["persist_method"] for s in plan["steps"]} == {"tuned-profile"}
        paths |= set(plan["files"])
        assert main([*common, "--format", "sh"]) == 0
        scripts[device] = capsys.readouterr().out
    (profile,) = paths
    before = etc(root)
    env = {**os.environ, "IOSCHED_ROOT": str(root)}
    for device in ("vda", "vdb"):
        env["IOSCHED_JOURNAL"] = str(tmp_path / f"undo-{device}.sh")
        done = subprocess.run(["sh", "-c", scripts[device]], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        if device == "vda":
            first = (root / profile.lstrip("/")).read_text()
    both = (root / profile.lstrip("/")).read_text()
    assert "[iosched-vda]" in both and "[iosched-vdb]" in both and both.count("[main]") == 1
    undo(root, tmp_path / "undo-vdb.sh")
    assert (root / profile.lstrip("/")).read_text() == first
    undo(root, tmp_path / "undo-vda.sh")
    assert etc(root) == before
