"""Hypothesis over every context the KB describes: invariants of plans, and the sh form run for real."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from engine_strategies import KB, contexts
from iosched.knowledge.base import TunableRef
from iosched.knowledge.context import Context, resolve
from iosched.mechanisms import udev
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.records.plan import Plan
from iosched.records.runtime import KEEP
from iosched.render import plan_json, plan_markdown, plan_shell
from iosched.steps import STEP_KINDS, STEP_ORDER, kind_of
from iosched.vocab import RISKS

PROPS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _plan(ctx: Context) -> Plan | None:
    from iosched.knowledge.context import ContextError

    try:
        return advise(KB, ctx)
    except ContextError:
        return None


@PROPS
@given(ctx=contexts())
def test_plans_are_deterministic(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is not None:
        assert plan_json.render(KB, plan) == plan_json.render(KB, advise(KB, ctx))


@PROPS
@given(ctx=contexts())
def test_every_command_is_valid_for_the_kernel_and_device(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is None:
        return
    r = resolve(KB, ctx)
    available = set(r.offered)  # what the device offers on this release's kernel (a vendor's backports included)
    if plan.scheduler is not None:
        assert plan.scheduler in available
    for step in plan.steps:
        command = kind_of(step).apply(step)
        if step.kind == "scheduler":
            assert set(step.values) <= available and all(v in command for v in step.values)
        entity = KB.get(step.target)
        if isinstance(entity, TunableRef):
            assert entity.elevator.name == (plan.scheduler or plan.previous_scheduler)
            assert entity.tunable.accepts(int(step.value) if step.value.lstrip("-").isdigit() else step.value)
        if step.device is not None:
            assert f"/sys/block/{plan.device}/" in command


@PROPS
@given(ctx=contexts())
def test_already_only_for_observed_values_and_assumed_ones_are_checked(ctx: Context) -> None:
    """A step changes something or, when its current value was only assumed to be the planned one, checks
    it; "unchanged" is said only of values read from the machine, and each assumption is in the plan."""
    plan = _plan(ctx)
    if plan is None:
        return
    facts = {a.fact for a in plan.assumptions}
    for step in plan.steps:
        assert step.value != step.previous or step.expected_already, step
        assert (step.current_from == "assumed") == (step.assumption is not None or step.previous is None), step
        assert step.assumption is None or step.assumption in facts, step
    assert all(u.step.current_from == "observed" for u in plan.unchanged)
    if plan.scheduler is not None and plan.scheduler == plan.previous_scheduler:
        observed = ctx.scheduler is not None
        assert [s.expected_already for s in plan.steps if s.kind == "scheduler"] == ([] if observed else [True])
        assert any(u.step.target == "scheduler" for u in plan.unchanged) == observed


@PROPS
@given(ctx=contexts())
def test_steps_are_ordered_sourced_and_explained(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is None:
        return
    kinds = [STEP_ORDER.index(s.kind) for s in plan.steps]
    assert kinds == sorted(kinds)
    for step in plan.steps:
        assert step.because and step.sources and kind_of(step).verify(step)
        assert all(KB.get(s) is not None for s in step.sources)
        assert all(KB.get(r) is not None for r in step.because)


@PROPS
@given(ctx=contexts())
def test_no_plan_ever_turns_barriers_off(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is None:
        return
    for step in plan.steps:
        option = KB.get(step.target)
        assert not getattr(option, "disables_barriers", False)
    barriers_off = plan.facts.get("mount.barriers") is False
    if ctx.cache == "battery-backed" and ctx.fs and barriers_off:
        assert any(w.risk == "data-loss" for w in plan.warnings)
    if not barriers_off and not any("barrier" in s.value for s in plan.steps):  # the subject is absent
        assert not any(w.id in ("IOS901", "IOS902", "write-barriers-data-loss") for w in plan.warnings)


@PROPS
@given(ctx=contexts())
def test_warnings_come_most_severe_risk_first(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is None:
        return
    ranks = [RISKS.index(w.risk) if w.risk in RISKS else len(RISKS) for w in plan.warnings]
    assert ranks == sorted(ranks)


@PROPS
@given(ctx=contexts())
def test_markdown_has_no_ansi_and_names_every_command(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is None:
        return
    text = plan_markdown.render(KB, plan)
    assert "\x1b[" not in text and "127.0.0.1" not in text and "localhost" not in text
    for step in plan.steps:  # a step decided on the machine: each case's command
        for value in step.values:
            case = step if step.decide is None else step.replace(value=value, decide=None)
            assert kind_of(step).apply(case) in text


def _fake_root(root: Path, device: str, scheduler_line: str, sysctls: dict[str, str]) -> None:
    queue = root / "sys/block" / device / "queue"
    (queue / "iosched").mkdir(parents=True)
    (root / "sys/block" / device / "mq/0").mkdir(parents=True)  # one hardware queue: a decided step's first case
    (queue / "scheduler").write_text(scheduler_line + "\n")
    for attribute in KB.section("queue_attributes"):
        if attribute.writable and attribute.name != "scheduler":
            (queue / attribute.name).write_text(f"{attribute.default}\n")
    for elevator in KB.section("elevators"):
        for tunable in elevator.tunables:
            (queue / "iosched" / tunable.name).write_text(f"{tunable.default}\n")
    for name, value in sysctls.items():
        path = root / "proc/sys" / name.replace(".", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(value + "\n")


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def _offered_line(ctx: Context, plan: Plan) -> tuple[str, str]:
    r = resolve(KB, ctx)
    offered = KB.offered_on(r.kernel, r.io_path) or ["none"]
    previous = plan.previous_scheduler if plan.previous_scheduler in offered else offered[0]
    return " ".join(f"[{n}]" if n == previous else n for n in offered), previous


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctx=contexts())
def test_sh_applies_changes_nothing_the_second_time_and_its_journal_restores_everything(ctx: Context) -> None:
    plan = _plan(ctx)
    if plan is None:
        return
    script = plan_shell.render(KB, plan)
    subprocess.run(["sh", "-n"], input=script, text=True, check=True)
    line, previous = _offered_line(ctx, plan)
    sysctls = {s.target: "7" for s in plan.steps if s.kind == "sysctl"}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "root")
        _fake_root(root, plan.device, line, sysctls)
        before = _snapshot(root)
        journal = Path(tmp, "undo.sh")
        env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_JOURNAL": str(journal), "IOSCHED_APPLY_CONSIDER": "1"}
        subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, text=True)
        applied = _snapshot(root)
        for step in plan.steps:
            if kind_of(step).runtime:
                one = step.decide.choices[0].value if step.decide else step.value  # the case of one queue
                wanted = previous if one == KEEP else one
                assert kind_of(step).read(applied[kind_of(step).path(step).lstrip("/")]) == wanted
        found_otherwise = {s for s in plan.steps if s.expected_already and kind_of(s).read(
            before.get(kind_of(s).path(s).lstrip("/"), "")) != s.value}  # fmt: skip
        for path, content in files([plan]).items():
            own = [s for s in plan.steps if path in files([plan], lambda x, s=s: x == s)]
            written = any(not s.expected_already or s in found_otherwise for s in own)
            assert (root / path.lstrip("/")).is_file() == written, path
            assert not written or (root / path.lstrip("/")).read_text() == content + "\n"
        again = subprocess.run(["sh", "-c", script], env={**env, "IOSCHED_JOURNAL": str(journal) + ".again"},
                               check=True, capture_output=True, text=True)  # fmt: skip
        assert "iosched: changed: " not in again.stdout and _snapshot(root) == applied  # a second run changes nothing
        subprocess.run(["sh", str(journal)], env=env, check=True, capture_output=True, text=True)
        after = _snapshot(root)
    scheduler_file = f"sys/block/{plan.device}/queue/scheduler"
    # a real sysfs file would read the bracketed list again
    assert STEP_KINDS["scheduler"].read(after.pop(scheduler_file)) == previous
    before.pop(scheduler_file)
    assert after == before


def _sles12_batch(tmp_path: Path) -> tuple[Plan, Path, str, dict[str, str]]:
    ctx = Context(hw="hdd", workload="batch", distro="sles12sp5", device="sda", symptoms="dirty-stall")
    plan = advise(KB, ctx)
    assert [s.kind for s in plan.steps] == ["scheduler", "sysctl"]
    root = tmp_path / "root"
    line, previous = _offered_line(ctx, plan)
    _fake_root(root, "sda", line, {})
    env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_APPLY_CONSIDER": "1"}
    return plan, root, previous, env


def test_a_failing_check_changes_nothing(tmp_path: Path) -> None:
    plan, root, _, env = _sles12_batch(tmp_path)
    (root / "proc/sys/vm/dirty_ratio").mkdir(parents=True)  # a directory: not writable as a file
    before = _snapshot(root)
    done = subprocess.run(["sh", "-c", plan_shell.render(KB, plan)], env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "cannot write" in done.stderr
    assert _snapshot(root) == before


def test_failed_apply_rolls_back(tmp_path: Path) -> None:
    """A step that fails half-way (here: persisting, after the values were written) restores every value."""
    plan, root, previous, env = _sles12_batch(tmp_path)
    sysctl = root / "proc/sys/vm/dirty_ratio"
    sysctl.parent.mkdir(parents=True)
    sysctl.write_text("20\n")
    (root / "etc").mkdir()
    (root / "etc/udev").write_text("not a directory\n")
    done = subprocess.run(["sh", "-c", plan_shell.render(KB, plan)], env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "rolling back" in done.stderr
    assert (root / "sys/block/sda/queue/scheduler").read_text().strip() == previous
    assert sysctl.read_text() == "20\n"


def test_a_consider_step_is_not_applied_unattended(tmp_path: Path) -> None:
    plan, root, _, env = _sles12_batch(tmp_path)
    (sysctl,) = [s for s in plan.steps if s.kind == "sysctl"]
    assert sysctl.severity == "consider"
    path = root / "proc/sys/vm/dirty_ratio"
    path.parent.mkdir(parents=True)
    path.write_text("20\n")
    env = {k: v for k, v in env.items() if k != "IOSCHED_APPLY_CONSIDER"}
    subprocess.run(["sh", "-c", plan_shell.render(KB, plan)], env=env, check=True, capture_output=True, text=True)
    assert path.read_text() == "20\n"
    assert (root / "sys/block/sda/queue/scheduler").read_text().strip() == plan.scheduler


def test_a_second_run_changes_nothing_and_keeps_no_journal(tmp_path: Path) -> None:
    plan, root, _, env = _sles12_batch(tmp_path)
    env = {k: v for k, v in env.items() if k != "IOSCHED_APPLY_CONSIDER"}
    script = plan_shell.render(KB, plan)
    runs = [subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, text=True) for _ in "12"]
    journals = [p for p in (root / "var/lib/iosched").iterdir() if p.name.startswith("undo-") and "." not in p.name]
    assert len(journals) == 1
    assert "iosched: changed: " in runs[0].stdout and "iosched: changed: " not in runs[1].stdout
    assert "nothing to change" in runs[1].stdout


def test_an_interrupted_apply_rolls_back_and_says_so(tmp_path: Path) -> None:
    """TERM while the script waits on a read (a FIFO that nobody writes) restores what was applied."""
    plan, root, previous, env = _sles12_batch(tmp_path)
    fifo = root / "proc/sys/vm/dirty_ratio"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    journal = tmp_path / "undo.sh"
    proc = subprocess.Popen(["sh", "-c", plan_shell.render(KB, plan)], env={**env, "IOSCHED_JOURNAL": str(journal)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 20
    scheduler = root / "sys/block/sda/queue/scheduler"
    while scheduler.read_text().strip() != plan.scheduler and time.monotonic() < deadline:
        time.sleep(0.05)
    assert scheduler.read_text().strip() == plan.scheduler, "the script never reached the blocking read"
    while True:  # ENXIO until the script has opened the FIFO to read it: only then is it waiting on the read
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError:
            assert time.monotonic() < deadline, "the script never opened the FIFO"
            time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    os.write(fd, b"20\n")  # release the blocked reader, so that the trap runs
    os.close(fd)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0 and "interrupted" in err and "rolling back" in err
    assert scheduler.read_text().strip() == previous


def test_undo_goes_on_after_a_failure_and_reports_it(tmp_path: Path) -> None:
    """The disk vanished after apply: undo still removes the persisted files, then says what it could not do."""
    plan, root, _, env = _sles12_batch(tmp_path)
    path = root / "proc/sys/vm/dirty_ratio"
    path.parent.mkdir(parents=True)
    path.write_text("20\n")
    journal = tmp_path / "undo.sh"
    env = {**env, "IOSCHED_JOURNAL": str(journal)}
    subprocess.run(["sh", "-c", plan_shell.render(KB, plan)], env=env, check=True, capture_output=True, text=True)
    assert (root / udev.path("sda").lstrip("/")).exists()
    for f in sorted((root / "sys/block/sda").rglob("*"), reverse=True):
        f.unlink() if f.is_file() else f.rmdir()
    done = subprocess.run(["sh", str(journal)], env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "failure(s)" in done.stderr and "sys/block/sda/queue/scheduler" in done.stderr
    assert not (root / udev.path("sda").lstrip("/")).exists()
    assert path.read_text() == "20\n"
