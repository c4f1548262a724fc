"""The fleet's variables tree run by ansible-playbook with the installed role: hosts with identical plans share a
group (hosts alike but for their disks' serials too, each given its own by the inventory), a host with another
plan gets its own, the play reaches no host that was not planned, and each host's own plan is applied,
journalled, verified and undone on a copy of its captured system."""

from __future__ import annotations

import ast
import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from ansible_helpers import BIN
from captured import copy_capture
from iosched.cli import main
from iosched.mechanisms import udev
from iosched.steps import STEP_KINDS

CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
GUEST = "sos-rhel8-kvm-lvm"  # vdb: none -> mq-deadline, once it shows its hardware queue
DISKS = "sos-rhel7-physical-hdd"  # sda, sdb: deadline -> noop
SCHEDULER = STEP_KINDS["scheduler"]
APPS = "debian12-vm-live"  # vda: none -> mq-deadline, kept by a udev rule that matches its serial
HOSTS = {"app1": APPS, "app2": APPS, "db1": GUEST, "hdd1": DISKS}  # the apps share a plan, the others have their own
SERIALS = {"app1": "APP-0001", "app2": "APP-0002"}  # the serial of each one's vda


class _Loader(yaml.SafeLoader):
    """Ansible's view of the data: ``!unsafe`` marks a plain string."""


_Loader.add_constructor("!unsafe", lambda loader, node: loader.construct_scalar(node))


def documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """Each host's probe document (its capture copied, probed, and given the host's name) and its copy."""
    roots = {}
    for name, capture in HOSTS.items():
        roots[name] = copy_capture(capture, tmp_path / "sys" / name, **({} if name in SERIALS else {"vdb": 1}))
        if name in SERIALS:
            (roots[name] / "sys/block/vda/queue/scheduler").write_text("[none] mq-deadline kyber bfq\n")
        assert main(["probe", "--root", str(roots[name]), "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        document["host"]["hostname"] = name
        for device in document["devices"]:
            if name in SERIALS and device["name"] == "vda":
                device["serial"] = SERIALS[name]
        (tmp_path / "docs").mkdir(exist_ok=True)
        (tmp_path / "docs" / f"{name}.json").write_text(json.dumps(document))
    return roots


def state(root: Path) -> dict[str, str]:
    """What the playbook may change on a host: its queue settings (a scheduler as the active one)."""
    return {str(p.relative_to(root)): SCHEDULER.read(p.read_text()) if p.name == "scheduler" else p.read_text()
            for p in sorted(root.glob("sys/block/*/queue/**/*")) if p.is_file()}  # fmt: skip


def inventory(out: Path) -> tuple[dict[str, list[str]], dict[str, dict[str, list[str]]]]:
    """The plan groups of a fleet tree's inventory (INI), and each host's own serial and WWN by udev rules file,
    which its line gives the role (``iosched_ids``, a Python literal in one shell word, as Ansible reads it)."""
    groups: dict[str, list[str]] = {}
    ids: dict[str, dict[str, list[str]]] = {}
    for line in (out / "inventory/hosts.ini").read_text().splitlines():
        if line.startswith("[") and not line.endswith(":children]"):
            current = groups.setdefault(line.strip("[]"), [])
        elif line and not line.startswith("#") and groups:
            name, _, own = line.partition(" iosched_ids=")
            current.append(name)
            ids[name] = ast.literal_eval(shlex.split(own)[0]) if own else {}
    return groups, ids


def tree(out: Path) -> tuple[dict[str, list[str]], dict[str, dict]]:
    """The plan groups of a fleet tree's inventory and each group's variables."""
    data = {p.stem: yaml.load(p.read_text(), Loader=_Loader) for p in (out / "inventory/group_vars").glob("*.yml")}
    return inventory(out)[0], data


@pytest.mark.ansible
@pytest.mark.slow
def test_a_fleet_tree_groups_hosts_by_plan_reaches_no_other_and_applies_and_undoes_each_with_the_role(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], collection: dict[str, str]
) -> None:
    roots = documents(tmp_path, capsys)
    docs = [str(tmp_path / "docs" / f"{name}.json") for name in HOSTS]
    out = tmp_path / "plans"
    (out / "inventory/group_vars").mkdir(parents=True)
    (out / "inventory/group_vars/iosched_plan_9.yml").write_text("iosched_host: {}\n")  # left by an earlier run
    code = main(["fleet", *docs, "--workload", "db", "--format", "ansible", "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 0, err
    groups, data = tree(out)
    assert list(groups.values()) == [["app1", "app2"], ["db1"], ["hdd1"]]
    assert sorted(data) == ["iosched", *groups]  # each distinct plan once; the stale group's file is gone
    assert len({json.dumps(data[g]["iosched_host"]) for g in groups}) == len(groups)
    texts = data["iosched"]
    for plan in (data[g]["iosched_host"] for g in groups):  # every text a plan names is there, once for all
        assert all(f[k] in texts["iosched_contents"] for f in plan["files"] for k in ("every", "recommended"))
        assert all(w["notice"] in texts["iosched_notices"] for w in plan["warnings"])

    # The user's inventory: connection and roots per host, a host planned nowhere, a group of theirs.
    roots["intruder"] = copy_capture(GUEST, tmp_path / "sys" / "intruder", vdb=1)
    etc = {name: tmp_path / "etc" / name for name in roots}
    line = "{} ansible_connection=local iosched_root={} iosched_sys_root={}"
    hosts = [line.format(name, etc[name], roots[name]) for name in roots]
    (tmp_path / "hosts.ini").write_text("\n".join([*hosts, "[web]", "intruder", "hdd1"]) + "\n")

    def play(*args: str) -> str:
        done = subprocess.run([BIN / "ansible-playbook", "-i", f"{tmp_path}/hosts.ini", "-i", str(out / "inventory"),
                               str(out / "iosched.yml"), "-e", "ansible_become=false", *args], env=collection,
                              cwd=tmp_path, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert "WARNING" not in done.stderr, done.stderr
        return done.stdout

    # app2's vda changed since its facts were read: its play still converges it, and journals what it found
    (roots["app2"] / "sys/block/vda/queue/scheduler").write_text("none mq-deadline [kyber] bfq\n")
    before = {name: state(root) for name, root in roots.items()}
    assert before["app1"]["sys/block/vda/queue/scheduler"] == "none"
    # check mode, and a second run that changes nothing, are each host's own: tests/planning/test_ansible_collection.py
    # runs them on a real queue

    applied = play("--tags", "all,verify")  # every value and file the play wrote is read back as planned
    recap = applied.split("PLAY RECAP")[1].splitlines()[1:]  # after the heading's line of asterisks
    assert {line.split()[0] for line in recap if line.strip()} == set(HOSTS)  # never the intruder
    assert "Verify each scheduler]" in applied and "Verify each persistent file]" in applied
    after = {name: state(root) for name, root in roots.items()}
    changed = {name: {f for f in before[name] if after[name][f] != before[name][f]} for name in roots}
    assert changed["db1"] == {"sys/block/vdb/queue/scheduler"} and after["db1"]["sys/block/vdb/queue/scheduler"] == (
        "mq-deadline"
    )
    assert changed["hdd1"] == {"sys/block/sda/queue/scheduler", "sys/block/sdb/queue/scheduler"}
    assert {after["hdd1"][f] for f in changed["hdd1"]} == {"noop"}
    assert not changed["intruder"] and not etc["intruder"].exists()
    for name in SERIALS:  # one plan; each host keeps its own value before iosched, in its own journal
        kept = etc[name] / "var/lib/iosched/previous/sys/block/vda/queue/scheduler"
        assert kept.read_text().strip() == before[name]["sys/block/vda/queue/scheduler"]
    assert before["app1"] != before["app2"]
    for name in SERIALS:  # and each host's rule matches its own disk's serial
        assert (
            changed[name] == {"sys/block/vda/queue/scheduler"}
            and after[name][next(iter(changed[name]))] == "mq-deadline"
        )
        rules = (etc[name] / udev.path("vda").lstrip("/")).read_text()
        assert udev.match("vda", serial=SERIALS[name]) in rules and "@serial@" not in rules, rules
    # the directory task creates each directory a host writes a file in, once (tests/planning: several files)
    task = applied.split("Create the directories of the persistent files]")[1].split("TASK [")[0]
    created = re.findall(r"^(?:ok|changed): \[(\S+)\] => \(item=(\S+)\)$", task, re.MULTILINE)
    assert len(created) == len(set(created)), task
    for name in HOSTS:
        files = [p.relative_to(etc[name]) for p in etc[name].glob("etc/**/*") if p.is_file()]
        assert {d for host, d in created if host == name} == {f"/{f.parent.as_posix()}" for f in files}, task
    play("--tags", "undo")
    assert {name: state(root) for name, root in roots.items()} == before
    assert not [p for name in HOSTS for p in etc[name].rglob("*") if p.is_file()]  # the rules found as written


def test_the_tree_is_the_same_whatever_the_order_of_the_documents(tmp_path: Path) -> None:
    facts = [str(Path(__file__).parent / "ansible" / name) for name in ("cache", "console", "yaml-cache")]
    trees = []
    for index, paths in enumerate((facts, facts[::-1])):
        out = tmp_path / str(index)
        assert main(["fleet", *paths, "--workload", "db", "--format", "ansible", "--out", str(out)]) == 0
        trees.append({p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert trees[0] == trees[1]
    groups, _ = tree(tmp_path / "0")
    firsts = [names[0] for names in groups.values()]
    assert len(groups) > 2 and firsts == sorted(firsts) and all(names == sorted(names) for names in groups.values())


@pytest.mark.parametrize("args", [["--format", "ansible"], ["--format", "json", "--out", "x"]])
def test_the_ansible_format_and_out_go_together(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fleet", str(Path(__file__).parent / "ansible" / "cache"), "--workload", "db", *args]) == 2
    assert capsys.readouterr().err.count("\n") == 1
