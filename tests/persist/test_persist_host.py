"""Persistence chosen for an observed host: the RHEL 8 capture runs TuneD's virtual-guest profile and has an
admin's udev rule that sets vdb to none (before iosched's 90- file; renamed to sort after it, it wins). advise
keeps vdb's scheduler in a TuneD profile under auto and in a udev rule when asked, saying which tuner then wins;
verify flips as the profile is installed; the sh plan writes and journals the profile and its undo removes it;
the playbook lints."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ansible_helpers import BIN, scratch_env
from captured import copy_capture
from iosched.cli import main
from iosched.mechanisms import tuned, udev
from iosched.observe.reader import read_root

SOS = Path(__file__).parents[1] / "observe" / "captures" / "sos-rhel8-kvm-lvm"


@pytest.fixture(scope="module")
def capture(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The RHEL 8 guest's sosreport with the one hardware queue its vdb has: sos copies queue/ but not mq/, and
    without the count a virtual disk's scheduler is left alone (IOS150), so nothing would be persisted."""
    return copy_capture(SOS.name, tmp_path_factory.mktemp("sos") / SOS.name, vdb=1)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def plan_of(capsys, root: Path, device: str, *more: str) -> dict:
    code, out, err = run(capsys, "advise", "--root", str(root), "--format", "json", *more)
    assert code == 0, err
    (plan,) = [p for p in json.loads(out)["plans"] if p["device"] == device]
    return plan


def active_profile() -> str:
    return (SOS / "etc/tuned/active_profile").read_text().strip()


def admin_rule() -> str:
    """The capture's own udev rule file that sets a scheduler (read as the probe reads it)."""
    (rule,) = [t.name for t in read_root(SOS).tuners if t.kind == "udev" and "scheduler" in t.settings]
    return rule.rsplit(":", 1)[0]


def test_auto_keeps_the_scheduler_in_a_tuned_profile_that_includes_the_active_one(capture: Path, capsys) -> None:
    plan = plan_of(capsys, capture, "vdb")
    (step,) = [s for s in plan["steps"] if s["kind"] == "scheduler"]
    assert step["persist_method"] == "tuned-profile"
    assert plan["tuned"]["profiles"] == [active_profile()]
    (path,) = plan["files"]
    assert path == f"/etc/tuned/{tuned.PREFIX}{active_profile()}/tuned.conf"
    assert f"include={active_profile()}" in plan["files"][path].splitlines()
    assert f"elevator={step['value']}" in plan["files"][path].splitlines()
    assert not any(w["id"] in ("later-tuner-wins", "tuned-overrides-udev") for w in plan["warnings"])


def test_persist_udev_keeps_it_in_a_udev_rule_after_the_admins_earlier_rule(capture: Path, capsys) -> None:
    """The capture's rule sorts before iosched's file, so iosched's value holds and nothing is said of it."""
    assert os.path.basename(admin_rule()) < os.path.basename(udev.path("vdb"))
    plan = plan_of(capsys, capture, "vdb", "--persist", "udev")
    assert {s["persist_method"] for s in plan["steps"]} == {"udev-rule"}
    assert list(plan["files"]) == [udev.path("vdb")]
    assert not [w for w in plan["warnings"] if w["id"] == "later-tuner-wins"]


def test_persist_udev_says_an_admin_rule_that_sorts_after_it_wins(capture: Path, tmp_path: Path, capsys) -> None:
    """The same rule as Red Hat's documented example name, 99-scheduler.rules, sorts after iosched's file."""
    root = tmp_path / "host"
    shutil.copytree(capture, root, symlinks=True)
    later = root / admin_rule().lstrip("/")
    later.rename(later.with_name("99-scheduler.rules"))
    rule = "/" + str(later.with_name("99-scheduler.rules").relative_to(root))
    assert os.path.basename(rule) > os.path.basename(udev.path("vdb"))
    plan = plan_of(capsys, root, "vdb", "--persist", "udev")
    (notice,) = [w for w in plan["warnings"] if w["id"] == "later-tuner-wins"]
    assert rule in notice["text"] and notice["sources"]
    code, out, _ = run(capsys, "advise", "--root", str(root), "--persist", "udev", "--format", "markdown")
    assert code == 0 and "later-tuner-wins" in out and rule in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--root", "ROOT", "--persist", "sysctl"], "cannot keep scheduler of vdb"),
        (["--hw", "hdd", "--device", "sdb", "--kernel", "6.8", "--persist", "tuned"], "--probe or --root"),
        (["--root", "ROOT", "--persist", "udev,bogus"], "unknown persistence method 'bogus'"),
        (["--root", "ROOT", "--persist", "zipl"], "cannot keep scheduler of vdb"),
    ],
)
def test_a_request_that_cannot_keep_the_plan_is_one_line_and_exit_2(argv, says, capture: Path, capsys) -> None:
    code, out, err = run(capsys, "advise", *(str(capture) if a == "ROOT" else a for a in argv))
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err, err


