"""iosched fleet over real Ansible fact documents, probe documents and captures: every host reported, each
device's previous scheduler taken from the facts, unreadable hosts reported while the run goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.fleet.ansible_facts import read_facts
from iosched.planning.fleetplan import Planner

ANSIBLE = Path(__file__).parent / "ansible"
CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
FACT_DIRS = [ANSIBLE / "cache", ANSIBLE / "tree", ANSIBLE / "console", ANSIBLE / "yaml-cache"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_host_and_device_is_reported_with_the_facts_previous_scheduler(capsys) -> None:
    code, out, _ = run(capsys, "fleet", *map(str, FACT_DIRS), "--workload", "db", "--format", "json")
    assert code == 0
    document = json.loads(out)
    read = [facts for path in FACT_DIRS for facts in read_facts(path)]
    for facts, host in zip(read, document["hosts"], strict=True):
        assert host["host"] == facts.name
        if facts.system is None or host["errors"]:
            twice = any(w in host["errors"][0] for w in ("read again", "documents name this host"))
            assert host["errors"] and (facts.system is None or twice), facts.name
            continue
        named = {p["device"] for p in host["plans"]} | {s["device"] for s in host["skipped"]}
        assert named == {d.name for d in facts.system.devices}, facts.name
        for plan in host["plans"]:
            assert plan["previous_scheduler"] == facts.system.device(plan["device"]).scheduler
    summary = document["summary"]
    assert summary["hosts"] == sum(1 for h in document["hosts"] if not h["errors"])
    assert sum(g["count"] for g in summary["groups"]) == summary["hosts"]


def test_a_workload_map_decides_each_hosts_workload(tmp_path: Path, capsys) -> None:
    facts = read_facts(ANSIBLE / "cache")
    first = next(f.name for f in facts if f.system is not None)
    mapping = tmp_path / "workloads.yaml"
    mapping.write_text(f'hosts:\n  "{first}": streaming\ndefault: db\n')
    code, out, _ = run(capsys, "fleet", str(ANSIBLE / "cache"), "--workloads", str(mapping), "--format", "json")
    assert code == 0
    workloads = {h["host"]: h["workload"] for h in json.loads(out)["hosts"] if not h["errors"]}
    assert workloads[first] == "streaming"
    assert {w for name, w in workloads.items() if name != first} == {"db"}


def test_a_bad_workload_map_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    mapping = tmp_path / "workloads.yaml"
    mapping.write_text("hosts: {web*: nosuchworkload}\n")
    code, _, err = run(capsys, "fleet", str(ANSIBLE / "cache"), "--workloads", str(mapping))
    assert code == 2 and err.count("\n") == 1


def test_probe_documents_and_captures_mix_with_facts(tmp_path: Path, capsys) -> None:
    code, probe, _ = run(capsys, "probe", "--root", str(CAPTURES / "sos-rhel8-kvm-lvm"), "--format", "json")
    assert code == 0
    (tmp_path / "db01.json").write_text(probe)
    code, out, _ = run(capsys, "fleet", str(tmp_path / "db01.json"), str(CAPTURES / "sos-sles12sp5-legacy-mpath"),
                       str(ANSIBLE / "cache"), "--workload", "db", "--format", "json")  # fmt: skip
    assert code == 0
    hosts = {h["host"] for h in json.loads(out)["hosts"]}
    assert {"db01.example.com", "hana01"} <= hosts


def test_a_directory_of_probe_documents_plans_each_host(tmp_path: Path, capsys) -> None:
    """Probe documents gathered into one directory (one a host, as ``iosched probe --format json`` writes them),
    beside an Ansible fact cache's file: each is its host; a JSON file that is neither says so."""
    code, probe, _ = run(capsys, "probe", "--root", str(CAPTURES / "sos-rhel8-kvm-lvm"), "--format", "json")
    assert code == 0
    (tmp_path / "db01.json").write_text(probe)
    (tmp_path / "web01").write_text((ANSIBLE / "cache" / "192.168.84.133").read_text())
    (tmp_path / "other.json").write_text('{"kind": "something else"}')
    code, out, _ = run(capsys, "fleet", str(tmp_path), "--workload", "db", "--format", "json")
    assert code == 0
    hosts = {h["host"]: h for h in json.loads(out)["hosts"]}
    assert not hosts["db01.example.com"]["errors"] and hosts["db01.example.com"]["plans"]
    assert [h["errors"] for name, h in hosts.items() if name not in ("db01.example.com", "other.json")] == [[]]
    assert hosts["other.json"]["errors"] == ["no Ansible facts in this document"]


def test_text_summary_comes_first_and_counts_hosts(capsys) -> None:
    code, out, _ = run(capsys, "fleet", *map(str, FACT_DIRS), "--workload", "db", "--format", "markdown")
    assert code == 0
    assert out.index("What the hosts need") < out.index("## Hosts that could not be read")


