"""The Ansible form of plans: each host's plans carried whole for any fleet, its script read like the step kinds
read, and what runs it on a loop device needs (tests/planning/test_ansible_collection.py lints the playbooks and
runs the role there: apply, verify, idempotence, check, undo)."""

from __future__ import annotations

import contextlib
import functools
import os
import platform
import posixpath
import re
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ansible_helpers import BIN, scratch_env
from engine_strategies import KB, contexts
from iosched import grammar
from iosched.cli import main
from iosched.kernel import KernelVersion
from iosched.knowledge.context import Context, ContextError
from iosched.mechanisms import udev
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.records.plan import Notice, Plan, Step
from iosched.render import plan_ansible
from iosched.steps import STEP_KINDS, kind_of

SLOW = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class _Loader(yaml.SafeLoader):
    """Reads the playbook as Ansible does as far as data goes: ``!unsafe`` marks a plain string."""


_Loader.add_constructor("!unsafe", lambda loader, node: loader.construct_scalar(node))


def load(playbook: str) -> list[dict]:
    return yaml.load(playbook, Loader=_Loader)


@pytest.fixture(scope="session")
def ansible_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Ansible and ansible-lint with their state in a scratch directory, never the user's home."""
    return scratch_env(tmp_path_factory.mktemp("ansible-home"))


# ------------------------------------------------------------------------------------------------ plans


def kb_step(kind: str, target: str, value: str, device: str | None, severity: str = "recommend") -> Step:
    """A step as advise builds one, for a KB setting that no rule of the KB sets yet (tunables, queue
    attributes and boot parameters), so that every kind reaches the playbook."""
    persist = STEP_KINDS[kind].persist_methods[0]
    return Step(kind=kind, target=target, value=value, title=f"Set {target} to {value}", because=(), reasons=(),
                sources=(), device=device, severity=severity, persist_method=persist)  # fmt: skip


def other_value(target: str, now: str) -> str:
    """A value the KB accepts for ``target`` that differs from ``now``."""
    setting = KB.setting(target)
    assert setting is not None, target
    value = int(now) + 1 if setting.accepts(int(now) + 1) else int(now) - 1
    assert setting.accepts(value), (target, now)
    return str(value)


def tunable_of(elevator: str) -> str:
    """A tunable of ``elevator`` that takes a plain number (no jiffies rounding), as ``elevator.name``."""
    return next(f"{elevator}.{t.name}" for t in KB.elevators[elevator].tunables if t.writable and not t.jiffies
                and t.default is not None)  # fmt: skip


def every_kind_plan() -> Plan:
    """A real plan (scheduler and mount option) with a tunable, a queue attribute, a consider sysctl and a
    boot parameter added from the KB."""
    plan = advise(KB, Context(hw="hdd", workload="desktop", kernel="6.12", device="sdc", fs="ext4",
                              mount_options="rw,nobarrier"))  # fmt: skip
    assert {s.kind for s in plan.steps} == {"scheduler", "mount-option"}
    tunable = tunable_of(plan.scheduler or "")
    elevator = KB.get("elevator")
    added = (
        kb_step("tunable", tunable, other_value(tunable, str(KB.setting(tunable).default)), plan.device),
        kb_step("queue-attribute", "queue.nomerges", other_value("queue.nomerges", "0"), plan.device),
        kb_step("sysctl", "vm.dirty_ratio", other_value("vm.dirty_ratio", "20"), None, "consider"),
        kb_step("boot-parameter", elevator.name, elevator.values[1], None),
    )
    return Plan.build({**dict(plan.fields()), "steps": plan.steps + added})


def plan_or_none(ctx: Context) -> Plan | None:
    try:
        return advise(KB, ctx)
    except ContextError:
        return None


HOST_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]{0,40}"
"""Inventory hostnames as the playbook accepts them (grammar.INVENTORY_HOST), of a length DNS names have."""


@st.composite
def fleets(draw: st.DrawFn) -> list[tuple[str, list[Plan]]]:
    """One host with every kind of step, and up to three hosts of advised plans."""
    names = draw(st.lists(st.from_regex(HOST_NAME, fullmatch=True), min_size=2, max_size=4, unique=True))
    assume(not any(map(grammar.host_problem, names)))
    plans = [plan_or_none(draw(contexts())) for _ in names[1:]]
    assume(all(plans))
    return [(names[0], [every_kind_plan()]), *((name, [plan]) for name, plan in zip(names[1:], plans, strict=True))]


