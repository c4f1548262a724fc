"""The iosched.tuning collection as Ansible users get it: built with ansible-galaxy, installed from the built file,
lint-clean, its role generated from the playbook's own task code, and a fleet's variables tree applied with it for
real on a loop device (apply, a second run that changes nothing and verifies, check mode, undo back to the values
found)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from test_plan_ansible import (
    DIRTY_RATIO,
    KB,
    _Loader,
    disk_plan,
    fleets,
    load,
    loop_device,
    loop_plan,
    recap,
    sysfs,
    written_playbooks,
)  # fmt: skip

from ansible_collection import SOURCE
from ansible_helpers import BIN
from iosched import grammar
from iosched.mechanisms import udev
from iosched.persist import files
from iosched.render import ansible_role
from iosched.steps import STEP_KINDS


def test_the_role_in_the_repository_is_what_the_playbook_code_generates(update_goldens: bool) -> None:
    """The role's tasks, handlers and variables are the playbook's, generated; --update-goldens rewrites them."""
    role = SOURCE / "roles/iosched"
    for path, text in ansible_role.role_files().items():
        if update_goldens:
            (role / path).write_text(text)
        assert (role / path).read_text() == text, f"{path}: run pytest --update-goldens"
    tasks = load((role / "tasks/main.yml").read_text()) + load((role / "tasks/undo.yml").read_text())
    names = {t["name"] for t in tasks}
    for kind in ("scheduler", "tunable", "queue attribute", "sysctl"):  # every kind, whatever one plan has
        assert {f"Set each {kind}", f"Verify each {kind}", f"Restore each {kind} iosched changed"} <= names
    assert {"Persist each udev rules file", "Persist each sysctl.d file", "Persist each TuneD profile"} <= names
    galaxy = yaml.safe_load((SOURCE / "galaxy.yml").read_text())
    assert f"{galaxy['namespace']}.{galaxy['name']}" == ansible_role.COLLECTION


def lint(env: dict[str, str], *paths: Path) -> None:
    """One ansible-lint run over every path (its start-up, seconds, is paid once), from the last one's folder."""
    done = subprocess.run([BIN / "ansible-lint", "--offline", "--profile", "production", "--nocolor", *map(str, paths)],
                          cwd=paths[-1].parent, env=env, capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@settings(max_examples=15, deadline=None)
@given(fleet=fleets())
def test_a_tree_gives_each_host_its_plans_files_and_values_once_and_its_inventory_reaches_no_other(fleet) -> None:
    written = dict(ansible_role.tree(KB, ((name, index, plans, ()) for index, (name, plans) in enumerate(fleet))))
    inventory = written.pop("inventory/hosts.ini").splitlines()
    shared = yaml.load(written.pop("inventory/group_vars/iosched.yml"), Loader=_Loader)
    assert written.pop(ansible_role.PLAYBOOK).count("\n") < 15
    group_of = {}
    for line in inventory:
        if line.startswith("[iosched_plan_"):
            group = line.strip("[]")
        elif line and not line.startswith(("#", "[")) and not line.startswith("iosched_plan_"):
            assert grammar.host_problem(line) is None and line not in group_of
            group_of[line] = group
    assert sorted(group_of) == sorted(name for name, _ in fleet)
    assert len(written) == len(set(group_of.values()))  # a plan's variables once, whatever its hosts
    for name, plans in fleet:
        host = yaml.load(written[f"inventory/group_vars/{group_of[name]}.yml"], Loader=_Loader)["iosched_host"]
        contents = shared["iosched_contents"]
        assert {f["path"]: "\n".join(contents[f["every"]]) for f in host["files"]} == files(plans)
        notices = [(w["devices"], shared["iosched_notices"][w["notice"]]) for w in host["warnings"]]
        for plan in plans:  # each warning of each device, said once for all the devices it concerns
            for w in plan.warnings:
                assert any(n.startswith(f"{w.id} (") and str(plan.device) in d.split(", ") for d, n in notices), w.id
        assert len({n for _, n in notices}) == len(notices)


@pytest.mark.ansible
@pytest.mark.slow
def test_the_installed_collection_a_fleet_tree_and_any_fleets_playbook_pass_syntax_check_and_production_lint(
    collection: dict[str, str], tmp_path: Path
) -> None:
    """``production`` is ansible-lint's strictest profile (FQCN, names, no free-form commands, changed_when, file
    modes, YAML style): what a playbook shared with other teams is held to. The role as installed, a fleet's tree
    and the playbooks of random fleets are checked by one ansible-lint run (its start-up costs seconds), which
    runs ``ansible-playbook --syntax-check`` on each playbook and fails on any error it reports."""
    playbooks = written_playbooks(tmp_path / "playbooks")
    write_tree(tmp_path / "tree", "web1", [disk_plan("sdc")])
    installed = Path(collection["ANSIBLE_COLLECTIONS_PATH"]) / "ansible_collections/iosched/tuning"
    lint(collection, installed, *playbooks, tmp_path / "tree" / ansible_role.PLAYBOOK)


def write_tree(out: Path, name: str, plans: list) -> None:
    for path, text in ansible_role.tree(KB, [(name, 1, plans, ())]):
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text)


