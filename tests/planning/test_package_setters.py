"""Schedulers set by the distribution's packages: a udev rule that applies elevator= from the command line (RHEL 8/9's
40-elevator.rules, read from the KB) decides what a disk gets at boot, and a setter naming an elevator the disk does
not offer is reported instead of trusted."""

from __future__ import annotations

import re
from pathlib import Path
from posixpath import basename
from typing import Any

import pytest

from iosched.capture.source import TreeSource
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.mechanisms import udev
from iosched.mechanisms.cmdline import read_cmdline_tuner
from iosched.mechanisms.udev import cmdline_imports, logical_lines, read_udev_tuners, rule_settings
from iosched.planning.engine import advise
from iosched.planning.hostplan import package_rules, plan_host
from iosched.records.system import Device, Host, System

OFFERED = ("mq-deadline", "kyber", "bfq", "none")


def _elevator_param_distros(kb: Kb) -> list[Any]:
    found = [d for d in kb.section("distributions") if d.elevator_param_rule is not None]
    assert found, "the KB names no distribution whose udev rule applies elevator="
    return found


def _system(distro: Any, cmdline: str, scheduler: str = "mq-deadline") -> System:
    host = Host(kernel=f"{distro.kernel}.0-1", distro=distro.id, cmdline=cmdline)
    vda = Device(name="vda", kind="virtio", rotational=True, scheduler=scheduler, schedulers=OFFERED,
                 io_path="blk-mq", hw="virtual", nr_hw_queues=1)  # fmt: skip
    return System(host=host, devices=(vda,), tuners=tuple(read_cmdline_tuner(cmdline)))


def _scheduler_at_boot(plan: Any) -> str | None:
    kept = [u for u in plan.unchanged if u.step.kind == "scheduler"]
    return kept[0].at_boot if kept else None


def test_a_rule_value_from_the_command_line_is_the_hosts() -> None:
    text = 'IMPORT{cmdline}="elevator"\nENV{elevator}!="", ATTR{queue/scheduler}="$env{elevator}"\n'
    assert cmdline_imports(text, "ro quiet elevator=none") == {"elevator": "none"}
    assert cmdline_imports(text, "ro quiet") == {}
    rule = 'ENV{elevator}!="", ATTR{queue/scheduler}="$env{elevator}"'
    assert rule_settings(rule, {"elevator": "none"}) == {"scheduler": "none"}
    assert rule_settings(rule, {}) == {}


@pytest.mark.parametrize("elevator", ["none", "bfq"])
def test_elevator_on_the_command_line_is_what_the_disk_gets_at_boot(kb: Kb, elevator: str) -> None:
    """The capture need not hold the package's rule file: the KB's copy of it is applied with the host's cmdline."""
    for distro in _elevator_param_distros(kb):
        system = _system(distro, f"ro quiet elevator={elevator}")
        assert any(t.name.startswith(distro.elevator_param_rule.path) for t in package_rules(kb, system))
        (plan,) = plan_host(kb, system, Context(workload="db")).plans
        assert plan.scheduler == "mq-deadline" and not [s for s in plan.steps if s.kind == "scheduler"]
        assert _scheduler_at_boot(plan) == elevator, distro.id


def test_an_elevator_the_disk_does_not_offer_is_reported_and_not_trusted(kb: Kb) -> None:
    """elevator=noop carried over from RHEL 7: udev writes it, the kernel refuses it, the disk keeps its default."""
    for distro in _elevator_param_distros(kb):
        (plan,) = plan_host(kb, _system(distro, "ro elevator=noop"), Context(workload="db")).plans
        assert "boot-setter-elevator-not-offered" in {w.id for w in plan.warnings}, distro.id
        assert _scheduler_at_boot(plan) in (None, "mq-deadline")
        (clean,) = plan_host(kb, _system(distro, "ro quiet"), Context(workload="db")).plans
        assert "boot-setter-elevator-not-offered" not in {w.id for w in clean.warnings}


def test_elevator_param_advice_holds_only_where_no_rule_applies_it(kb: Kb) -> None:
    """'elevator= has no effect' is false where the distribution's udev rule applies it; there the command line is
    offered as a way to persist the choice for every disk."""
    applying = {d.id for d in _elevator_param_distros(kb)}
    for distro in kb.section("distributions"):
        plan = advise(kb, Context(hw="hdd", workload="desktop", distro=distro.id, device="sda"))
        fired = "IOS121" in plan.fired
        alternatives = [a for s in plan.steps if s.kind == "scheduler" for a in s.alternatives]
        if distro.id in applying:
            assert not fired, distro.id
            assert all("elevator=" in a for a in alternatives) and alternatives, distro.id
        elif distro.kernel >= (5, 0) and plan.steps:
            assert not any("elevator=" in a for a in alternatives), distro.id


def test_devices_the_rule_skips_keep_their_own_default(kb: Kb) -> None:
    """40-elevator.rules jumps past dm-* and md*: a multipath device is neither set by elevator= at boot nor
    offered the command line as a way to persist its scheduler."""
    for distro in _elevator_param_distros(kb):
        rule = distro.elevator_param_rule
        assert rule.skipped and not rule.reaches("dm-0") and rule.reaches("vda"), distro.id
        system = _system(distro, "ro elevator=none")
        tuners = package_rules(kb, system)
        added = [t for t in tuners if t.name.startswith(rule.path)]
        assert added and all(t.devices == ("vda",) for t in added)
        plan = advise(kb, Context(hw="san", workload="db", distro=distro.id, device="dm-0"))
        assert not any("elevator=" in a for s in plan.steps for a in s.alternatives), distro.id


