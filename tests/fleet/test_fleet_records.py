"""The fleet outputs that state hosts alike but for their disks' serials and WWNs once. ``--format jsonl``: JSON
Lines that state each plan set once and each host as its number and its disks' own serials and WWNs; a reader of
that contract (below) rebuilds from it the one document ``--format json`` writes, to the byte, for hosts whose
serials and WWNs are valid, absent or refused (quotes, shell and udev metacharacters, the tokens themselves). The
Markdown report, and the Ansible tree, whose inventory gives each host its own identifiers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_fleet_playbook import inventory

from iosched.cli import main
from iosched.fleet import pool
from iosched.fleet.ansible_facts import read_facts
from iosched.fleet.pool import Needs, Request, run
from iosched.knowledge.context import Context
from iosched.knowledge.kbcache import load_checked
from iosched.observe.classify import classified
from iosched.persist import files
from iosched.planning.fleetplan import TOKENS, Planner, one_per_name, summarise
from iosched.planning.hostplan import plan_host
from iosched.records.plan import unattended
from iosched.render import documents, formats

CACHE = Path(__file__).parent / "ansible" / "cache"
SERIALS = ["S1", "WD-WCC4N0:1.2_x", "Z9", None, "S'1\"", "$(reboot)", "a b;c", 'x\\"y', "`id`", "@serial@", "é1"]
WWNS = [None, "0x5000c500a1b2c3d4", "naa.600508b1", "@wwn@", "0x1;rm"]
DISKS = ("sd", "vd", "xvd", "nvme", "hd")


def read_records(text: str) -> dict[str, Any]:
    """The one document of ``--format json`` from the JSON Lines of ``--format jsonl``, as the contract says: a
    host's plans are those of its plan set, each shared value's key replaced by the value, with each device's
    ``@serial@`` and ``@wwn@`` its own."""
    shared: dict[int, Any] = {}
    sets: dict[int, dict[str, Any]] = {}
    hosts: list[dict[str, Any]] = []
    summary = None
    for line in text.splitlines():
        record = json.loads(line)
        if "summary" in record:
            summary = record["summary"]
        elif "shared" in record:
            assert record["shared"] not in shared and list(record) == ["shared", "value"]
            shared[record["shared"]] = record["value"]
        elif "host" in record:
            found = sets[record["plan_set"]] if record["plan_set"] is not None else {"plans": [], "skipped": []}
            plans = [_with_ids(plan, record["ids"].get(plan["device"], {})) for plan in found["plans"]]
            head = {k: record[k] for k in ("host", "distro", "kernel", "workload")}
            hosts.append({**head, "plans": plans, "skipped": found["skipped"], "errors": record["errors"]})
        else:
            assert record["plan_set"] not in sets and list(record) == ["plan_set", "plans", "skipped"]
            plans = [{member: shared[key] for member, key in plan.items()} for plan in record["plans"]]
            sets[record["plan_set"]] = {"plans": plans, "skipped": [shared[key] for key in record["skipped"]]}
    return {"hosts": hosts, "summary": summary}


def _with_ids(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        for token, field in zip(TOKENS, ("serial", "wwn"), strict=True):
            value = value.replace(token, ids.get(field, token))
        return value
    if isinstance(value, list):
        return [_with_ids(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: _with_ids(v, ids) for k, v in value.items()}
    return value


def _fleet(directory: Path, copies: int) -> Path:
    """``copies`` hosts of each real fact document, their disks with serials and WWNs of their own."""
    directory.mkdir()
    n = 0
    for path in sorted(CACHE.iterdir()):
        facts = json.loads(path.read_bytes())
        for copy in range(copies):
            for name, device in (facts.get("ansible_devices") or {}).items():
                if name.startswith(DISKS):
                    n += 1
                    device["serial"] = SERIALS[n % len(SERIALS)] and f"{SERIALS[n % len(SERIALS)]}{copy}"
                    device["wwn"] = WWNS[n % len(WWNS)] and f"{WWNS[n % len(WWNS)]}{copy}"
            (directory / f"{path.name}-{copy}").write_text(json.dumps(facts))
    return directory


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_json_lines_state_each_plan_set_once_and_read_back_as_the_one_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fleet = str(_fleet(tmp_path / "fleet", 4))
    whole = _out(capsys, "fleet", fleet, "--workload", "db", "--format", "json")
    lines = _out(capsys, "fleet", fleet, "--workload", "db", "--format", "jsonl")
    document = json.loads(whole)
    assert json.dumps(read_records(lines), ensure_ascii=False) == json.dumps(document, ensure_ascii=False)
    records = [json.loads(line) for line in lines.splitlines()]  # each line a document of its own
    hosts = [r for r in records if "host" in r]
    sets = [r for r in records if "plans" in r]
    assert len(hosts) == len(document["hosts"]) and len(sets) < len(hosts)
    values = [json.dumps(r["value"], ensure_ascii=False) for r in records if "shared" in r]
    named_values = [key for s in sets for plan in s["plans"] for key in plan.values()]
    assert len(set(values)) == len(values) and len(set(named_values)) < len(named_values) / 2  # each once, shared
    named = [ids for h in hosts for ids in h["ids"].values()]
    assert {"serial", "wwn"} <= {k for ids in named for k in ids}  # hosts that share a set differ in these
    assert all(t not in json.dumps(h) for h in document["hosts"] for t in TOKENS)
    refused = ("'", '"', "$", ";", "`", " ", "@", "é")
    assert not any(c in v for ids in named for v in ids.values() for c in refused)


@pytest.mark.parametrize("fmt", ["jsonl", "markdown"])
def test_a_pool_writes_what_one_process_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """The outputs whose hosts share plan sets by tokens, from a pool of workers and from one process."""
    from iosched.fleet.pool import POOL_MIN_UNITS

    fleet = _fleet(tmp_path / "fleet", 1 + POOL_MIN_UNITS // sum(1 for _ in CACHE.iterdir()))
    assert sum(1 for _ in fleet.iterdir()) >= POOL_MIN_UNITS
    alone = _out(capsys, "fleet", str(fleet), "--workload", "db", "--format", fmt, "--jobs", "1")
    pooled = _out(capsys, "fleet", str(fleet), "--workload", "db", "--format", fmt, "--jobs", "2")
    assert pooled == alone


def test_hosts_whose_disks_are_in_a_tuned_profile_read_back_as_the_one_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A TuneD profile names a disk by a regular expression of its WWN or serial (a ``.`` as ``[.]``), where no
    token can stand for it: such a host's plan set is its own, and the JSON Lines still read back as the one
    document. A fleet of these hosts (RHEL's physical servers run TuneD) failed with exit 2."""
    capture = Path(__file__).parents[1] / "observe" / "captures" / "sos-rhel7-physical-hdd"
    probed = json.loads(_out(capsys, "probe", "--root", str(capture), "--format", "json"))
    for n, (serial, wwn) in enumerate([("WD-WCC4N0:1.2_x", "naa.600508b1"), ("Z9", "0x5000c500a1b2c3d4"),
                                       ("S1", None)]):  # fmt: skip
        probed["host"]["hostname"] = f"app{n}"
        for device in probed["devices"]:
            if device["kind"] == "disk":
                device["serial"], device["wwn"] = f"{serial}{device['name']}", wwn and f"{wwn}{device['name']}"
        (tmp_path / f"app{n}.json").write_text(json.dumps(probed))
    docs = sorted(map(str, tmp_path.glob("app*.json")))
    whole = json.loads(_out(capsys, "fleet", *docs, "--workload", "db", "--format", "json"))
    assert any("devices_udev_regex=^ID_WWN=naa[.]600508b1" in json.dumps(h) for h in whole["hosts"])
    lines = _out(capsys, "fleet", *docs, "--workload", "db", "--format", "jsonl")
    assert json.dumps(read_records(lines), ensure_ascii=False) == json.dumps(whole, ensure_ascii=False)