def value_lines(plans: Sequence[Plan], kind: str, *, consider: bool) -> list[str]:
    steps = {(s.device, s.target): s for p in plans for s in reversed(p.steps)}.values()
    return sorted(" ".join(kind_of(s).converge_args(s)[1:]) for s in steps
                  if s.kind == kind and (consider or s.severity != "consider"))  # fmt: skip


# ------------------------------------------------------------------------------------------------ playbooks


def written_playbooks(out: Path) -> list[Path]:
    """The playbooks of a few fleets (a host with every kind of step, and hosts of advised plans), each checked to
    carry every host's plans, written under ``out`` for tests/planning/test_ansible_collection.py to lint."""
    playbooks: list[Path] = []

    @SLOW
    @given(fleet=fleets())
    def carries_the_plans(fleet: list[tuple[str, list[Plan]]]) -> None:
        playbook = plan_ansible.render(KB, fleet)
        plays = load(playbook)
        applies, undos = plays[::2], plays[1::2]
        for apply, undo in zip(applies, undos, strict=True):
            assert (
                undo["tags"] == ["never", "undo"] and undo["vars"] is apply["vars"] and undo["hosts"] is apply["hosts"]
            )
            assert apply["hosts"] == apply["vars"]["iosched_targets"] == sorted(apply["hosts"])
        play_of = {name: play for play in applies for name in play["hosts"]}
        assert sorted(play_of) == sorted(name for name, _ in fleet)  # each host in exactly one play
        assert sum(len(p["hosts"]) for p in applies) == len(fleet)
        assert [p["hosts"][0] for p in applies] == sorted(p["hosts"][0] for p in applies)
        for name, plans in fleet:
            host = play_of[name]["vars"]["iosched_host"]
            for kind in plan_ansible.RUNTIME_KINDS:
                assert sorted(host["settings"][kind]["every"]) == value_lines(plans, kind, consider=True)
                assert sorted(host["settings"][kind]["recommended"]) == value_lines(plans, kind, consider=False)
            contents = play_of[name]["vars"]["iosched_contents"]
            written = {file["path"]: "\n".join(contents[file["every"]]) for file in host["files"]}
            assert written == files(plans)
        path = out / str(len(playbooks)) / "iosched.yml"
        path.parent.mkdir(parents=True)
        path.write_text(playbook)
        playbooks.append(path)

    carries_the_plans()
    assert playbooks
    return playbooks


# ------------------------------------------------------------------------------------------------ grouping


def disk_plan(device: str) -> Plan:
    return advise(KB, Context(hw="hdd", workload="db", kernel="6.12", device=device))


def test_a_host_creates_each_directory_of_its_files_once() -> None:
    """A file module run a directory, not a file: three disks' rules files share udev's directory, which the
    play creates once (tests/fleet/test_fleet_playbook.py runs the task)."""
    play = load(plan_ansible.render(KB, [("db1", [disk_plan(name) for name in ("sda", "sdb", "sdc")])]))[0]
    host, contents = play["vars"]["iosched_host"], play["vars"]["iosched_contents"]
    assert [f["path"] for f in host["files"]] == [udev.path(name) for name in ("sda", "sdb", "sdc")]
    for pick in ("every", "recommended"):
        written = {posixpath.dirname(f["path"]) for f in host["files"] if contents[f[pick]]}
        assert sorted(host["directories"][pick]) == sorted(written) == [udev.DIRECTORY.rstrip("/")]


def test_hosts_whose_plans_render_alike_share_a_play_and_a_device_name_keeps_them_apart() -> None:
    """A play per distinct plan: equal plans (even as distinct objects) share one, a plan that differs only in
    its device name gets its own, plays come in the order of their first host and list their hosts sorted."""
    sda, sdb = disk_plan("sda"), disk_plan("sdb")
    assert disk_plan("sda") == sda and disk_plan("sda") is not sda
    fleet = [("web2", [sda]), ("web1", [disk_plan("sda")]), ("db2", [sdb]), ("db1", [sdb]), ("app1", [sda, sdb])]
    plays = load(plan_ansible.render(KB, fleet))
    assert [p["hosts"] for p in plays] == [["app1"], ["app1"], ["db1", "db2"], ["db1", "db2"], ["web1", "web2"],
                                           ["web1", "web2"]]  # fmt: skip
    data = [p["vars"]["iosched_host"] for p in plays[::2]]
    assert data[0] != data[1] != data[2] != data[0]
    assert "sdb" in str(data[1]) and "sdb" not in str(data[2])
    assert [p["name"] for p in plays[:2]] == ["Apply the iosched plan 1 of 3 (1 host(s))",
                                              "Undo the iosched plan 1 of 3 (1 host(s))"]  # fmt: skip
    for part in ("handlers", "pre_tasks"):  # what plays share is written once, then aliased
        assert plays[4][part] is plays[2][part] is plays[0][part]
    assert plays[4]["vars"]["iosched_script"] is plays[0]["vars"]["iosched_script"]


