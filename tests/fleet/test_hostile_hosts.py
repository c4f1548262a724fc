"""Host names from fact files and captures are untrusted: a play reaches only the host it was planned for, a
name Ansible would read as more than one host is reported and left out while the rest of the fleet is
planned, and two documents claiming one name never silently replace each other."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from test_fleet_playbook import tree

from ansible_helpers import BIN, scratch_env
from iosched import grammar
from iosched.cli import main
from iosched.knowledge.base import Kb
from iosched.knowledge.kbcache import load_checked
from iosched.render import plan_ansible

ANSIBLE = Path(__file__).parent / "ansible"
# a fact cache file of a host that plans (from ansible-core's own fact samples; see ansible/README.md)
SAMPLE = ANSIBLE / "cache" / "debian.dev.local"


class _Loader(yaml.SafeLoader):
    """Ansible's view of the data: ``!unsafe`` marks a plain string."""


_Loader.add_constructor("!unsafe", lambda loader, node: loader.construct_scalar(node))


def fleet(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["fleet", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def cache_of(tmp_path: Path, *names: str) -> Path:
    """A fact cache holding the sample's facts under each name."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for name in names:
        shutil.copyfile(SAMPLE, cache / name)
    return cache


HOSTILE = ["all", "ungrouped", "localhost", "127.0.0.1", "_x", "db:1", "web*", "!db", "&db", "~db.*", "a,b",
           "web[1:3]", "db{{x}}", " db", "db ", "-db"]  # fmt: skip


def test_a_host_named_like_a_pattern_or_a_reserved_name_is_reported_and_the_rest_planned(tmp_path: Path,
                                                                                          capsys) -> None:  # fmt: skip
    names = [n for n in HOSTILE if "/" not in n]
    cache = cache_of(tmp_path, "db1.example.org", *names)
    code, _, err = fleet(capsys, str(cache), "--workload", "db", "--format", "ansible", "--out", str(tmp_path / "o"))
    assert code == 0, err
    assert list(tree(tmp_path / "o")[0].values()) == [["db1.example.org"]]
    refused = [line for line in err.splitlines() if "not in the playbook" in line]
    assert len(refused) == len(names), err
    for name in ("all", "ungrouped", "localhost", "_x", "db:1"):
        assert any(line.startswith(f"iosched: {name}: ") for line in refused), name


@pytest.mark.parametrize("name", HOSTILE)
def test_the_playbook_refuses_every_name_ansible_reads_as_more_than_one_host(name: str) -> None:
    assert grammar.host_problem(name) is not None
    with pytest.raises(plan_ansible.PlaybookError, match="refusing host name"):
        plan_ansible.render(kb(), [(name, [])])


@functools.cache
def kb() -> Kb:
    return load_checked(None)


def test_only_every_host_targets_all() -> None:
    every = yaml.load(plan_ansible.render(kb(), [(plan_ansible.EVERY_HOST, [])]), Loader=_Loader)
    assert [p["hosts"] for p in every] == [["all"]] * 2 and "pre_tasks" not in every[0]
    named = yaml.load(plan_ansible.render(kb(), [("web1", []), ("db1", [])]), Loader=_Loader)
    for play in named:
        assert play["hosts"] == play["vars"]["iosched_targets"] == ["db1", "web1"]
        assert play["pre_tasks"][0]["ansible.builtin.meta"] == "end_host"
        assert play["pre_tasks"][0]["when"] == "inventory_hostname not in iosched_targets"
    with pytest.raises(plan_ansible.PlaybookError, match="every host"):
        plan_ansible.render(kb(), [(plan_ansible.EVERY_HOST, []), ("db1", [])])


def test_a_play_for_a_name_the_inventory_gives_a_group_runs_on_none_of_its_hosts(tmp_path: Path, capsys) -> None:
    """Ansible matches a name no inventory host has against the group names first: ``hosts: [web]`` reaches
    every host of group ``web``. The guard ends the play on each of them, before any task reads a plan."""
    assert main(["advise", "--example", "pg-vm-ubuntu2404", "--format", "ansible", "--host", "web"]) == 0
    playbook = tmp_path / "iosched.yml"
    playbook.write_text(capsys.readouterr().out)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[web]\nweb1\nweb2\n")
    env = scratch_env(tmp_path)
    base = [BIN / "ansible-playbook", "-c", "local", "-i", str(inventory), str(playbook), "-e", "ansible_become=false",
            "-e", f"iosched_root={tmp_path / 'root'}"]  # fmt: skip
    listed = subprocess.run([*base, "--list-hosts"], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "web1" in listed.stdout and "web2" in listed.stdout  # what the pattern reaches
    for extra in ([], ["--tags", "verify"], ["--tags", "undo"]):
        done = subprocess.run([*base, *extra], env=env, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "End the play on a host this plan was not made for" in done.stdout
        assert not [line for line in done.stdout.splitlines() if line.startswith(("ok:", "changed:", "fatal:"))]
        assert "web1 " not in done.stdout.split("PLAY RECAP")[1], done.stdout  # ended before any task ran
    assert not (tmp_path / "root").exists()


CAPTURES = Path(__file__).parents[1] / "observe" / "captures"


def claiming(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> Path:
    """A probe document of another machine that gives ``name`` as its hostname."""
    assert main(["probe", "--root", str(CAPTURES / "sos-rhel8-kvm-lvm"), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    document["host"]["hostname"] = name
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(document))
    return path


def test_a_document_claiming_another_hosts_name_replaces_nothing(tmp_path: Path, capsys) -> None:
    cache = cache_of(tmp_path, "debian.dev.local", "db1.example.org")
    claim = claiming(tmp_path, capsys, "debian.dev.local")
    code, out, err = fleet(capsys, str(cache), str(claim), "--workload", "db", "--format", "json")
    assert code == 0, err
    hosts = [h for h in json.loads(out)["hosts"] if h["host"] == "debian.dev.local"]
    assert len(hosts) == 2 and all(not h["plans"] and "2 documents" in h["errors"][0] for h in hosts), hosts
    code, out, err = fleet(capsys, str(claim), str(cache), "--workload", "db", "--format", "ansible", "--out",
                           str(tmp_path / "o"))  # fmt: skip
    assert code == 0, err
    assert list(tree(tmp_path / "o")[0].values()) == [["db1.example.org"]]
    assert err.count("iosched: debian.dev.local: not in the playbook: 2 documents") == 2, err


def test_documents_that_agree_on_a_host_plan_it_once(tmp_path: Path, capsys) -> None:
    """A fact cache and a --tree directory of one inventory hold the same facts: one plan, no error."""
    first, second = cache_of(tmp_path, "db1.example.org"), tmp_path / "tree"
    shutil.copytree(first, second)
    code, out, err = fleet(capsys, str(first), str(second), "--workload", "db", "--format", "json")
    assert code == 0, err
    hosts = json.loads(out)["hosts"]
    assert [bool(h["plans"]) for h in hosts] == [False, True]
    assert "the same plan" in hosts[0]["errors"][0]