def test_the_markdown_report_holds_a_plan_set_per_distinct_plan_and_reads_as_with_one_per_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report counts and lists changes, which name no serial or WWN: hosts alike but for their disks'
    identifiers share a plan set (a physical fleet held one per host), and the report is the one a set per host
    gives."""
    fleet = _fleet(tmp_path / "fleet", 4)
    kb = load_checked()

    def report(needs: Needs) -> tuple[str, int]:
        found, sets = run(kb, [fleet], Request(workload="db"), needs, jobs=1)
        hosts = one_per_name(found, sets)
        planned = documents.FleetPlans(hosts=hosts, sets=sets, summary=summarise(hosts, sets))
        return formats.FLEET.render(kb, planned, "markdown", formats.Options()).text, len(sets)

    alone, sets_alone = report(Needs(text=True))
    shared, sets_shared = report(Needs(shared=True))
    held: list[int] = []
    monkeypatch.setattr(pool, "run", lambda *a, **kw: held.append(len((found := run(*a, **kw))[1])) or found)
    assert _out(capsys, "fleet", str(fleet), "--workload", "db", "--format", "markdown") == shared == alone
    assert "## What the hosts need" in shared
    assert held == [sets_shared] and sets_shared < sets_alone


def test_an_ansible_tree_has_a_group_per_distinct_plan_and_gives_each_host_the_files_of_its_own_plans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hosts alike but for their disks' serials and WWNs share a group; each host's inventory line gives its own
    (``iosched_ids``), which the role puts for the tokens of a file's lines. Read as the role reads it, each host's
    files are those of its plans made alone, to the byte."""
    fleet = _fleet(tmp_path / "fleet", 3)
    out = tmp_path / "tree"
    assert main(["fleet", str(fleet), "--workload", "db", "--format", "ansible", "--out", str(out)]) == 0
    capsys.readouterr()
    groups, ids_of = inventory(out)
    group_of = {name: group for group, names in groups.items() for name in names}
    texts = yaml.safe_load((out / "inventory/group_vars/iosched.yml").read_text().replace("!unsafe ", ""))
    contents = texts["iosched_contents"]
    own_ids: dict[str, set[str]] = {}
    for name, group in group_of.items():
        own_ids.setdefault(group, set()).add(repr(ids_of[name]))
    assert any(len(found) > 1 for found in own_ids.values())  # a group of hosts with identifiers of their own
    kb, planner = load_checked(), Planner(load_checked())
    checked = 0
    for host in read_facts(fleet, planner.distros):
        if host.system is None or host.name not in group_of:
            continue
        alone = plan_host(kb, classified(host.system, planner.distros, planner.presets), Context(workload="db"))
        plan = out / f"inventory/group_vars/{group_of[host.name]}.yml"
        data = yaml.safe_load(plan.read_text().replace("!unsafe ", ""))
        for pick, keep in (("every", lambda s: True), ("recommended", unattended)):
            written = {}
            for f in data["iosched_host"]["files"]:
                serial, wwn = ids_of[host.name].get(f["path"], TOKENS)
                lines = [line.replace(TOKENS[0], serial).replace(TOKENS[1], wwn) for line in contents[f[pick]]]
                if lines:
                    written[f["path"]] = "\n".join(lines)
            assert written == files(alone.plans, keep), host.name
        checked += 1
    assert checked == len(group_of)