def test_a_plan_shared_by_many_hosts_is_rendered_once_and_each_host_costs_a_line(monkeypatch) -> None:
    rendered = []
    host_data = plan_ansible._host_data
    monkeypatch.setattr(plan_ansible, "_host_data", lambda *a: rendered.append(a) or host_data(*a))
    plans = [every_kind_plan()]
    one = plan_ansible.render(KB, [("host0000", plans)])
    many = plan_ansible.render(KB, [(f"host{i:04d}", plans) for i in range(1000)])
    assert len(rendered) == 2
    assert len(many) - len(one) == 999 * len("    - host0000\n") + len("1000") - len("1")  # and the header's count
    assert len(load(many)) == 2


# ------------------------------------------------------------------------------------------------ the script


@functools.cache
def script() -> str:
    return load(plan_ansible.render(KB, [(plan_ansible.EVERY_HOST, [every_kind_plan()])]))[0]["vars"]["iosched_script"]


def run_script(mode: str, kind: str, lines: str, sys_root: Path, saved: Path) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "IOSCHED_MODE": mode, "IOSCHED_KIND": kind, "IOSCHED_SYS": str(sys_root),
           "IOSCHED_SAVED": str(saved), "IOSCHED_LINES": lines.rstrip("\n")}  # fmt: skip
    return subprocess.run(["sh", "-c", script()], env=env, capture_output=True, text=True)


ELEVATORS = sorted(KB.elevators)


@settings(max_examples=60, deadline=None)
@given(
    offered=st.lists(st.sampled_from(ELEVATORS), min_size=1, max_size=5, unique=True),
    active=st.integers(0, 4),
    bracketed=st.booleans(),
    wanted=st.sampled_from(ELEVATORS),
)
def test_the_script_reads_a_scheduler_as_the_step_kind_does(offered, active, bracketed, wanted, tmp_path_factory):
    """Verify passes exactly when :meth:`Scheduler.read` finds the wanted elevator in the file."""
    root = tmp_path_factory.mktemp("sys")
    words = [f"[{n}]" if i == active % len(offered) and bracketed else n for i, n in enumerate(offered)]
    text = " ".join(words) + " \n"
    step = kb_step("scheduler", "scheduler", wanted, "sdq")
    path = kind_of(step).path(step)
    (root / path.lstrip("/")).parent.mkdir(parents=True)
    (root / path.lstrip("/")).write_text(text)
    done = run_script("verify", "scheduler", f"{path} {wanted}\n", root, root / "saved")
    assert (done.returncode == 0) == (kind_of(step).read(text) == wanted), (text, wanted, done.stderr)


