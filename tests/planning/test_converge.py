"""A plan made without the machine converges the real device when it runs: the sh script and the playbook
read every value first, change only what differs, journal what they really found (undo restores that, never
the assumed default), and change nothing the second time. The sh script keeps its journals private, and
coupled sysctls are journalled and restored as a group."""

from __future__ import annotations

import contextlib
import os
import platform
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_plan_ansible import ansible_env, loop_device, recap, run_playbook, sysfs  # noqa: F401 - a fixture

from engine_strategies import KB
from iosched.cli import main
from iosched.knowledge.context import Context
from iosched.mechanisms import udev
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.records.plan import Plan, Step
from iosched.render import plan_ansible, plan_json, plan_markdown, plan_shell
from iosched.steps import STEP_KINDS

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (a loop device, its sysfs queue, /proc/sys)")
SCHEDULER = STEP_KINDS["scheduler"]
VM = Path("/proc/sys/vm")


def assumed_plan() -> Plan:
    """A plan from flags whose recommended scheduler is the one it assumes the device has."""
    kernel = re.match(r"\d+\.\d+", platform.release())[0]
    plan = advise(KB, Context(hw="nvme", workload="db", kernel=kernel, device="nvme0n1"))
    (step,) = [s for s in plan.steps if s.kind == "scheduler"]
    assert step.expected_already and step.current_from == "assumed" and step.assumption == "scheduler.now"
    return plan


def on_device(plan: Plan, device: str, *more: Step) -> Plan:
    """The plan moved onto ``device`` (the KB rightly refuses to plan a loop device; its queue is real)."""
    moved = tuple(Step.build({**dict(s.fields()), "device": device if s.device else None}) for s in plan.steps)
    return Plan.build({**dict(plan.fields()), "device": device, "steps": moved + more,
                       "udev_match": udev.match(device)})  # fmt: skip


def other_scheduler(device: str, *than: str) -> str:
    """An elevator the device offers that is none of ``than``."""
    offered = sysfs(device, "scheduler").read_text().replace("[", "").replace("]", "").split()
    return next(name for name in offered if name not in than)


def linked_root(tmp_path: Path, device: str) -> Path:
    """An IOSCHED_ROOT whose /sys/block/DEVICE and /proc/sys/vm are the real ones: the script changes the real
    device and sysctls while its journals and files stay in the scratch directory."""
    root = tmp_path / "root"
    (root / "sys/block").mkdir(parents=True)
    (root / "sys/block" / device).symlink_to(Path("/sys/block", device).resolve())
    (root / "proc/sys").mkdir(parents=True)
    (root / "proc/sys/vm").symlink_to(VM)
    return root


def run(script: str, root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", "-c", script], env={**os.environ, "IOSCHED_ROOT": str(root), **env},
                          capture_output=True, text=True)  # fmt: skip


def journals(root: Path) -> list[Path]:
    return sorted(p for p in (root / "var/lib/iosched").glob("undo-*") if "." not in p.name)


@contextlib.contextmanager
def dirty_settings() -> Iterator[None]:
    """Whatever a test does to the writeback sysctls, the ones in effect before are put back."""
    saved = {name: (VM / name).read_text().strip() for name in ("dirty_ratio", "dirty_bytes")}
    try:
        yield
    finally:
        name = "dirty_bytes" if saved["dirty_bytes"] != "0" else "dirty_ratio"
        (VM / name).write_text(saved[name] + "\n")


# ------------------------------------------------------------------------------------------------ the plan


