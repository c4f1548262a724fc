"""The fleet playbook run by ansible-playbook: hosts with identical plans share a play, a host with another plan
gets its own, no play reaches a host it was not planned for, and each host's own plan is checked, applied,
journalled and undone on a copy of its captured system."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from captured import copy_capture
from iosched.cli import main
from iosched.steps import STEP_KINDS

CAPTURES = Path(__file__).parent / "captures"
BIN = Path(sys.executable).parent
GUEST = "sos-rhel8-kvm-lvm"  # vdb: none -> mq-deadline, once it shows its hardware queue
DISKS = "sos-rhel7-physical-hdd"  # sda, sdb: deadline -> noop
SCHEDULER = STEP_KINDS["scheduler"]
HOSTS = {"db1": GUEST, "db2": GUEST, "db3": GUEST, "hdd1": DISKS, "hdd2": DISKS}
NOOP = {"hdd2": "sdb"}  # a disk that already has the elevator its plan wants: another plan, the same tasks


class _Loader(yaml.SafeLoader):
    """Ansible's view of the data: ``!unsafe`` marks a plain string."""


_Loader.add_constructor("!unsafe", lambda loader, node: loader.construct_scalar(node))


def documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Path]:
    """Each host's probe document (its capture copied, probed, and given the host's name) and its copy."""
    roots = {}
    for name, capture in HOSTS.items():
        roots[name] = copy_capture(capture, tmp_path / "sys" / name, vdb=1)
        if name in NOOP:
            (roots[name] / "sys/block" / NOOP[name] / "queue/scheduler").write_text("[noop] deadline cfq\n")
        assert main(["probe", "--root", str(roots[name]), "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        document["host"]["hostname"] = name
        (tmp_path / "docs").mkdir(exist_ok=True)
        (tmp_path / "docs" / f"{name}.json").write_text(json.dumps(document))
    return roots


def state(root: Path) -> dict[str, str]:
    """What the playbook may change on a host: its queue settings (a scheduler as the active one)."""
    return {str(p.relative_to(root)): SCHEDULER.read(p.read_text()) if p.name == "scheduler" else p.read_text()
            for p in sorted(root.glob("sys/block/*/queue/**/*")) if p.is_file()}  # fmt: skip


@pytest.mark.ansible
@pytest.mark.slow
def test_a_grouped_playbook_plans_each_host_once_reaches_no_other_and_applies_and_undoes_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roots = documents(tmp_path, capsys)
    docs = [str(tmp_path / "docs" / f"{name}.json") for name in HOSTS]
    code = main(["fleet", *docs, "--workload", "db", "--format", "ansible"])
    playbook, err = capsys.readouterr()
    assert code == 0, err
    plays = yaml.load(playbook, Loader=_Loader)
    assert [p["hosts"] for p in plays] == [["db1", "db2", "db3"]] * 2 + [["hdd1"]] * 2 + [["hdd2"]] * 2
    assert (
        plays[4]["tasks"] is plays[2]["tasks"] and plays[4]["vars"]["iosched_host"] != plays[2]["vars"]["iosched_host"]
    )
    assert playbook.count("    iosched_host:\n") == 3  # each distinct plan once
    assert playbook.count("iosched_script: &iosched_script |") == 1 and playbook.count("*iosched_script") == 2
    (tmp_path / "site.yml").write_text(playbook)

    # The inventory lacks db3 and has a group of that name, which the first play's names reach: a host planned
    # nowhere, and hdd1, planned in the other play.
    roots["intruder"] = copy_capture(GUEST, tmp_path / "sys" / "intruder", vdb=1)
    etc = {name: tmp_path / "etc" / name for name in roots}
    line = "{} ansible_connection=local iosched_root={} iosched_sys_root={}"
    hosts = [line.format(name, etc[name], roots[name]) for name in ("db1", "db2", "hdd1", "hdd2", "intruder")]
    (tmp_path / "hosts.ini").write_text("\n".join([*hosts, "[db3]", "intruder", "hdd1"]) + "\n")
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")
    env = {"ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg"), "ANSIBLE_HOME": str(tmp_path / "home"),
           "ANSIBLE_PYTHON_INTERPRETER": sys.executable, "ANSIBLE_NOCOLOR": "1", "PATH": f"{BIN}:/usr/bin:/bin",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}  # fmt: skip

    def play(*args: str) -> str:
        done = subprocess.run([BIN / "ansible-playbook", "-i", str(tmp_path / "hosts.ini"), str(tmp_path / "site.yml"),
                               "-e", "ansible_become=false", *args], env=env, cwd=tmp_path, capture_output=True,
                              text=True)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    listed = play("--list-hosts")
    reached = [set(block.split("hosts (")[1].split(":", 1)[1].split()) for block in listed.split("  play #")[1:]]
    assert reached == [{"db1", "db2", "intruder", "hdd1"}] * 2 + [{"hdd1"}] * 2 + [{"hdd2"}] * 2  # names reach

    # db2's vdb changed since its facts were read: its play still converges it, and journals what it found
    (roots["db2"] / "sys/block/vdb/queue/scheduler").write_text("none mq-deadline [kyber] bfq\n")
    before = {name: state(root) for name, root in roots.items()}
    assert before["db1"]["sys/block/vdb/queue/scheduler"] == "none"
    out = play("--check", "--diff")
    assert {name: state(root) for name, root in roots.items()} == before
    assert "End the play on a host this plan was not made for" in out
    assert "intruder" not in out.split("PLAY RECAP")[1], out  # ended before any task ran

    assert "intruder" not in play().split("PLAY RECAP")[1]
    after = {name: state(root) for name, root in roots.items()}
    changed = {name: {f for f in before[name] if after[name][f] != before[name][f]} for name in roots}
    assert changed["db1"] == changed["db2"] == {"sys/block/vdb/queue/scheduler"}
    assert (
        after["db1"]["sys/block/vdb/queue/scheduler"] == after["db2"]["sys/block/vdb/queue/scheduler"] == "mq-deadline"
    )
    assert changed["hdd1"] == {"sys/block/sda/queue/scheduler", "sys/block/sdb/queue/scheduler"}
    assert {after["hdd1"][f] for f in changed["hdd1"]} == {"noop"}
    assert (
        changed["hdd2"] == {"sys/block/sda/queue/scheduler"}
        and after["hdd2"]["sys/block/sdb/queue/scheduler"] == "noop"
    )
    assert not changed["intruder"] and not etc["intruder"].exists()
    for name in ("db1", "db2"):  # each host keeps its own value before iosched, in its own journal
        kept = etc[name] / "var/lib/iosched/previous/sys/block/vdb/queue/scheduler"
        assert kept.read_text().strip() == before[name]["sys/block/vdb/queue/scheduler"]
    again = play("--tags", "all,verify")  # converged: nothing to change, and every value reads back as planned
    assert "TASK [Verify each scheduler]" in again
    assert all(re.search(rf"{name}\s*: ok=\d+\s+changed=0 ", again) for name in ("db1", "db2", "hdd1", "hdd2")), again

    play("--tags", "undo")
    assert {name: state(root) for name, root in roots.items()} == before
    assert not [p for p in etc["db1"].rglob("*") if p.is_file()]


def test_the_playbook_is_the_same_whatever_the_order_of_the_documents(capsys: pytest.CaptureFixture[str]) -> None:
    facts = [str(Path(__file__).parent / "ansible" / name) for name in ("cache", "console", "yaml-cache")]
    playbooks = []
    for paths in (facts, facts[::-1]):
        assert main(["fleet", *paths, "--workload", "db", "--format", "ansible"]) == 0
        playbooks.append(capsys.readouterr().out)
    assert playbooks[0] == playbooks[1]
    plays = yaml.load(playbooks[0], Loader=_Loader)
    firsts = [p["hosts"][0] for p in plays[::2]]
    assert len(plays) > 4 and firsts == sorted(firsts) and all(p["hosts"] == sorted(p["hosts"]) for p in plays)