def fake_sys(root: Path, scheduler_line: str, tunables: dict[str, str], sysctls: dict[str, str]) -> None:
    queue = root / "sys/block/sdq/queue"
    (queue / "iosched").mkdir(parents=True)
    (queue / "scheduler").write_text(scheduler_line + "\n")
    for name, value in tunables.items():
        (queue / "iosched" / name).write_text(value + "\n")
    for name, value in sysctls.items():
        (root / "proc/sys" / name.replace(".", "/")).parent.mkdir(parents=True, exist_ok=True)
        (root / "proc/sys" / name.replace(".", "/")).write_text(value + "\n")


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_script_keeps_what_it_replaces_and_undo_restores_it(tmp_path: Path) -> None:
    """Switching the elevator keeps the old one's tunables; undo restores the scheduler, then those tunables,
    then the sysctl, and forgets what it kept. Check mode writes nothing; verify names what differs."""
    old = KB.offered_on(KernelVersion.parse("6.12"), "blk-mq")
    tunables = {t.name: str(t.default) for t in KB.elevators["mq-deadline"].tunables if t.default is not None}
    sysctl = kb_step("sysctl", "vm.dirty_ratio", other_value("vm.dirty_ratio", "20"), None)
    root, saved = tmp_path / "root", tmp_path / "saved"
    fake_sys(root, " ".join("[mq-deadline]" if n == "mq-deadline" else n for n in old), tunables,
             {"vm.dirty_ratio": "20"})  # fmt: skip
    before = snapshot(root)
    scheduler = "/sys/block/sdq/queue/scheduler bfq\n"
    dirty_ratio = f"{kind_of(sysctl).path(sysctl)} {sysctl.value}\n"
    assert "bfq" in old
    checked = run_script("check", "scheduler", scheduler, root, saved)
    assert checked.returncode == 0 and "iosched: changed: " in checked.stdout
    assert snapshot(root) == before and not saved.exists()
    assert run_script("apply", "scheduler", scheduler, root, saved).returncode == 0
    assert run_script("apply", "sysctl", dirty_ratio, root, saved).returncode == 0
    for name in tunables:  # a real switch resets them; this fake directory lets the undo show it restores them
        (root / "sys/block/sdq/queue/iosched" / name).write_text("1\n")
    assert (root / "sys/block/sdq/queue/scheduler").read_text() == "bfq\n"
    assert (root / "proc/sys/vm/dirty_ratio").read_text() == sysctl.value + "\n"
    again = run_script("apply", "scheduler", scheduler, root, saved)
    assert again.returncode == 0 and again.stdout == "iosched: ok: /sys/block/sdq/queue/scheduler is bfq\n"
    wrong = run_script("verify", "sysctl", "/proc/sys/vm/dirty_ratio 20\n", root, saved)
    assert wrong.returncode == 1 and f"dirty_ratio reads {sysctl.value}; the plan sets 20" in wrong.stderr
    assert run_script("undo", "scheduler", scheduler, root, saved).returncode == 0
    assert run_script("undo", "sysctl", dirty_ratio, root, saved).returncode == 0
    after = snapshot(root)
    assert after.pop("sys/block/sdq/queue/scheduler") == "mq-deadline\n"  # a real file would bracket it again
    before.pop("sys/block/sdq/queue/scheduler")
    assert after == before
    assert not [p for p in saved.rglob("*") if p.is_file()]


def test_the_script_undoes_a_value_only_on_the_same_device_while_it_holds_what_iosched_set(tmp_path: Path) -> None:
    """A value set by hand since, or a disk whose serial number is another, is left and named (exit 1), and
    what was kept stays for a later undo; back as iosched set it on the same disk, undo restores it."""
    root, saved = tmp_path / "root", tmp_path / "saved"
    fake_sys(root, "mq-deadline kyber bfq [none]", {}, {"vm.dirty_ratio": "20"})
    serial = root / "sys/block/sdq/device/serial"
    serial.parent.mkdir()
    serial.write_text("S1\n")
    scheduler = root / "sys/block/sdq/queue/scheduler"
    sysctl = kb_step("sysctl", "vm.dirty_ratio", other_value("vm.dirty_ratio", "20"), None)
    lines = {"scheduler": "/sys/block/sdq/queue/scheduler bfq\n",
             "sysctl": f"{kind_of(sysctl).path(sysctl)} {sysctl.value}\n"}  # fmt: skip
    for kind, line in lines.items():
        assert run_script("apply", kind, line, root, saved).returncode == 0
    scheduler.write_text("kyber\n")
    (root / "proc/sys/vm/dirty_ratio").write_text("33\n")
    for kind, line in lines.items():
        left = run_script("undo", kind, line, root, saved)
        assert left.returncode == 1 and "changed since iosched set it" in left.stderr
    assert scheduler.read_text() == "kyber\n" and (root / "proc/sys/vm/dirty_ratio").read_text() == "33\n"
    scheduler.write_text("bfq\n")
    serial.write_text("S2\n")
    left = run_script("undo", "scheduler", lines["scheduler"], root, saved)
    assert left.returncode == 1 and "on another device since iosched set it (device/serial S2)" in left.stderr
    assert scheduler.read_text() == "bfq\n"
    serial.write_text("S1\n")
    assert run_script("undo", "scheduler", lines["scheduler"], root, saved).returncode == 0
    assert scheduler.read_text() == "none\n"


def test_the_script_refuses_a_scheduler_the_device_does_not_offer(tmp_path: Path) -> None:
    root = tmp_path / "root"
    fake_sys(root, "[none] mq-deadline", {}, {})
    done = run_script("apply", "scheduler", "/sys/block/sdq/queue/scheduler bfq\n", root, tmp_path / "saved")
    assert done.returncode == 1 and "offers [none] mq-deadline, not bfq" in done.stderr
    assert (root / "sys/block/sdq/queue/scheduler").read_text() == "[none] mq-deadline\n"