def test_assumed_values_are_steps_that_check_and_observed_ones_are_unchanged() -> None:
    assumed = advise(KB, Context(hw="nvme", workload="db"))
    observed = advise(KB, Context(hw="nvme", workload="db", scheduler="none"))
    assert [s.kind for s in assumed.steps if s.expected_already] == ["scheduler"] and not assumed.unchanged
    assert not [s for s in observed.steps if s.kind == "scheduler"]
    assert [(u.step.target, u.step.current_from) for u in observed.unchanged] == [("scheduler", "observed")]
    text = plan_markdown.render(KB, assumed)
    check = f"`{SCHEDULER.verify(assumed.steps[0])}`: expect `[none]`"
    assert "nothing to change" not in text and "## Check first" in text and check in text
    assert text.index("## Check first") < text.index("| device |") < text.index("## Steps")
    assert "already `none`, nothing to change" in plan_markdown.render(KB, observed)
    changing = advise(KB, Context(hw="hdd", workload="batch", distro="sles12sp5", device="sda"))
    (step,) = [s for s in changing.steps if s.kind == "scheduler"]
    text = plan_markdown.render(KB, changing)
    assert step.current_from == "assumed" and not step.expected_already
    assert f"`{SCHEDULER.verify(step)}`: assumed `[{step.previous}]`; if it already shows `[{step.value}]`" in text
    assert f"(assumed now `{step.previous}`)" in text and text.index("## Check first") < text.index("## Steps")


def test_json_says_where_each_current_value_comes_from() -> None:
    assumed = plan_json.document(KB, advise(KB, Context(hw="hdd", workload="batch", distro="sles12sp5",
                                                        symptoms="dirty-stall")))  # fmt: skip
    facts = {a["fact"] for a in assumed["assumptions"]}
    assert assumed["steps"] and all(s["current_from"] == "assumed" and s["assumption"] in facts
                                    for s in assumed["steps"])  # fmt: skip
    (dirty,) = [s for s in assumed["steps"] if s["target"] == "vm.dirty_ratio"]
    assert dirty["coupled"] == [KB.get("vm.dirty_ratio").pairs_with]
    observed = plan_json.document(KB, advise(KB, Context(hw="nvme", workload="db", scheduler="none")))
    assert [(u["step"]["current_from"], u["step"]["assumption"]) for u in observed["unchanged"]] == [("observed", None)]


def test_verify_without_a_host_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--hw", "nvme", "--workload", "db"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "--probe" in err and "--root" in err


# ------------------------------------------------------------------------------------------------ sh, for real


@pytest.mark.root
@ROOT_ONLY
def test_the_sh_plan_converges_a_device_that_is_not_as_assumed_once_and_undo_restores_it(tmp_path: Path) -> None:
    with loop_device(tmp_path) as device:
        plan = on_device(assumed_plan(), device)
        real = other_scheduler(device, plan.scheduler or "")
        sysfs(device, "scheduler").write_text(real)
        root = linked_root(tmp_path, device)
        script = plan_shell.render(KB, plan)

        first = run(script, root)
        assert first.returncode == 0, first.stderr
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == plan.scheduler
        assert f"changed: /sys/block/{device}/queue/scheduler: {real} -> {plan.scheduler}" in first.stdout
        assert first.stdout.index("undo journal: ") < first.stdout.index("changed: ")
        (journal,) = journals(root)
        backing = f"loop/backing_file {tmp_path / 'disk.img'}"
        scheduler = f"\"$R\"'/sys/block/{device}/queue/scheduler'"
        restore = f"restore_set '{backing}' '{plan.scheduler}' scheduler {scheduler} '{real}'"
        assert restore in journal.read_text()  # the value found, the one set, the device it was set on
        rule = root / udev.path(plan.device).lstrip("/")
        assert (
            rule.read_text() == files([plan])[udev.path(plan.device)] + "\n"
        )  # found otherwise: what it gets at boot changes

        second = run(script, root)
        assert second.returncode == 0 and "changed: " not in second.stdout, second.stdout
        assert f"ok: /sys/block/{device}/queue/scheduler is {plan.scheduler}" in second.stdout
        assert journals(root) == [journal]

        undone = subprocess.run(["sh", str(journal)], env={**os.environ, "IOSCHED_ROOT": str(root)},
                                capture_output=True, text=True)  # fmt: skip
        assert undone.returncode == 0, undone.stderr
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == real
        assert not rule.exists()


@pytest.mark.root
@ROOT_ONLY
def test_a_device_already_as_assumed_is_left_alone_and_gets_no_file(tmp_path: Path) -> None:
    with loop_device(tmp_path) as device:
        plan = on_device(assumed_plan(), device)
        sysfs(device, "scheduler").write_text(plan.scheduler or "")
        root = linked_root(tmp_path, device)
        done = run(plan_shell.render(KB, plan), root)
        assert done.returncode == 0 and "changed: " not in done.stdout, done.stdout + done.stderr
        assert "nothing to change" in done.stdout
        assert not (root / "etc").exists() and journals(root) == []


