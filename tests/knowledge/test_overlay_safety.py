"""Hostile overlays: a --kb layer that smuggles shell, udev or Markdown through a value is refused by
``kb check``, and hostile prose is rendered harmless in every output (nothing it says is executed)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from iosched.kbfiles import bundled_kb
from iosched.knowledge.context import Context
from iosched.knowledge.kbload import load
from iosched.planning.engine import advise
from iosched.render import plan_markdown, plan_shell

PAYLOADS = [
    "0\ntouch {marker}",
    '0" RUN+="/bin/touch {marker}',
    "$(touch {marker})",
    "`touch {marker}`",
    "0; touch {marker}",
    "mq-deadline\u202e; touch {marker}",
    "x' ; touch {marker} ; '",
]


def _layer(tmp_path: Path, document: dict) -> Path:
    layer = tmp_path / "layer"
    layer.mkdir(exist_ok=True)
    (layer / "overlay.yaml").write_text(yaml.safe_dump(document, allow_unicode=True))
    return layer


def _rule(to: object, target: str = "queue.scheduler") -> dict:
    return {
        "id": "IOS950", "name": "local", "summary": "Local policy.", "severity": "recommend", "priority": 99,
        "when": {"fact": "hw", "eq": "ssd"}, "actions": [{"set": target, "to": to}], "rationale": "Local.",
        "sources": ["linux-doc-queue-sysfs"],
        "examples": [{"context": {"hw": "ssd"}, "expect": "fires"}, {"context": {"hw": "hdd"}, "expect": "silent"}],
    }  # fmt: skip


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("target", ["queue.scheduler", "queue.write_cache", "scheduler", "vm.dirty_ratio"])
def test_a_hostile_action_value_is_refused(tmp_path: Path, payload: str, target: str) -> None:
    _, diagnostics = load([bundled_kb(), _layer(tmp_path, {"rules": [_rule(payload.format(marker="/tmp/x"), target)]})])
    assert diagnostics and {d.code for d in diagnostics} <= {"KB108", "KB109"}


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_distribution_and_hardware_values_are_refused(tmp_path: Path, payload: str) -> None:
    value = payload.format(marker="/tmp/x")
    distro = {"id": "evil1", "name": "Evil", "family": "debian", "kernel": "6.1", "scsi_blk_mq": True,
              "grub_update": value, "sources": ["linux-doc-queue-sysfs"]}  # fmt: skip
    preset = {"id": "evilhw", "title": "Evil", "summary": "s", "facts": {}, "example_device": "sdz",
              "udev_match": [{"key": "KERNEL", "value": value}], "sources": ["linux-doc-queue-sysfs"]}  # fmt: skip
    for document in ({"distributions": [distro]}, {"hardware": [preset]}):
        _, diagnostics = load([bundled_kb(), _layer(tmp_path, document)])
        assert [d.code for d in diagnostics] == ["KB012"]


def _every_payload(test: Callable[..., None]) -> Callable[..., None]:
    """Every payload of :data:`PAYLOADS` as an explicit example: each runs on every run."""
    for payload in PAYLOADS:
        test = example(prose=payload)(test)
    return test


SHELL_AND_MARKUP = st.sampled_from(list("$`'\"\\;|&<>(){}[]#*!~=\n\t "))
"""What quotes, separates, substitutes or marks up in sh, udev and Markdown."""


@pytest.mark.slow
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
# a KB file is UTF-8 text: a lone surrogate cannot be written to one (yaml escapes it, and the file is KB001)
@given(prose=st.text(SHELL_AND_MARKUP | st.characters(codec="utf-8"), min_size=1, max_size=80))
@_every_payload
def test_hostile_prose_never_runs(tmp_path: Path, prose: str) -> None:
    """Rule summaries and rationales reach sh comments and Markdown: they stay text."""
    marker = tmp_path / "owned"
    text = prose.format(marker=marker) if "{marker}" in prose else prose
    rule = _rule("none", "scheduler")
    rule.update(summary=text, rationale=text)
    kb, diagnostics = load([bundled_kb(), _layer(tmp_path, {"rules": [rule]})])
    if diagnostics:
        assert {d.code for d in diagnostics} <= {"KB012"}  # control characters are refused outright
        return
    plan = advise(kb, Context(hw="ssd", workload="db", kernel="6.8", device="sdb"))
    script = plan_shell.render(kb, plan)
    root = tmp_path / "root"
    queue = root / "sys/block/sdb/queue"
    (queue / "iosched").mkdir(parents=True, exist_ok=True)
    (queue / "scheduler").write_text("[mq-deadline] none\n")
    env = {**os.environ, "IOSCHED_ROOT": str(root), "IOSCHED_JOURNAL": str(tmp_path / "undo.sh")}
    subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, text=True)
    subprocess.run(["sh", str(tmp_path / "undo.sh")], env=env, check=True, capture_output=True, text=True)
    assert not marker.exists()
    markdown = plan_markdown.render(kb, plan)
    for line in markdown.splitlines():
        assert not line.startswith(("touch", "curl", "RUN+=")), line
