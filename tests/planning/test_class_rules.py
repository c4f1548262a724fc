"""A persistent file's name, header and match say the same thing: a plan that names no device writes a class
rule (named and headed as one, matching every disk of its preset), which coexists with per-device rules and
sorts before them, so a device's own rule wins for that device."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_converge import run

from engine_strategies import KB
from iosched.knowledge.context import Context
from iosched.mechanisms import udev
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.render import plan_shell


@pytest.mark.parametrize("hw", [h.id for h in KB.section("hardware")])
def test_a_plan_without_a_device_writes_a_class_rule(hw: str) -> None:
    plan = advise(KB, Context(hw=hw, workload="db"))
    rules = {path: text for path, text in files([plan]).items() if udev.is_rules(path)}
    for path, text in rules.items():
        assert path == udev.class_path(hw)
        head, *lines = text.splitlines()
        assert "class rule" in head and "one device" not in head
        for rule in (line for line in lines if not line.startswith("#")):  # a decided rule: a line per case
            assert udev.terms(KB.get(hw).udev_match) in rule and f'KERNEL=="{plan.device}"' not in rule


@pytest.mark.parametrize("device_class", [c for c in KB.section("device_classes") if c.plan == "device"])
def test_a_class_rule_sorts_before_every_device_rule(device_class) -> None:
    name = device_class.kernel_names[0].replace("*", "a").replace("[!0-9]", "").replace("[0-9]", "0")
    assert Path(udev.class_path("ssd")).name < Path(udev.path(name)).name, name


def test_a_class_rule_and_a_device_rule_coexist_and_undo_apart(tmp_path: Path) -> None:
    whole = advise(KB, Context(hw="ssd", workload="db"))
    one = advise(KB, Context(hw="ssd", workload="db", device="sdb"))
    for device in ("sda", "sdb"):
        queue = tmp_path / "sys/block" / device / "queue"
        queue.mkdir(parents=True)
        (queue / "scheduler").write_text("mq-deadline kyber bfq [none]\n")
    journals = []
    for plan in (whole, one):
        done = run(plan_shell.render(KB, plan), tmp_path)
        assert done.returncode == 0, done.stderr
        journals.append(done.stdout.split("undo journal: ", 1)[1].split("\n", 1)[0])
    rules = tmp_path / udev.DIRECTORY.strip("/")
    assert sorted(p.name for p in rules.iterdir()) == sorted(
        Path(p).name for p in (udev.class_path("ssd"), udev.path("sdb"))
    )
    assert run(f"sh {journals[0]}", tmp_path).returncode == 0
    assert [p.name for p in rules.iterdir()] == [Path(udev.path("sdb")).name]
