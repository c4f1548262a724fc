"""Inventories (INI and YAML) and the --workloads map: which workload each host runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_helpers import FIXTURES, kb_ids
from iosched.fleet.inventory import InventoryError, expand_hosts, ini_inventory, read_inventory, yaml_inventory
from iosched.fleet.workloads import WorkloadMapError, parse_workload_map, read_workload_map

INVENTORIES = FIXTURES / "inventory"


@pytest.fixture(scope="module")
def workloads(kb) -> set[str]:
    return kb_ids(kb, "workloads")


def test_a_real_ini_inventory() -> None:
    inventory = read_inventory(INVENTORIES / "cmdb-hosts")
    assert inventory.groups_of("db02.prod.local") == {"all", "db", "prod"}  # db[01:03], and db is a child of prod
    assert inventory.groups_of("debian.dev.local") == {"all", "dev", "virtual"}
    assert inventory.groups_of("çyrillic.test.local") == {"all", "test"}
    assert inventory.groups_of("facter.test.local") == {"all", "test"}  # ansible_host=... is not a host
    assert inventory.groups_of("not.in.inventory") == frozenset()
    assert len(inventory.memberships) == 18


def test_an_inventory_ansible_rejects_is_rejected_with_its_line() -> None:
    with pytest.raises(InventoryError, match=r"cmdb-hosts_complicated:35: expected a group name, not super foo="):
        read_inventory(INVENTORIES / "cmdb-hosts_complicated")


def test_real_yaml_inventories() -> None:
    assert read_inventory(INVENTORIES / "ansible-valid_sample.yml").memberships == {"something": {"all", "somegroup"}}
    assert read_inventory(INVENTORIES / "ansible-unicode.yml").groups_of("příbor") == {"all", "ungrouped"}


def test_ini_sections_ranges_ports_and_comments() -> None:
    inventory = ini_inventory(
        """# comment