@pytest.mark.root
@ROOT_ONLY
def test_undo_restores_the_coupled_sysctl_the_kernel_zeroed(tmp_path: Path) -> None:
    """Writing vm.dirty_ratio zeroes vm.dirty_bytes: undo must bring back the bytes, not a ratio of 0."""
    plan = advise(KB, Context(hw="hdd", workload="batch", distro="sles12sp5", device="sda", symptoms="dirty-stall"))
    (dirty,) = [s for s in plan.steps if s.target == "vm.dirty_ratio"]
    sysctl_plan = Plan.build({**dict(plan.fields()), "steps": (dirty,)})
    with dirty_settings():
        (VM / "dirty_bytes").write_text("268435456\n")
        root = tmp_path / "root"
        (root / "sys/block/sda/queue").mkdir(parents=True)
        (root / "proc/sys").mkdir(parents=True)
        (root / "proc/sys/vm").symlink_to(VM)
        done = run(plan_shell.render(KB, sysctl_plan), root, IOSCHED_APPLY_CONSIDER="1")
        assert done.returncode == 0, done.stderr
        assert (VM / "dirty_ratio").read_text().strip() == dirty.value and (VM / "dirty_bytes").read_text() == "0\n"
        (journal,) = journals(root)
        undone = subprocess.run(["sh", str(journal)], env={**os.environ, "IOSCHED_ROOT": str(root)},
                                capture_output=True, text=True)  # fmt: skip
        assert undone.returncode == 0, undone.stderr
        assert (VM / "dirty_bytes").read_text() == "268435456\n" and (VM / "dirty_ratio").read_text() == "0\n"