def test_verify_flips_from_differs_to_ok_as_the_tuned_profile_is_installed(tmp_path: Path, capture: Path,
                                                                          capsys) -> None:  # fmt: skip
    root = tmp_path / "host"
    shutil.copytree(capture, root, symlinks=True)
    plan = plan_of(capsys, root, "vdb")
    (step,) = [s for s in plan["steps"] if s["kind"] == "scheduler"]
    scheduler = root / "sys/block/vdb/queue/scheduler"
    scheduler.write_text(
        scheduler.read_text().replace("[", "").replace("]", "").replace(step["value"], f"[{step['value']}]")
    )
    code, out, _ = run(capsys, "verify", "--root", str(root), "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == 1
    (persisted,) = [r for r in rows if r["device"] == "vdb" and r["setting"] == "persist scheduler"]
    assert persisted["status"] == "differs" and persisted["actual"] == "absent"
    (path, content), *_ = plan["files"].items()
    (root / path.lstrip("/")).parent.mkdir(parents=True)
    (root / path.lstrip("/")).write_text(content + "\n")
    (root / "etc/tuned/active_profile").write_text(Path(path).parent.name + "\n")  # as tuned-adm profile does
    code, out, _ = run(capsys, "verify", "--root", str(root), "--format", "json")
    after = json.loads(out)
    assert code == 0 and after["compliant"], [r for r in after["rows"] if r["status"] != "ok"]
    (persisted,) = [r for r in after["rows"] if r["device"] == "vdb" and r["setting"] == "persist scheduler"]
    assert persisted["status"] == "ok" and persisted["expected"] == f"{path}: {step['value']}"


def test_the_sh_plan_writes_and_journals_the_profile_and_its_undo_removes_it(tmp_path: Path, capture: Path,
                                                                            capsys) -> None:  # fmt: skip
    root = tmp_path / "host"
    shutil.copytree(capture, root, symlinks=True)
    plan = plan_of(capsys, root, "vdb")
    _, out, _ = run(capsys, "advise", "--root", str(root), "--format", "json")
    (path, content), *_ = json.loads(out)["files"].items()  # the host's files: every device's merged
    assert path in plan["files"]
    code, script, _ = run(capsys, "advise", "--root", str(root), "--format", "sh")
    assert code == 0 and "tuned-adm profile" in script
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    journal = tmp_path / "undo.sh"
    env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_JOURNAL": str(journal)}
    done = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (root / path.lstrip("/")).read_text() == content + "\n"
    assert f"undo_file '{path}'" in journal.read_text()
    assert (root / "etc/tuned/active_profile").read_text().strip() == active_profile(), "no tuned-adm under a root"
    undone = subprocess.run(["sh", str(journal)], env=env, capture_output=True, text=True)
    assert undone.returncode == 0, undone.stderr
    assert not (root / path.lstrip("/")).parent.exists()
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and "var/lib/iosched" not in str(p)}
    scheduler = root / "sys/block/vdb/queue/scheduler"
    assert after.pop(scheduler).decode().strip() == plan["previous_scheduler"]
    assert after == {p: b for p, b in before.items() if p != scheduler}


def test_fleet_keeps_each_hosts_request_and_reports_a_host_it_does_not_fit(capture: Path, capsys) -> None:
    code, out, _ = run(capsys, "fleet", str(capture), "--persist", "udev", "--format", "json")
    (host,) = json.loads(out)["hosts"]
    assert code == 0 and {s["persist_method"] for p in host["plans"] for s in p["steps"]} == {"udev-rule"}
    code, out, _ = run(capsys, "fleet", str(capture), "--persist", "sysctl", "--format", "json")
    (host,) = json.loads(out)["hosts"]
    assert code == 0 and not host["plans"] and "cannot keep scheduler" in host["errors"][0]


@pytest.mark.ansible
@pytest.mark.slow
def test_the_playbook_copies_the_profile_switches_only_on_the_system_and_undo_removes_it(tmp_path: Path, capture: Path,
                                                                                          capsys) -> None:  # fmt: skip
    root = tmp_path / "host"
    shutil.copytree(capture, root, symlinks=True)
    scheduler = root / "sys/block/vdb/queue/scheduler"
    before = scheduler.read_text()
    plan = plan_of(capsys, root, "vdb")
    (path, content), *_ = plan["files"].items()
    code, playbook, _ = run(capsys, "advise", "--root", str(root), "--format", "ansible", "--host", "db01")
    assert code == 0 and "tuned-adm" in playbook
    (tmp_path / "iosched.yml").write_text(playbook)  # its TuneD tasks are the role's, linted with the collection
    env = scratch_env(tmp_path)

    def play(*args: str) -> str:
        done = subprocess.run([BIN / "ansible-playbook", "-c", "local", "-i", "db01,", "iosched.yml", "-e",
                               "ansible_become=false", "-e", f"iosched_root={root}", *args], env=env, cwd=tmp_path,
                              capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    out = play()
    assert (root / path.lstrip("/")).read_text() == content + "\n"
    assert "RUNNING HANDLER [Switch TuneD to the iosched profile]" in out  # notified, and skipped under a root
    assert (root / "etc/tuned/active_profile").read_text().strip() == active_profile()
    out = play("--tags", "undo")
    assert "TASK [Switch TuneD back from" in out
    assert not (root / path.lstrip("/")).parent.exists()
    assert scheduler.read_text().strip() == before.replace("[", "").replace("]", "").split()[0]
