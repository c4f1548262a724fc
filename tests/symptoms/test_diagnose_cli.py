"""`iosched diagnose` and `advise --symptoms` as a user meets them: the ticket's order, the chart, the JSON
contract (README), a live probe, a sosreport-like tree."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from diagnose_helpers import PUBLIC, device, inputs, scenario

from iosched.cli import main
from iosched.cli.commands.diagnose import symptom_context


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_markdown_ticket_has_evidence_then_cause_then_plan_then_chart(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:  # fmt: skip
    """The chart over time is text in the ticket (a ticket shows inline SVG as raw text); the SVG goes to a file."""
    out = run(["diagnose", *map(str, inputs("flood-none")), "--root", str(scenario("flood-none") / "root"),
               "--format", "markdown", "--chart", str(tmp_path / "charts")], capsys)  # fmt: skip
    dev = device("flood-none")
    section = out[out.index(f"## {dev}:") :]
    order = [section.index(mark) for mark in ("### Evidence", "### IOD003", "### Plan", "### Over time", "%util  ")]
    assert order == sorted(order)
    assert "iosched advise --hw HW --device" in section and "--goal latency" in section
    assert "<svg" not in out and "<rect" not in out
    timeline = section[section.index("### Over time") :]
    util = next(line for line in timeline.splitlines() if line.startswith("%util  "))
    marks = util.split("|")[1]  # name |sparkline| range (window)
    assert len(marks) >= 10 and set(marks) <= set("▁▂▃▄▅▆▇█ ") and "█" in marks  # one mark per slice
    svg = (tmp_path / "charts" / f"{dev}.svg").read_text()
    assert svg.startswith("<svg") and svg.count('class="bar"') >= 2 * 20  # %util and r_await, one bar per slice


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["diagnose", *map(str, inputs("saturation")), "--format", "json"], capsys)
    doc = json.loads(out)
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert doc["schema_version"] == 1 and '"schema_version": 1' in readme
    for key in doc:
        assert f"`{key}`" in readme, key
    (found,) = [d for d in doc["devices"] if d["device"] == device("saturation")]
    for key in found:
        assert f"`devices[].{key}" in readme, key
    assert found["verdict"] == "cause" and found["causes"][0]["id"] == "IOD004"
    util = found["observations"]["util"]
    assert util["unit"] == "%" and util["n"] >= 25 and util["start"] < util["end"] and util["clock"] is True


def test_plan_with_hardware_is_the_usual_plan(kb, capsys: pytest.CaptureFixture[str]) -> None:
    """A loop device cannot be tuned: the plan says so in one line instead of failing the diagnosis."""
    out = run(["diagnose", *map(str, inputs("writeback-none")), "--hw", "hdd", "--format", "json"], capsys)
    (found,) = [d for d in json.loads(out)["devices"] if d["device"] == "loop0"]  # loop1's plan is for loop0
    assert found["plan_context"] == {"symptoms": "dirty-stall"}
    assert found["plan"].startswith("No plan for loop0: ")


def test_root_tree_like_a_sosreport(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sos keeps /proc files and sar's text reports under the root: the same readings come from there."""
    root = tmp_path / "sosreport-host"
    shutil.copytree(scenario("saturation") / "root", root)
    (root / "sos_commands").mkdir()
    (root / "var" / "log" / "sa").mkdir(parents=True)
    shutil.copy(scenario("saturation") / "sar-d.txt", root / "var" / "log" / "sa" / "sar26")
    out = run(["diagnose", "--root", str(root), "--format", "json"], capsys)
    doc = json.loads(out)
    (found,) = [d for d in doc["devices"] if d["device"] == device("saturation")]
    assert found["causes"][0]["id"] == "IOD004"
    assert found["observations"]["util"]["source"] == "sar -d (var/log/sa/sar26)"
    assert found["facts"]["scheduler.now"] == "none"
    archive = shutil.make_archive(str(tmp_path / "sosreport-host"), "xztar", tmp_path, root.name)  # as sos packs it
    assert run(["diagnose", "--root", archive, "--format", "json"], capsys) == out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_probe_samples_this_machine(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["diagnose", "--probe", "--seconds", "2", "--format", "json"], capsys)
    doc = json.loads(out)
    assert doc["devices"] or any("no I/O at all" in note for note in doc["notes"])
    for found in doc["devices"]:
        assert found["observations"]["util"]["n"] == 2 and found["observations"]["util"]["clock"]
    assert {"psi_some", "dirty_kib"} <= set(doc["host"]) or not Path("/proc/pressure/io").exists()