def _tree(tmp_path: Path, files: dict[str, str]) -> TreeSource:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return TreeSource(tmp_path)


def test_a_rule_guarded_by_what_was_not_read_does_not_decide_the_boot_scheduler(kb: Kb, tmp_path: Path) -> None:
    """btrfs-progs' 64-btrfs-zoned.rules acts only on zoned disks holding btrfs: read from a host, it is a
    conditional setter, and a plain disk's scheduler at boot is not taken from it."""
    rule = kb.get("btrfs-progs-64-btrfs-zoned")
    src = _tree(tmp_path, {"usr/lib/udev/rules.d/64-btrfs-zoned.rules": rule.content})
    (tuner,) = read_udev_tuners(src)
    assert tuner.settings == {"scheduler": "mq-deadline"} and tuner.conditional
    assert tuner.requires == {"queue/zoned": "host-managed"}
    ctx = Context(hw="nvme", workload="db", kernel="6.8", device="nvme0n1", scheduler="none")
    plain = advise(kb, ctx, current={"scheduler": "none", "queue.zoned": "none"}, tuners=(tuner,))
    assert plain.scheduler == "none" and _scheduler_at_boot(plain) == "none"
    certain = tuner.replace(conditional=False)
    zoned = advise(kb, ctx, current={"scheduler": "none", "queue.zoned": "host-managed"}, tuners=(certain,))
    assert _scheduler_at_boot(zoned) == "mq-deadline"
    other = advise(kb, ctx, current={"scheduler": "none", "queue.zoned": "none"}, tuners=(certain,))
    assert _scheduler_at_boot(other) == "none"


def test_a_rule_that_steps_aside_for_elevator_sets_nothing_when_it_is_given(kb: Kb, tmp_path: Path) -> None:
    """SLE 12's 60-ssd-scheduler.rules jumps to its end when elevator= is on the command line."""
    (rule,) = [r for d in kb.section("distributions") if d.id == "sles12sp5" for r in d.udev_rules]
    src = _tree(tmp_path, {rule.path.lstrip("/"): rule.content})
    (plain,) = read_udev_tuners(src, "ro quiet")
    assert plain.settings == {"scheduler": "deadline"} and plain.requires == {"queue/rotational": "0"}
    assert read_udev_tuners(src, "ro quiet elevator=cfq") == []


def test_an_observed_elevator_param_the_kernel_ignores_is_reported_where_nothing_applies_it(kb: Kb) -> None:
    """Only a host that boots with elevator= hears that it does nothing, and not where its distribution's udev
    rule applies it."""
    applying = _elevator_param_distros(kb)[0]
    ignoring = next(d for d in kb.section("distributions") if d.elevator_param_rule is None and d.kernel >= (5, 0))
    for distro, expected in ((ignoring, True), (applying, False)):
        (plan,) = plan_host(kb, _system(distro, "ro elevator=none"), Context(workload="db")).plans
        found = [w for w in plan.warnings if w.id == "elevator-param-ignored-on-blk-mq"]
        assert bool(found) == expected, distro.id
        if found:
            assert "elevator=none" in found[0].text
        (quiet,) = plan_host(kb, _system(distro, "ro quiet"), Context(workload="db")).plans
        assert "elevator-param-ignored-on-blk-mq" not in {w.id for w in quiet.warnings}


def _package_rule_files(kb: Kb) -> list[tuple[str, set[str]]]:
    """Every udev rule file a package ships that the KB knows (the distributions' and the vendors'), with the
    settings it writes (a value from the command line counted as written)."""
    found = [(r.path, {s.target for s in r.sets}) for r in kb.section("vendor_rules")]
    for distro in kb.section("distributions"):
        for rule in distro.udev_rules:
            env = dict.fromkeys(cmdline_imports(rule.content, "") or _imported(rule.content), "x")
            written = {k for _, line in logical_lines(rule.content) for k in rule_settings(line, env)}
            found.append((rule.path, written))
    return found


def _imported(text: str) -> list[str]:
    return re.findall(r'IMPORT\{cmdline\}="(\w+)"', text)


def test_iosched_rules_sort_after_every_package_rule_that_writes_a_queue_setting(kb: Kb) -> None:
    """udev applies rule files in file-name order and the last assignment wins: a package rule that sorts after
    iosched's file (btrfs-progs' 64-btrfs-zoned.rules over a 60- file) would undo the plan at every add/change."""
    queue = ("scheduler", "queue.", "queue/", "iosched/")
    competing = [p for p, written in _package_rule_files(kb) if any(w.startswith(queue) for w in written)]
    assert any(basename(p).startswith("64-btrfs-zoned") for p in competing)
    for device in {h.example_device for h in kb.section("hardware")}:
        ours = basename(udev.path(device))
        for path in competing:
            assert basename(path) < ours, (path, ours)