def persisted(root: Path) -> dict[str, str]:
    """The udev rules and configuration files a play wrote under ``root``, by their path on the host."""
    return {f"/{p.relative_to(root)}": p.read_text() for p in root.rglob("*") if p.suffix in (".rules", ".conf")}


@pytest.mark.root
@pytest.mark.ansible
@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (a loop device, its sysfs queue)")
def test_the_role_applies_a_fleet_tree_verifies_checks_stays_idempotent_and_undoes_exactly_on_a_loop_device(
    collection: dict[str, str], tmp_path: Path
) -> None:
    """The role as installed, on a real sysfs queue: it applies what the plan recommends and persists it, a second
    run changes nothing and reads every value and file back, check mode with the consider steps says what it would
    change and changes nothing, undo restores the values it found, and a second undo finds nothing to do."""
    etc = tmp_path / "root"
    with loop_device(tmp_path) as device:
        values = ("scheduler", "nomerges", "rq_affinity", "read_ahead_kb")
        before = {n: sysfs(device, n).read_text() for n in values}
        dirty_before = DIRTY_RATIO.read_text()
        plan = loop_plan(device)
        write_tree(tmp_path / "plans", "loophost", [plan])
        (tmp_path / "hosts.ini").write_text("loophost ansible_connection=local\n")

        def play(*args: str) -> tuple[dict[str, int], str]:
            argv = [BIN / "ansible-playbook", "-i", f"{tmp_path}/hosts.ini", "-i", str(tmp_path / "plans/inventory"),
                    str(tmp_path / "plans/iosched.yml"), "-e", "ansible_become=false", "-e", f"iosched_root={etc}",
                    "-e", "iosched_sys_root=", *args]  # fmt: skip
            done = subprocess.run(argv, env=collection, cwd=tmp_path, capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr
            assert "[DEPRECATION WARNING]" not in done.stdout + done.stderr, done.stdout + done.stderr
            return recap(done.stdout), done.stdout

        applied, out = play()
        assert applied["changed"] >= 4 and applied["failed"] == 0
        assert "{{ 6 * 7 }} {{ lookup('env', 'HOME') }}" in out and "42" not in out  # a warning, never a template
        for step in plan.steps:
            if step.severity != "consider" and STEP_KINDS[step.kind].runtime:
                assert STEP_KINDS[step.kind].read(Path(STEP_KINDS[step.kind].path(step)).read_text()) == step.value
        assert sysfs(device, "rq_affinity").read_text() == before["rq_affinity"]  # consider steps: not asked
        assert DIRTY_RATIO.read_text() == dirty_before
        recommended = files([plan], lambda s: s.severity != "consider")
        assert set(recommended) == {udev.path(device)}
        written = persisted(etc)
        assert written == {path: content + "\n" for path, content in recommended.items()}

        again, out = play("--tags", "all,verify")  # once more, and read every value and file back
        assert again["changed"] == 0 and again["failed"] == 0, out
        for kind in ("scheduler", "tunable", "queue attribute"):
            assert f"TASK [iosched.tuning.iosched : Verify each {kind}]" in out
        assert re.search(r"TASK \[iosched.tuning.iosched : Verify each persistent file\] \*+\nok:", out), out
        assert all(f"(item={path})" in out for path in recommended)

        checked, out = play("--check", "--diff", "-e", "iosched_apply_consider=true")
        assert checked["changed"] >= 4 and f"{sysfs(device, 'rq_affinity')}: " in out and f"{DIRTY_RATIO}: " in out
        assert sysfs(device, "rq_affinity").read_text() == before["rq_affinity"]
        assert DIRTY_RATIO.read_text() == dirty_before
        assert persisted(etc) == written

        undone, out = play("--tags", "undo")
        assert undone["changed"] >= 3 and undone["failed"] == 0, out
        assert {n: sysfs(device, n).read_text() for n in values} == before
        assert DIRTY_RATIO.read_text() == dirty_before
        assert not [p for p in etc.rglob("*") if p.is_file()]
        again, _ = play("--tags", "undo")  # nothing left to undo
        assert again["changed"] == 0 and again["failed"] == 0