def test_advise_symptoms_sets_what_the_cause_implies(kb) -> None:
    flood = [scenario("flood-none") / "iostat-x-t.txt"]
    assert symptom_context(kb, flood, {"hw": "ssd"}) == {"device": device("flood-none"), "hw": "ssd",
                                                           "goal": "latency"}  # fmt: skip
    assert symptom_context(kb, flood, {"hw": "ssd", "goal": "throughput"})["goal"] == "throughput"
    assert symptom_context(kb, [scenario("healthy") / "iostat-x-t.txt"], {"hw": "ssd"}) == {"hw": "ssd"}
    dirty = [scenario("writeback-none") / f for f in ("iostat-x-t.txt", "meminfo.log", "proc-vmstat.log",
                                                   "pressure-io.log")]  # fmt: skip
    assert symptom_context(kb, dirty, {"device": "loop1"}) == {"device": "loop1", "symptoms": "dirty-stall"}


def test_advise_symptoms_reaches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["advise", "--hw", "ssd", "--symptoms", str(scenario("flood-none") / "iostat-x-t.txt")])
    err = capsys.readouterr().err
    assert code == 2 and f"{device('flood-none')} is a loop device" in err


def test_sosreport_sar_plugin_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sos's sar plugin saves ``sar -A -f saDD`` as sos_commands/sar/sarDD: its disk section is read, every
    other activity's lines are not."""
    root = tmp_path / "sosreport-host"
    (root / "sos_commands" / "sar").mkdir(parents=True)
    shutil.copy(PUBLIC / "sysstat-12.6.1-expected.data-9.1.6", root / "sos_commands" / "sar" / "sar21")
    doc = json.loads(run(["diagnose", "--root", str(root), "--format", "json"], capsys))
    assert [m for m in doc["missing"] if "no r_await" not in m] == []  # no other activity's line misread
    (sda,) = [d for d in doc["devices"] if d["device"] == "sda"]
    assert sda["observations"]["util"]["source"] == "sar -d (sos_commands/sar/sar21)"
    assert sda["verdict"] == "unknown"  # one interval: no window to judge


def test_ticket_links_causes_only_to_the_configured_site(kb, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(scenario("saturation") / "iostat-x-t.txt")]
    plain = run(["diagnose", *files, "--format", "markdown"], capsys)
    linked = run(
        ["diagnose", *files, "--format", "markdown", "--site-url", "https://docs.example.org/iosched/"], capsys
    )
    assert "### IOD004 `saturated-device`" in plain and "http" not in plain.split("**Sources:**")[0]
    assert f"### [IOD004](https://docs.example.org/iosched/reference/causes/IOD004/?kb={kb.version})" in linked
    for ident in kb.get("IOD004").sources:
        assert kb.get(ident).title.split(":")[0] in plain


@pytest.mark.parametrize(
    ("capture", "stacked"),
    [("sos-rhel8-kvm-lvm", {"dm-0": ("vda",), "dm-1": ("vda",)}),
     ("sos-sles12sp5-legacy-mpath", {"dm-0": ("sdb", "sdc"), "dm-1": ("sda",), "dm-2": ("sda",)})],
)  # fmt: skip
def test_stacked_devices_map_to_whole_disks(capture: str, stacked: dict) -> None:
    """The sosreports of tests/observe/captures: LVM on a partition, multipath over two paths."""
    from iosched.cli.commands.diagnose import device_knowledge
    from iosched.observe.reader import open_source

    root = Path(__file__).parents[1] / "observe" / "captures" / capture
    facts, parents, slaves, _ = device_knowledge(open_source(root))
    assert slaves == stacked
    assert all(parents[p] in facts for p in parents)


def test_supportconfig_iostat_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """supportconfig's fs-diskio.txt runs ``iostat -x 1 4`` (bin/supportconfig, supportutils 84ae92ad): its
    output in a Command section is read like any iostat text, the capture's sysfs (scheduler) with it."""
    root = tmp_path / "scc_host"
    shutil.copytree(Path(__file__).parents[1] / "observe" / "captures" / "scc-sles15sp5-sap-vmware", root)
    iostat = (PUBLIC / "sysstat-12.6.1-expected.iostat-x").read_text()
    with (root / "fs-diskio.txt").open("a") as f:
        f.write(f"\n#==[ Command ]======================================#\n# /usr/bin/iostat -x 1 4\n{iostat}\n")
    doc = json.loads(run(["diagnose", "--root", str(root), "--format", "json"], capsys))
    (sdq,) = [d for d in doc["devices"] if d["device"] == "sdq"]
    assert sdq["observations"]["util"]["source"] == "iostat -x (iostat -x 1 4)"
    assert any(n.startswith("iostat -x 1 4: the first report") for n in doc["notes"])
    assert any("sda" in n for n in doc["notes"] if n.startswith("no I/O"))  # idle once boot averages are left out