@pytest.mark.ansible
def test_a_line_of_shell_syntax_reaches_the_script_as_data_and_never_runs(ansible_env, tmp_path: Path) -> None:
    """The values reach the ``raw`` task's shell quoted: a line made of quotes, command substitutions and a
    separator (which no grammar would let into a plan, so it is written into the playbook's data here) arrives
    as the very value the script refuses, and nothing in it runs."""
    root = tmp_path / "root"
    fake_sys(root, "[none] mq-deadline", {}, {})
    pwned = tmp_path / "pwned"
    value = f"bfq'$(touch {pwned})\"`touch {pwned}`\";touch {pwned};'"
    playbook = plan_ansible.render(KB, [(plan_ansible.EVERY_HOST, [disk_plan("sdq")])])
    planned = "'/sys/block/sdq/queue/scheduler mq-deadline'"
    assert planned in playbook
    hostile = "/sys/block/sdq/queue/scheduler " + value
    (tmp_path / "iosched.yml").write_text(playbook.replace(planned, "'" + hostile.replace("'", "''") + "'"))
    done = run_playbook(ansible_env, tmp_path, "iosched.yml", root, "--tags", "scheduler")
    assert done.returncode == 2 and recap(done.stdout)["failed"] == 1, done.stdout + done.stderr
    assert f"offers [none] mq-deadline, not {value.split()[0]}" in done.stdout.replace("\\\\", "\\")
    assert not pwned.exists() and (root / "sys/block/sdq/queue/scheduler").read_text() == "[none] mq-deadline\n"


@pytest.mark.ansible
def test_a_host_with_more_values_of_a_kind_than_a_run_takes_gets_them_all(ansible_env, tmp_path: Path) -> None:
    """A ``raw`` run is one argument of a shell, which Linux bounds: a host's values of one kind go in runs of
    :data:`~iosched.render.plan_ansible.BATCH`, and every one of them is set."""
    root = tmp_path / "root"
    names = [f"sd{a}{b}" for a in "abcdefgh" for b in "abcdefghijklmnopqrstuvwxyz"][: plan_ansible.BATCH + 3]
    for name in names:
        queue = root / "sys/block" / name / "queue"
        queue.mkdir(parents=True)
        (queue / "scheduler").write_text("[none] mq-deadline\n")
    plans = [disk_plan(name) for name in names]
    assert {p.scheduler for p in plans} == {"mq-deadline"}
    (tmp_path / "iosched.yml").write_text(plan_ansible.render(KB, [(plan_ansible.EVERY_HOST, plans)]))
    done = run_playbook(ansible_env, tmp_path, "iosched.yml", root, "--tags", "scheduler")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"(item={plan_ansible.BATCH} value(s))" in done.stdout and "(item=3 value(s))" in done.stdout
    read = {name: (root / "sys/block" / name / "queue/scheduler").read_text() for name in names}
    assert set(read.values()) == {"mq-deadline\n"}


# ------------------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize("name", ["", "web;reboot", "a b", "db*", "-x", "web\n1", "host:1", "~web", "wébserver"])
def test_host_names_outside_the_inventory_grammar_are_refused(name: str) -> None:
    with pytest.raises(plan_ansible.PlaybookError, match="host name"):
        plan_ansible.render(KB, [(name, [every_kind_plan()])])


def test_values_outside_their_grammar_and_twice_named_hosts_are_refused() -> None:
    plan = every_kind_plan()
    bad = Step.build({**dict(plan.steps[0].fields()), "value": "bfq; reboot"})
    with pytest.raises(plan_ansible.PlaybookError, match="refusing value"):
        plan_ansible.render(KB, [("web1", [Plan.build({**dict(plan.fields()), "steps": (bad,)})])])
    with pytest.raises(plan_ansible.PlaybookError, match="twice"):
        plan_ansible.render(KB, [("web1", [plan]), ("web1", [plan])])