@pytest.mark.ansible
def test_a_host_read_twice_is_planned_once_and_ansible_reads_each_plan(tmp_path: Path, capsys) -> None:
    import subprocess
    import sys

    code, out, _ = run(capsys, "fleet", str(ANSIBLE / "console"), "--workload", "db", "--format", "json")
    assert code == 0
    names = [h["host"] for h in json.loads(out)["hosts"] if not h["errors"]]
    assert len(names) == len(set(names))
    code, _, err = run(capsys, "fleet", str(ANSIBLE / "console"), str(ANSIBLE / "cache"), "--workload", "db",
                       "--format", "ansible", "--out", str(tmp_path))  # fmt: skip
    assert code == 0, err
    ansible = str(Path(sys.executable).with_name("ansible-inventory"))  # installed beside pytest
    done = subprocess.run([ansible, "-i", str(tmp_path / "inventory"), "--list"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    planned = [h for group in listed["iosched"]["children"] for h in listed[group]["hosts"]]
    assert len(planned) == len(set(planned)) and set(names) <= set(planned)  # each host once, in one plan group
    assert all("iosched_host" in listed["_meta"]["hostvars"][h] for h in planned)


def test_a_large_cache_is_planned_by_a_pool_exactly_as_by_one_process(tmp_path: Path, capsys) -> None:
    """Enough files for the process pool: the real cache documents under many names, read by a fresh CLI
    process on a pipe (no progress bar there) and by this one alone; the documents are the same."""
    import subprocess
    import sys

    from iosched.fleet.pool import POOL_MIN_UNITS

    real = sorted(p for p in (ANSIBLE / "cache").iterdir() if p.is_file())
    cache = tmp_path / "cache"
    cache.mkdir()
    for i in range(POOL_MIN_UNITS + 10):
        (cache / f"h{i:04d}-{real[i % len(real)].name}").write_bytes(real[i % len(real)].read_bytes())
    argv = ["fleet", str(cache), "--workload", "db", "--format", "json"]
    pooled = subprocess.run([sys.executable, "-m", "iosched", *argv, "--jobs", "2"], capture_output=True, text=True,
                            timeout=600)  # fmt: skip
    assert pooled.returncode == 0 and pooled.stderr == "", pooled.stderr
    code, alone, _ = run(capsys, *argv, "--jobs", "1")
    assert code == 0 and pooled.stdout == alone
    document = json.loads(alone)
    assert [h["host"] for h in document["hosts"]] == sorted(p.name for p in cache.iterdir())
    planned = sum(1 for h in document["hosts"] if not h["errors"])
    assert document["summary"]["hosts"] == planned > POOL_MIN_UNITS // 2


def test_hosts_alike_are_planned_once_by_one_worker(tmp_path: Path) -> None:
    """Workers read the hosts and send each shape they meet; each shape is planned by one worker: a fleet of one
    shape has one plan set, not one per worker, and it was not made by this process."""
    import os

    from iosched.fleet.pool import CHUNK, POOL_MIN_UNITS, Needs, Request
    from iosched.fleet.pool import run as plan_fleet
    from iosched.knowledge.kbcache import load_checked

    real = sorted(p for p in (ANSIBLE / "cache").iterdir() if p.is_file())[0]
    cache = tmp_path / "cache"
    cache.mkdir()
    for i in range(POOL_MIN_UNITS + 4 * CHUNK):
        (cache / f"h{i:04d}").write_bytes(real.read_bytes())
    outcomes, sets = plan_fleet(load_checked(), [cache], Request(workload="db"), Needs(text=True), jobs=2)
    assert len(outcomes) == POOL_MIN_UNITS + 4 * CHUNK and all(o.plans is not None for o in outcomes)
    assert {o.plans for o in outcomes} == set(sets)
    ((pid, number),) = sets
    assert pid != os.getpid() and number == 0


def test_a_pool_plans_every_kind_of_input_as_one_process_does(tmp_path: Path) -> None:
    """Fact files under many names (some broken, some of other workloads by the map), every fact form, captured
    roots and a probe document, planned by a pool and by this process alone: the same hosts, workloads, errors
    and plan texts, in the same order."""
    from iosched.fleet.pool import POOL_MIN_UNITS, Needs, Request
    from iosched.fleet.pool import run as plan_fleet
    from iosched.fleet.workloads import read_workload_map
    from iosched.knowledge.kbcache import load_checked
    from iosched.knowledge.normalise import workload_spellings

    kb = load_checked()
    real = sorted(p for p in (ANSIBLE / "cache").iterdir() if p.is_file())
    cache = tmp_path / "cache"
    cache.mkdir()
    for i in range(POOL_MIN_UNITS + 40):
        data = real[i % len(real)].read_bytes()
        (cache / f"h{i:04d}").write_bytes(data[: len(data) // 2] if i % 50 == 7 else data)  # a cut file is an error
    mapping = tmp_path / "workloads.yaml"
    mapping.write_text('hosts:\n  "h00*": streaming\n  "h01*": vm-host\ndefault: db\n')
    request = Request(workloads=read_workload_map(mapping, workload_spellings(kb.section("workloads"))))
    roots = sorted(p for p in CAPTURES.iterdir() if p.is_dir())[:3]
    paths = [cache, *FACT_DIRS, *roots]

    def planned(jobs: int) -> list[tuple[object, ...]]:
        totals: list[int] = []
        done: list[int] = []
        outcomes, sets = plan_fleet(kb, paths, request, Needs(text=True), jobs=jobs, started=totals.append,
                                        advance=done.append)  # fmt: skip
        assert len(totals) == 1 and sum(done) == totals[0] > POOL_MIN_UNITS  # the progress bar's calls
        assert len(done) <= -(-totals[0] // 64) + len(paths)
        assert all(not found.plans and found.text for found in sets.values())  # the JSON output holds only texts
        return [(o.name, o.workload, o.error, o.distro, o.kernel, sets[o.plans].text if o.plans else None)
                for o in outcomes]  # fmt: skip

    alone, pooled = planned(1), planned(2)
    assert pooled == alone
    assert {w for _, w, *_ in alone} >= {"streaming", "vm-host", "db"}
    errors, planned_hosts = sum(1 for o in alone if o[2]), sum(1 for o in alone if o[5])
    assert errors >= (POOL_MIN_UNITS + 40) // 50 and planned_hosts > POOL_MIN_UNITS


@pytest.mark.parametrize("device_plans", [0, 10_000], ids=["new-planner", "forget-hosts"])
def test_a_worker_that_bounds_its_memo_plans_as_one_that_does_not(
    monkeypatch: pytest.MonkeyPatch, device_plans: int
) -> None:
    """A worker's memo is bounded: after MAX_PLAN_SETS plan sets its Planner forgets its hosts, or, past
    MAX_DEVICE_PLANS, it starts a new one; the keys it gave plan sets (plans by identity) are the planner's. The
    outcomes and texts are those of a worker that never does."""
    from iosched.fleet import pool as fleet_pool
    from iosched.knowledge.kbcache import load_checked

    kb = load_checked()

    def planned() -> list[tuple[object, ...]]:
        outcomes, sets = fleet_pool.run(
            kb, FACT_DIRS, fleet_pool.Request(workload="db"), fleet_pool.Needs(text=True), jobs=1
        )
        return [(o.name, o.error, o.kernel, sets[o.plans].text if o.plans else None) for o in outcomes]

    whole = planned()
    monkeypatch.setattr(fleet_pool, "MAX_PLAN_SETS", 2)
    monkeypatch.setattr(fleet_pool, "MAX_DEVICE_PLANS", device_plans)
    made, forgot = [], []
    monkeypatch.setattr(fleet_pool, "Planner", lambda kb: made.append(1) or Planner(kb))
    monkeypatch.setattr(Planner, "forget_hosts", lambda self, f=Planner.forget_hosts: forgot.append(1) or f(self))
    assert planned() == whole
    if device_plans == 0:
        assert len(made) > 3 and not forgot
    else:
        assert len(made) == 1 and len(forgot) > 3


def test_json_output_in_another_encoding_is_the_same_text(capsys) -> None:
    """Plan set texts are kept as UTF-8; standard output in another encoding gets the same characters."""
    from iosched.fleet.pool import Needs, Request
    from iosched.fleet.pool import run as plan_fleet
    from iosched.knowledge.kbcache import load_checked
    from iosched.planning.fleetplan import one_per_name, summarise
    from iosched.render.fleet_json import lines

    outcomes, sets = plan_fleet(load_checked(), FACT_DIRS, Request(workload="db"), Needs(text=True), jobs=1)
    hosts = one_per_name(outcomes, sets)
    summary = summarise(hosts, sets)
    text = b"".join(lines(hosts, sets, summary)).decode()
    assert json.loads(text)["hosts"] and any(ord(c) > 127 for c in text)
    latin = b"".join(lines(hosts, sets, summary, "latin-1", "backslashreplace"))
    assert latin == text.encode("latin-1", "backslashreplace")


def test_reading_a_fact_file_costs_its_size_not_the_limit(tmp_path: Path) -> None:
    import tracemalloc

    from iosched.fleet.ansible_docs import MAX_CONSOLE_BYTES, read_regular

    path = tmp_path / "host"
    path.write_bytes(b"{}" * 1000)
    tracemalloc.start()
    try:
        assert read_regular(path, MAX_CONSOLE_BYTES) == path.read_bytes()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


@pytest.mark.parametrize("fmt", ["json", "markdown", "ansible"])
def test_output_that_cannot_be_written_is_one_line_and_exit_2(fmt: str) -> None:
    """A full disk (or, for the Ansible tree, a directory that cannot be made) ends the run with one line and exit
    2, whichever way the format writes its output."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "iosched", "fleet", str(ANSIBLE / "cache"), "--workload", "db", "--format", fmt,
            *(["--out", "/dev/full/plans"] if fmt == "ansible" else [])]  # fmt: skip
    with open("/dev/full", "w") as full:
        done = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("iosched: error: cannot write ")
