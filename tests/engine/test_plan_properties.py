"""Hypothesis over every context the KB describes: invariants of plans, and the sh form run for real."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from engine_strategies import KB, contexts
from hypothesis import HealthCheck, given, settings

from iosched.context import Context, resolve
from iosched.engine import advise
from iosched.kb import TunableRef
from iosched.plan import STEP_ORDER
from iosched.render import plan_json, plan_markdown, plan_shell

PROPS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(ctx=contexts())
def test_plans_are_deterministic(ctx: Context) -> None:
    assert advise(KB, ctx) == advise(KB, ctx)
    assert plan_json.render(KB, advise(KB, ctx)) == plan_json.render(KB, advise(KB, ctx))


@PROPS
@given(ctx=contexts())
def test_every_command_is_valid_for_the_kernel(ctx: Context) -> None:
    plan = advise(KB, ctx)
    r = resolve(KB, ctx)
    available = {e.name for e in KB.elevators_on(r.kernel, r.io_path)}
    if plan.scheduler is not None:
        assert plan.scheduler in available
    for step in plan.steps:
        if step.kind == "scheduler":
            assert step.value in available and step.value in step.command
        entity = KB.get(step.target)
        if isinstance(entity, TunableRef):
            assert entity.elevator.name == plan.scheduler
            assert entity.tunable.accepts(int(step.value) if step.value.lstrip("-").isdigit() else step.value)
        assert ("'" not in plan.device and plan.device in step.command) or step.kind in ("sysctl", "mount-option",
                                                                                       "boot-parameter")  # fmt: skip


@PROPS
@given(ctx=contexts())
def test_steps_are_ordered_sourced_and_explained(ctx: Context) -> None:
    plan = advise(KB, ctx)
    kinds = [STEP_ORDER.index(s.kind) for s in plan.steps]
    assert kinds == sorted(kinds)
    for step in plan.steps:
        assert step.because and step.sources and step.verify and step.undo
        assert all(KB.get(s) is not None for s in step.sources)
        assert all(KB.get(r) is not None for r in step.because)


@PROPS
@given(ctx=contexts())
def test_barriers_never_change_silently(ctx: Context) -> None:
    plan = advise(KB, ctx)
    for step in plan.steps:
        option = KB.get(step.target)
        if step.kind == "mount-option" and option.disables_barriers:
            assert plan.facts["cache"] == "battery-backed"
            assert any(w.risk == "data-loss" for w in plan.warnings)


@PROPS
@given(ctx=contexts())
def test_markdown_has_no_ansi_and_names_every_step(ctx: Context) -> None:
    plan = advise(KB, ctx)
    text = plan_markdown.render(KB, plan)
    assert "\x1b[" not in text
    assert all(step.command in text for step in plan.steps)


def _fake_root(root: Path, device: str, scheduler_line: str, sysctls: dict[str, str]) -> None:
    queue = root / "sys/block" / device / "queue"
    (queue / "iosched").mkdir(parents=True)
    (queue / "scheduler").write_text(scheduler_line + "\n")
    for name in ("read_ahead_kb", "nr_requests", "rq_affinity", "nomerges"):
        (queue / name).write_text("128\n")
    for elevator in KB.section("elevators"):
        for tunable in elevator.tunables:
            (queue / "iosched" / tunable.name).write_text(f"{tunable.default}\n")
    for name, value in sysctls.items():
        path = root / "proc/sys" / name.replace(".", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(value + "\n")


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctx=contexts())
def test_sh_applies_then_its_journal_restores_everything(ctx: Context) -> None:
    plan = advise(KB, ctx)
    script = plan_shell.render(KB, plan)
    subprocess.run(["sh", "-n"], input=script, text=True, check=True)
    r = resolve(KB, ctx)
    offered = [e.name for e in KB.elevators_on(r.kernel, r.io_path)] or ["none"]
    previous = plan.scheduler if plan.scheduler in offered else offered[0]
    line = " ".join(f"[{n}]" if n == previous else n for n in offered)
    sysctls = {s.target: "7" for s in plan.steps if s.kind == "sysctl"}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "root")
        _fake_root(root, plan.device, line, sysctls)
        before = _snapshot(root)
        journal = Path(tmp, "undo.sh")
        env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_JOURNAL": str(journal)}
        subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, text=True)
        applied = _snapshot(root)
        for step in plan.steps:
            if step.kind == "scheduler":
                assert applied[f"sys/block/{plan.device}/queue/scheduler"].strip() == step.value
            if step.kind == "sysctl":
                assert applied["proc/sys/" + step.target.replace(".", "/")].strip() == step.value
        for path, content in plan.files.items():
            assert (root / path.lstrip("/")).read_text() == content + "\n"
        subprocess.run(["sh", str(journal)], env=env, check=True, capture_output=True, text=True)
        after = _snapshot(root)
    scheduler_file = f"sys/block/{plan.device}/queue/scheduler"
    assert after.pop(scheduler_file).strip() == previous
    before.pop(scheduler_file)
    assert after == before


def test_failed_apply_rolls_back(tmp_path: Path) -> None:
    """A write that fails half-way (here: the sysctl) leaves the scheduler as it was."""
    ctx = Context(hw="hdd", workload="batch", distro="sles12sp5", device="sda")
    plan = advise(KB, ctx)
    assert [s.kind for s in plan.steps] == ["scheduler", "sysctl"]
    root = tmp_path / "root"
    r = resolve(KB, ctx)
    offered = [e.name for e in KB.elevators_on(r.kernel, r.io_path)]
    previous = next(n for n in offered if n != plan.scheduler)
    _fake_root(root, "sda", " ".join(f"[{n}]" if n == previous else n for n in offered), {})
    (root / "proc/sys/vm/dirty_ratio").mkdir(parents=True)  # a directory: the write fails
    env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_JOURNAL": str(tmp_path / "undo.sh")}
    done = subprocess.run(["sh", "-c", plan_shell.render(KB, plan)], env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "rolling back" in done.stderr
    assert (root / "sys/block/sda/queue/scheduler").read_text().strip() == previous
    assert not (root / "etc/udev/rules.d/60-iosched.rules").exists()