def undo(journal: Path, root: Path, code: int) -> str:
    """Run an undo journal; its exit status must be ``code``; its stderr."""
    done = subprocess.run(["sh", str(journal)], env={**os.environ, "IOSCHED_ROOT": str(root)},
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == code, done.stdout + done.stderr
    return done.stderr


def etc(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in (root / "etc").rglob("*") if p.is_file()}


@pytest.mark.root
@ROOT_ONLY
def test_plans_of_one_device_undone_out_of_order_say_what_they_left_and_end_as_before(tmp_path: Path) -> None:
    """A sets one elevator, B another; undo A finds B's: it leaves the elevator and the rule B replaced, says so,
    exits 1; undo B restores A's; undo A again restores what the device had before A."""
    first = advise(KB, Context(hw="hdd", workload="batch", distro="rhel9", device="sdb"))
    second = advise(KB, Context(hw="hdd", workload="desktop", distro="rhel9", device="sdb"))
    assert first.scheduler != second.scheduler and "none" not in (first.scheduler, second.scheduler)
    with loop_device(tmp_path) as device:
        sysfs(device, "scheduler").write_text("none")
        root = linked_root(tmp_path, device)
        (root / "etc").mkdir()
        a, b = tmp_path / "undo-a.sh", tmp_path / "undo-b.sh"
        for plan, journal in ((first, a), (second, b)):
            done = run(plan_shell.render(KB, on_device(plan, device)), root, IOSCHED_JOURNAL=str(journal))
            assert done.returncode == 0, done.stderr
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == second.scheduler
        err = undo(a, root, 1)
        shown = f"/sys/block/{device}/queue/scheduler"
        assert f"{shown} changed since apply (it reads {second.scheduler}; apply set {first.scheduler})" in err
        assert f"{udev.path(device)} changed since this plan wrote it; left as it is" in err and "left 2 " in err
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == second.scheduler
        undo(b, root, 0)
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == first.scheduler
        undo(a, root, 0)
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == "none" and etc(root) == {}


@pytest.mark.root
@ROOT_ONLY
def test_undo_leaves_a_loop_device_attached_to_another_file_since(tmp_path: Path) -> None:
    """The name is the same, the value is even the one the plan set (by hand), but the device is another."""
    plan = advise(KB, Context(hw="hdd", workload="batch", distro="rhel9", device="sdb"))
    with loop_device(tmp_path) as device:
        sysfs(device, "scheduler").write_text("none")
        root = linked_root(tmp_path, device)
        done = run(plan_shell.render(KB, on_device(plan, device)), root)
        assert done.returncode == 0, done.stderr
        (journal,) = journals(root)
        other = tmp_path / "other.img"
        other.write_bytes(b"\0" * 2**20)
        subprocess.run(["losetup", "-d", f"/dev/{device}"], check=True)
        subprocess.run(["losetup", f"/dev/{device}", str(other)], check=True)
        sysfs(device, "scheduler").write_text(plan.scheduler or "")
        err = undo(journal, root, 1)
        assert f"/sys/block/{device}/queue/scheduler is on another device since apply" in err and str(other) in err
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == plan.scheduler


# ------------------------------------------------------------------------------------------------ the journal


def fake_root(tmp_path: Path) -> tuple[Plan, Path]:
    plan = advise(KB, Context(hw="nvme", workload="db", device="nvme0n1"))
    root = tmp_path / "root"
    queue = root / "sys/block/nvme0n1/queue"
    queue.mkdir(parents=True)
    (queue / "scheduler").write_text("[mq-deadline] none\n")
    return plan, root


def test_under_umask_000_the_journals_stay_private_and_the_files_readable(tmp_path: Path) -> None:
    plan, root = fake_root(tmp_path)
    done = subprocess.run(["sh", "-c", "umask 000; exec sh -c \"$0\"", plan_shell.render(KB, plan)],
                          env={**os.environ, "IOSCHED_ROOT": str(root)}, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    directory = root / "var/lib/iosched"
    assert directory.stat().st_mode & 0o777 == 0o700
    (journal,) = journals(root)
    assert journal.stat().st_mode & 0o777 == 0o600
    assert (root / udev.path(plan.device).lstrip("/")).stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("how", ["another user's", "a symbolic link"])
def test_a_journal_directory_root_does_not_own_is_refused_before_anything_changes(tmp_path: Path, how: str) -> None:
    plan, root = fake_root(tmp_path)
    directory = root / "var/lib/iosched"
    directory.parent.mkdir(parents=True)
    if how == "a symbolic link":
        (tmp_path / "elsewhere").mkdir()
        directory.symlink_to(tmp_path / "elsewhere")
    else:
        directory.mkdir(mode=0o777)
        if os.geteuid() != 0:
            pytest.skip("needs root to give the directory to another user")
        os.chown(directory, 65534, 65534)
    done = run(plan_shell.render(KB, plan), root)
    assert done.returncode == 1 and "refusing" in done.stderr and str(directory) in done.stderr
    assert (root / "sys/block/nvme0n1/queue/scheduler").read_text() == "[mq-deadline] none\n"
    assert not list(directory.iterdir()) and not (root / "etc").exists()


@pytest.mark.root
@ROOT_ONLY
def test_a_full_disk_leaves_no_empty_journal_and_changes_nothing(tmp_path: Path) -> None:
    plan, root = fake_root(tmp_path)
    directory = root / "var/lib/iosched"
    directory.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k,mode=0700", "iosched-full", directory], check=True)
    try:
        with contextlib.suppress(OSError), (directory / "filler").open("wb") as fh:
            fh.write(b"x" * 65536)
        done = run(plan_shell.render(KB, plan), root)
        left = [p.name for p in directory.iterdir() if p.name != "filler"]
    finally:
        subprocess.run(["umount", directory], check=True)
    assert done.returncode == 1 and "undo journal" in done.stderr
    assert left == []
    assert (root / "sys/block/nvme0n1/queue/scheduler").read_text() == "[mq-deadline] none\n"


@pytest.mark.root
@ROOT_ONLY
def test_a_restore_on_a_read_only_etc_says_so(tmp_path: Path) -> None:
    plan, root = fake_root(tmp_path)
    assert run(plan_shell.render(KB, plan), root).returncode == 0
    (journal,) = journals(root)
    etc = root / "etc/udev/rules.d"
    subprocess.run(["mount", "--bind", etc, etc], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", etc], check=True)
        undone = subprocess.run(["sh", str(journal)], env={**os.environ, "IOSCHED_ROOT": str(root)},
                                capture_output=True, text=True)  # fmt: skip
    finally:
        subprocess.run(["umount", etc], check=True)
    assert undone.returncode == 1
    assert (
        f"could not remove {udev.path(plan.device)} (/etc/udev/rules.d is read-only: remount it read-write"
        in undone.stderr
    )


# ------------------------------------------------------------------------------------------------ the playbook


@pytest.mark.root
@pytest.mark.ansible
@pytest.mark.slow
@ROOT_ONLY
def test_the_playbook_converges_once_journals_the_real_values_and_undo_restores_them(
    tmp_path: Path,
    ansible_env: dict[str, str],  # noqa: F811 - the fixture imported above
) -> None:
    """Applied twice, the playbook changes the real device once and journals what it found. Undo leaves a value
    and a file changed since iosched set them, names them and fails; put back as iosched left them, undo restores
    the values found. Run again on a device already as the plan assumed, it leaves it alone and writes no file."""
    etc = tmp_path / "root"
    with loop_device(tmp_path) as device, dirty_settings():
        base = advise(KB, Context(hw="hdd", workload="batch", distro="sles12sp5", device="sda", symptoms="dirty-stall"))
        (dirty,) = [Step.build({**dict(s.fields()), "severity": "recommend"}) for s in base.steps
                    if s.target == "vm.dirty_ratio"]  # fmt: skip
        plan = on_device(assumed_plan(), device, dirty)
        real = other_scheduler(device, plan.scheduler or "")
        sysfs(device, "scheduler").write_text(real)
        (VM / "dirty_bytes").write_text("268435456\n")
        playbook = tmp_path / "iosched.yml"
        playbook.write_text(plan_ansible.render(KB, [("scratch01", [plan])]))

        def run_play(*args: str) -> subprocess.CompletedProcess[str]:
            return run_playbook(
                ansible_env, tmp_path, playbook, etc, "-e", "iosched_sys_root=", *args, host="scratch01"
            )

        def play(*args: str) -> tuple[dict[str, int], str]:
            done = run_play(*args)
            assert done.returncode == 0, done.stdout + done.stderr
            return recap(done.stdout), done.stdout

        first, _ = play()
        assert first["changed"] >= 2 and first["failed"] == 0
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == plan.scheduler
        assert (VM / "dirty_ratio").read_text().strip() == dirty.value and (VM / "dirty_bytes").read_text() == "0\n"
        kept = etc / "var/lib/iosched/previous"
        assert (kept / f"sys/block/{device}/queue/scheduler").read_text() == f"{real}\n"
        assert (kept / "proc/sys/vm/dirty_bytes").read_text() == "268435456\n"
        rule = etc / udev.path(device).lstrip("/")
        assert rule.is_file()  # found otherwise: what the device gets at boot changes

        second, _ = play()
        assert second["changed"] == 0 and second["failed"] == 0

        wrote = rule.read_text()
        by_hand = other_scheduler(device, plan.scheduler or "", real)
        sysfs(device, "scheduler").write_text(by_hand)
        rule.write_text(wrote + "# edited by hand\n")
        left = run_play("--tags", "undo")
        assert left.returncode != 0
        assert f"/sys/block/{device}/queue/scheduler changed since iosched set it (it reads {by_hand}" in left.stdout
        assert f"{udev.path(device)} changed since iosched wrote it; left as it is" in left.stdout
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == by_hand and rule.read_text().endswith("hand\n")
        sysfs(device, "scheduler").write_text(plan.scheduler or "")
        rule.write_text(wrote)

        undone, out = play("--tags", "undo")
        assert undone["changed"] >= 2, out
        assert SCHEDULER.read(sysfs(device, "scheduler").read_text()) == real
        assert (VM / "dirty_bytes").read_text() == "268435456\n" and (VM / "dirty_ratio").read_text() == "0\n"
        assert not [p for p in etc.rglob("*") if p.is_file()]

        sysfs(device, "scheduler").write_text(plan.scheduler or "")  # as assumed: the rule would change nothing
        again, out = play("--diff")
        assert again["failed"] == 0 and f"ok: /sys/block/{device}/queue/scheduler is {plan.scheduler}" in out
        assert not rule.exists()
