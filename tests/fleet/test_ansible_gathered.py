"""This machine's facts gathered by the installed ansible-core, in every form it writes them, read by ``iosched
fleet``: the host under its inventory name, with the devices, schedulers and distribution that sysfs and
/etc/os-release show.

ansible-core 2.19 and later keep a jsonfile fact cache as ``s1_<host>`` files holding ``{"__payload__": "..."}``
(``lib/ansible/_internal/_plugins/_cache.py``); ``--tree`` writes ``<host>`` with the module result; the console
shows ``host | SUCCESS => {...}``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ansible_helpers import BIN, scratch_env
from iosched.cli import main
from iosched.fleet.ansible_facts import read_facts
from iosched.observe.release import parse_os_release
from probe_helpers import bracketed

pytestmark = pytest.mark.xdist_group("ansible-gathered")  # one worker: the module's fixture gathers once
HOST = "db01.example.com"
"""An inventory name that is not the machine's host name: the reader must use the inventory's."""


def sysfs_schedulers() -> dict[str, str | None]:
    """Each block device of this machine and its active elevator, as sysfs shows it now."""
    found = {}
    for path in Path("/sys/block").iterdir():
        scheduler = path / "queue" / "scheduler"
        found[path.name] = bracketed(scheduler.read_text()) if scheduler.exists() else None
    return found


@pytest.fixture(scope="module")
def gathered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The fact cache, the ``--tree`` directory and the console output of one real fact gathering, which writes
    all three (the module is one xdist group, so the gathering runs once a session)."""
    work = tmp_path_factory.mktemp("ansible-gathered")
    (work / "inventory").write_text(f"[db]\n{HOST} ansible_connection=local\n")
    env = scratch_env(work, ANSIBLE_LOCAL_TEMP=str(work / "tmp"), ANSIBLE_CACHE_PLUGIN="jsonfile",
                      ANSIBLE_CACHE_PLUGIN_CONNECTION=str(work / "facts"))  # fmt: skip
    before = sysfs_schedulers()
    done = subprocess.run([BIN / "ansible", "-i", "inventory", "all", "-m", "setup", "--tree", str(work / "tree")],
                          cwd=work, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (work / "console.txt").write_text(done.stdout)
    after = sysfs_schedulers()
    # a loop device is a root test's scratch disk, whose elevator it may set and put back while the facts are read
    stable = {n: s for n, s in before.items() if after.get(n, "") == s and not n.startswith("loop")}
    (work / "stable.json").write_text(json.dumps(stable))
    return {"cache": work / "facts", "tree": work / "tree", "console": work / "console.txt",
            "stable": work / "stable.json"}  # fmt: skip


def test_the_cache_is_in_the_wrapped_form_of_the_installed_ansible_core(gathered: dict[str, Path]) -> None:
    (file,) = gathered["cache"].iterdir()
    match = re.fullmatch(r"s\d+_(.+)", file.name)
    assert match and match[1] == HOST, file.name
    document = json.loads(file.read_text())
    assert set(document) == {"__payload__"} and isinstance(document["__payload__"], str)


@pytest.mark.parametrize("form", ["cache", "tree", "console"])
def test_fleet_reads_the_host_under_its_inventory_name_as_sysfs_and_os_release_show_it(
    gathered: dict[str, Path], form: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (facts,) = read_facts(gathered[form])
    assert facts.name == HOST and facts.error is None and facts.system is not None
    system = facts.system
    stable = json.loads(gathered["stable"].read_text())  # devices no other process changed while facts were gathered
    assert stable
    disks = {d.name for d in system.devices if d.kind != "partition"}
    assert set(stable) <= disks
    for name, active in stable.items():
        assert system.device(name).scheduler == active, name
    release = parse_os_release(Path("/etc/os-release").read_text())
    assert system.host.os_release["ID"] == release["ID"]
    assert system.host.os_release["VERSION_ID"].split(".")[0] == release["VERSION_ID"].split(".")[0]
    assert system.host.kernel == Path("/proc/sys/kernel/osrelease").read_text().strip()
    (cached,) = gathered["cache"].iterdir()
    raw = json.loads(json.loads(cached.read_text())["__payload__"])
    if raw.get("ansible_virtualization_type") in ("docker", "container", "podman", "lxc"):
        assert system.host.virtualization is None  # a container says nothing of the machine under it
        assert any(m.startswith("virtualization") for m in system.missing)

    assert main(["fleet", str(gathered[form]), "--format", "json"]) == 0
    (host,) = json.loads(capsys.readouterr().out)["hosts"]
    assert host["host"] == HOST and not host["errors"]
    assert main(["probe", "--format", "json"]) == 0
    probed = json.loads(capsys.readouterr().out)
    assert host["distro"] == probed["host"]["distro"] is not None
    named = {p["device"] for p in host["plans"]} | {s["device"] for s in host["skipped"]}
    assert named == {d.name for d in system.devices}
    for plan in host["plans"]:
        assert plan["previous_scheduler"] == stable.get(plan["device"], plan["previous_scheduler"])
    assert any(plan["device"] in stable for plan in host["plans"])


@pytest.mark.ansible
@pytest.mark.slow
def test_the_readme_fact_cache_recipe_gathers_without_a_warning_and_fleet_plans_from_it(tmp_path: Path) -> None:
    """The README's way to keep facts (the jsonfile cache in ansible.cfg, filled by ``ansible -m setup``) on the
    installed ansible-core: no deprecation warning (``--tree`` has one since 2.19), and ``fleet`` reads it."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    config = ["fact_caching = jsonfile", "fact_caching_connection = facts"]
    gather = "ansible all -i inventory -m ansible.builtin.setup"
    assert "\n".join(config) in readme and gather in readme
    (tmp_path / "ansible.cfg").write_text("\n".join(["[defaults]", *config]) + "\n")
    (tmp_path / "inventory").write_text(f"{HOST} ansible_connection=local\n")
    env = {**os.environ, "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg"), "ANSIBLE_HOME": str(tmp_path / "home"),
           "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"), "ANSIBLE_PYTHON_INTERPRETER": sys.executable,
           "ANSIBLE_NOCOLOR": "1", "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    done = subprocess.run(gather.split(), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    assert [p.name for p in (tmp_path / "facts").iterdir()] == [f"s1_{HOST}"]
    assert main(["fleet", str(tmp_path / "facts"), "--workload", "db", "--format", "ansible", "--out",
                 str(tmp_path / "plans")]) == 0  # fmt: skip
    assert HOST in (tmp_path / "plans/inventory/hosts.ini").read_text().splitlines()