bastion.example.com:2222
; another comment
[web-servers]
web[01:03].example.com ansible_user=deploy
[db]
db-[a:c]
node[0:30:10]   # every tenth
2001:db8::7
[db:vars]
x=1
[prod:children]
web_servers
db
[prod:children]
staging
[staging]
bastion.example.com
[all:vars]
x=2
"""
    )
    assert inventory.groups_of("bastion.example.com") == {"all", "staging", "prod"}
    assert inventory.groups_of("web02.example.com") == {"all", "web_servers", "prod"}  # [web-servers] is web_servers
    assert [h for h in inventory.memberships if h.startswith(("db-", "node"))] == [
        "db-a", "db-b", "db-c", "node0", "node10", "node20", "node30",
    ]  # fmt: skip
    assert inventory.groups_of("node10") == {"all", "db", "prod"}
    assert inventory.groups_of("2001:db8::7") == {"all", "db", "prod"}


def test_ungrouped_hosts_and_group_cycles() -> None:
    inventory = ini_inventory("lonely\n[a]\nboth\n[b:children]\na\n[a:children]\nb\n")
    assert inventory.groups_of("lonely") == {"all", "ungrouped"}
    assert inventory.groups_of("both") == {"all", "a", "b"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# the section is on line 2\n[web:weird]\n", "unknown type weird"),
        ("# the section is on line 2\n[web\n", "invalid section"),
        ("[web:children]\nweb-servers\n[web-servers]\n", "group web-servers is not defined"),
        ("[web]\n[db:vars]\nx=1\n", "group db is not defined"),
        ("[web]\nhost:\n", "ends in ':'"),
        ("[web]\nh[1:2:0]\n", "step must be at least 1"),
        ("[web]\nh[3:1]x[a:b]\n", None),
        ("[web]\nh[01:100]\n", "equal-length"),
        ("[web]\nh[1:x]\n", "neither numeric nor alphabetic"),
        ("[web]\nh[0:99999999]\n", "more than 1000000 hosts"),
    ],
)
def test_ini_errors_name_the_line(text: str, message: str | None) -> None:
    if message is None:
        assert ini_inventory(text, "hosts").memberships == {}  # an empty range lists no host
        return
    with pytest.raises(InventoryError, match=f"^hosts:2: .*{message}"):
        ini_inventory(text, "hosts")


def test_yaml_inventory_nesting() -> None:
    inventory = yaml_inventory(
        {
            "all": {
                "hosts": {"jump.example.com": None},
                "vars": {"ansible_user": "ops"},
                "children": {
                    "databases": {
                        "children": {"postgres": {"hosts": {"pg[1:2].example.com": {"port": 5432}}}},
                        "hosts": "oracle1.example.com",
                    },
                    "dc_east": {"children": {"postgres": None}, "hosts": {"web1.example.com:8022": None}},
                    "notes": "not a group",
                },
            }
        }
    )
    assert inventory.groups_of("pg2.example.com") == {"all", "databases", "postgres", "dc_east"}
    assert inventory.groups_of("oracle1.example.com") == {"all", "databases"}
    assert inventory.groups_of("web1.example.com") == {"all", "dc_east"}
    assert inventory.groups_of("jump.example.com") == {"all", "ungrouped"}
    with pytest.raises(InventoryError, match="inventory plugin configuration"):
        yaml_inventory({"plugin": "constructed"})


def test_expand_hosts_like_ansible() -> None:
    assert expand_hosts("db[01:03]-[a:b]") == ["db01-a", "db01-b", "db02-a", "db02-b", "db03-a", "db03-b"]
    assert expand_hosts("plain[name]") == ["plain[name]"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("[]:=#;ab01 -_\n.é*"), max_size=200))
def test_any_ini_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        ini_inventory(text, "hosts")
    except InventoryError as exc:
        assert "\n" not in str(exc)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_first_match_wins(tmp_path: Path, workloads: set[str]) -> None:
    (tmp_path / "inv").mkdir()
    write(
        tmp_path / "inv",
        "hosts.yml",
        "all:\n  children:\n    pg: {hosts: {db1: , web9: }}\n    web: {hosts: {web9: }}\n",
    )
    path = write(
        tmp_path,
        "workloads.yaml",
        "inventory: inv/hosts.yml\n"
        "hosts:\n  'web9': streaming\n  'db*': analytics\n  'd?1': batch\n"
        "groups:\n  web: fileserver\n  pg: db\n"
        "default: mixed\n",
    )
    wmap = read_workload_map(path, workloads)
    assert wmap.workload_for("web9") == "streaming"  # hosts before groups
    assert wmap.workload_for("db1") == "analytics"  # the first matching pattern, not d?1
    assert wmap.workload_for("other") == "mixed"
    assert wmap.workload_for("x", groups={"pg", "web"}) == "fileserver"  # groups in file order
    assert wmap.workload_for("DB1") == "mixed"  # patterns are case-sensitive
    assert wmap.inventory.groups_of("web9") == {"all", "pg", "web"}


def test_without_default_a_host_may_have_no_workload(workloads: set[str]) -> None:
    wmap = parse_workload_map({"hosts": {"db*": "db"}}, workloads)
    assert (wmap.workload_for("db7"), wmap.workload_for("web1")) == ("db", None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hosts:\n  db*: database\n", r"workloads.yaml:2: unknown workload 'database'; valid: analytics, "),
        ("host:\n  db*: db\n", r"workloads.yaml:2: unknown key host; known: inventory, hosts, groups, default"),
        ("groups:\n  web: fileserver\n", r"workloads.yaml:2: groups need an inventory"),
        ("hosts:\n  'db *': db\n", r"workloads.yaml:2: hosts: db \* is not a host name or pattern"),
        ("default: [db]\n", r"workloads.yaml:1: unknown workload \['db'\]"),
        ("inventory: missing.ini\n", r"workloads.yaml: inventory .*missing.ini: No such file"),
        ("- db\n", r"workloads.yaml:1: a workload map is a mapping"),
        ("hosts: [db]\n", r"workloads.yaml:1: hosts must be a mapping of host name or pattern to workload id"),
    ],
)
def test_map_errors_name_file_and_line(tmp_path: Path, workloads: set[str], text: str, message: str) -> None:
    path = write(tmp_path, "workloads.yaml", text)
    with pytest.raises(WorkloadMapError, match=message):
        read_workload_map(path, workloads)