def test_advise_format_ansible_targets_the_host_given(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--example", "pg-vm-ubuntu2404", "--format", "ansible", "--host", "db-1.example.org"]) == 0
    plays = load(capsys.readouterr().out)
    assert [p["hosts"] for p in plays] == [["db-1.example.org"]] * 2
    assert plays[0]["vars"]["iosched_targets"] == ["db-1.example.org"]
    assert main(["advise", "--example", "pg-vm-ubuntu2404", "--format", "ansible"]) == 0
    assert [p["hosts"] for p in load(capsys.readouterr().out)] == [["all"]] * 2


@pytest.mark.parametrize("args", [["--format", "ansible", "--host", "db;reboot"], ["--format", "sh", "--host", "db"]])
def test_advise_refuses_a_bad_host_in_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--example", "pg-vm-ubuntu2404", *args]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("iosched: error: ") and err.count("\n") == 1


# ------------------------------------------------------------------------------------------------ for real


DIRTY_RATIO = Path("/proc/sys/vm/dirty_ratio")


def sysfs(device: str, *parts: str) -> Path:
    return Path("/sys/block", device, "queue", *parts)


@contextlib.contextmanager
def loop_device(tmp_path: Path) -> Iterator[str]:
    """A loop device on a sparse file; whatever the test does, its queue settings are put back and it is
    detached (loop devices keep their settings across detach and reuse)."""
    image = tmp_path / "disk.img"
    with image.open("wb") as fh:
        fh.truncate(64 * 2**20)
    found = subprocess.run(["losetup", "--find", "--show", str(image)], capture_output=True, text=True, check=True)
    device = found.stdout.strip().removeprefix("/dev/")
    scheduler = STEP_KINDS["scheduler"].read(sysfs(device, "scheduler").read_text())
    queue = {name: sysfs(device, name).read_text() for name in ("nomerges", "rq_affinity")}
    dirty_ratio = DIRTY_RATIO.read_text()
    try:
        yield device
    finally:
        DIRTY_RATIO.write_text(dirty_ratio)  # only a broken check mode would have changed it
        sysfs(device, "scheduler").write_text(scheduler)
        for name, value in queue.items():
            sysfs(device, name).write_text(value)
        subprocess.run(["losetup", "-d", f"/dev/{device}"], check=False)


def loop_plan(device: str) -> Plan:
    """The plan of a SCSI disk of this kernel, moved onto the loop device: the KB rightly refuses to plan a
    loop device, but its queue is a real sysfs queue to apply a disk's plan to. A tunable of the planned
    elevator, a queue attribute, and, as consider steps the test applies only in check mode, a queue attribute
    and a sysctl are added from the KB; and a warning that looks like a template."""
    offered = sysfs(device, "scheduler").read_text().replace("[", "").replace("]", "").split()
    now = STEP_KINDS["scheduler"].read(sysfs(device, "scheduler").read_text())
    kernel = re.match(r"\d+\.\d+", platform.release())[0]
    plans = (plan_or_none(Context(hw=hw, workload=w.id, kernel=kernel, device="sdc", scheduler=now))
             for hw in ("hdd", "ssd") for w in KB.section("workloads"))  # fmt: skip
    plan = next(p for p in plans if p and p.scheduler in offered and p.scheduler != now)
    moved = tuple(Step.build({**dict(s.fields()), "device": device if s.device else None}) for s in plan.steps)
    tunable = tunable_of(plan.scheduler)
    nomerges, rq_affinity = (sysfs(device, name).read_text().strip() for name in ("nomerges", "rq_affinity"))
    moved += (
        kb_step("tunable", tunable, other_value(tunable, str(KB.setting(tunable).default)), device),
        kb_step("queue-attribute", "queue.nomerges", other_value("queue.nomerges", nomerges), device),
        kb_step(
            "queue-attribute", "queue.rq_affinity", other_value("queue.rq_affinity", rq_affinity), device, "consider"
        ),
        kb_step(
            "sysctl", "vm.dirty_ratio", other_value("vm.dirty_ratio", DIRTY_RATIO.read_text().strip()), None, "consider"
        ),
    )
    template = Notice(id="template", severity="warn", text="{{ 6 * 7 }} {{ lookup('env', 'HOME') }}")
    return Plan.build({**dict(plan.fields()), "device": device, "steps": moved, "udev_match": udev.match(device),
                       "warnings": (template,)})  # fmt: skip


def run_playbook(env: dict[str, str], cwd: Path, playbook: Path | str, root: Path, *args: str,
                 host: str = "localhost") -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``ansible-playbook`` of ``playbook`` on ``host`` over the local connection, as root without sudo, the files
    it writes under ``root``."""
    return subprocess.run([BIN / "ansible-playbook", "-c", "local", "-i", f"{host},", str(playbook), "-e",
                           "ansible_become=false", "-e", f"iosched_root={root}", *args], env=env, cwd=cwd,
                          capture_output=True, text=True)  # fmt: skip


def recap(out: str) -> dict[str, int]:
    found = re.search(r"ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", out)
    assert found, out
    return dict(zip(("ok", "changed", "unreachable", "failed"), map(int, found.groups()), strict=True))
