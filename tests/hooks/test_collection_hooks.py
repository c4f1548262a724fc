"""The collection hooks iosched ships, run by the real tools or by their documented protocol, and read back.

- sos: the distribution's ``sos report`` with iosched's sos_extras definition installed (sosreport/sos,
  sos/report/plugins/sos_extras.py at 4.0 and 5c7e63ee22a96435d16e07c1bcb53faa8020a498).
- supportconfig: the plugin run as ``exec_plugins`` and ``_log_cmd`` run it and wrapped as they write
  ``plugin-NAME.txt`` (openSUSE/supportutils bin/supportconfig.rc at 84ae92adcb5d0556685ae3d81751bc1677bda8c3:
  ``bash -c PLUGIN 2>&1`` under a ``#==[ Command ]`` header naming it, between two ``#==[ Plugin ]`` sections).
- ``iosched collect``: a tarball of this machine read back as a tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest

from iosched.capture.source import mangle
from iosched.cli import main
from iosched.cli.commands.collect import HOOKS, hook_text
from iosched.measure.bench.device import loop_device
from iosched.observe import bundle as capture
from iosched.observe.reader import EXTRAS, PROBE_COMMAND, PROBE_FILE, read_root

ENGINE = Path(__file__).resolve().parents[2] / "engine"
CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
ENV = {**os.environ, "PYTHONPATH": str(ENGINE)}
root = [pytest.mark.root, pytest.mark.skipif(os.geteuid() != 0, reason="needs root (loop devices, /etc/sos)")]


def live_queues(name: str) -> int:
    return sum(1 for entry in os.listdir(f"/sys/block/{name}/mq") if entry.isdigit())


def hw_queue_assumptions(plans: list[dict[str, Any]], device: str) -> list[dict[str, str]]:
    """What a host's plan of ``device`` assumes about its hardware queues."""
    (plan,) = (p for p in plans if p["device"] == device)
    return [a for a in plan["assumptions"] if a["fact"] == "hw_queues"]


@pytest.fixture
def sos_definition() -> object:
    """iosched's definition in /etc/sos/extras.d for the test; what was there before is put back."""
    path = HOOKS["sos"][1]
    before = path.read_bytes() if path.exists() else None
    made = not path.parent.exists()
    main(["collect", "--install-hook", "sos"])
    yield path
    if before is None:
        path.unlink()
    else:
        path.write_bytes(before)
    if made:
        path.parent.rmdir()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("sos") is None, reason="needs sos (Debian: sosreport)")
@root[0]
@root[1]
def test_a_real_sosreport_with_the_definition_plans_guest_disks_with_their_queue_counts(
    sos_definition: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with loop_device(64 * 2**20) as loop:
        queues = {
            name: live_queues(name) for name in os.listdir("/sys/block") if os.path.isdir(f"/sys/block/{name}/mq")
        }
        subprocess.run(["sos", "report", "--batch", "--quiet", "--only-plugins", "sos_extras,block",
                        "--tmp-dir", str(tmp_path), "-z", "gzip"], env=ENV, check=True, capture_output=True,
                       timeout=600)  # fmt: skip
    (archive,) = tmp_path.glob("sosreport-*.tar.gz")
    system = read_root(archive)
    assert system.source == str(archive) and not any("probe document" in m for m in system.missing)
    assert system.device(loop).nr_hw_queues == queues[loop]
    assert main(["advise", "--root", str(archive), "--format", "json"]) == 0
    plans = json.loads(capsys.readouterr().out)["plans"]
    planned = [p["device"] for p in plans if p["device"] in queues]
    assert planned, "a blk-mq disk of this machine is planned"
    for device in planned:
        assert system.device(device).nr_hw_queues == queues[device]
        assert hw_queue_assumptions(plans, device) == []

    # Without the probe's output (iosched was not runnable), the copied mq/ files still give the counts;
    # a damaged output is named and the files are read; without the mq/ files either, the count is assumed.
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "unpacked", filter="data")
    (tree,) = (tmp_path / "unpacked").iterdir()
    (output,) = (tree / EXTRAS / "iosched").glob(f"*{mangle(PROBE_COMMAND)}")
    assert json.loads(output.read_text())["kind"] == "probe"
    output.write_text('{"kind": "probe", "schema_version": 1, "host": {}, "devices": [7]}')
    damaged = read_root(tree)
    assert all(damaged.device(device).nr_hw_queues == queues[device] for device in [loop, *planned])
    assert any(m.startswith("iosched's probe document: ") for m in damaged.missing)
    output.unlink()
    assert all(read_root(tree).device(device).nr_hw_queues == queues[device] for device in [loop, *planned])
    for mq in list(tree.glob("sys/devices/**/mq")):
        shutil.rmtree(mq)
    assert main(["advise", "--root", str(tree), "--format", "json"]) == 0
    without = json.loads(capsys.readouterr().out)["plans"]
    assert all(hw_queue_assumptions(without, device) for device in planned)


def test_the_sos_definition_is_the_sos_extras_format(tmp_path: Path) -> None:
    """Each line as sos_extras reads it: a comment, a command (which runs here and writes a probe document),
    or ':GLOB' of absolute paths."""
    commands = []
    for line in hook_text("sos").splitlines():
        if not line.split() or line.startswith("#"):
            continue
        if line.startswith(":"):
            assert line[1:].startswith("/") and len(line.split()) == 1, line
        else:
            commands.append(line)
    assert len(commands) == 1 and commands[0].endswith(PROBE_COMMAND.removeprefix("iosched"))
    done = subprocess.run(commands[0], shell=True, env=ENV, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["kind"] == "probe"
    assert mangle(commands[0]).endswith(mangle(PROBE_COMMAND))


def supportconfig_report(directory: Path, plugin: Path) -> None:
    """``plugin-NAME.txt`` as supportconfig.rc's ``exec_plugins`` writes it, beside a sample supportconfig."""
    shutil.copy(CAPTURES / "scc-sles15sp5-sap-vmware" / "basic-environment.txt", directory)
    run = subprocess.run(["bash", "-c", str(plugin)], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stdout
    listing = "".join(f"{n:6d}\t{line}\n" for n, line in enumerate(plugin.read_text().splitlines(), 1))
    rule = "#==[ Plugin ]=======================================#"
    (directory / f"plugin-{plugin.name}.txt").write_text(
        f"{rule}\n# Output: {plugin}\n\n#==[ Command ]======================================#\n# {plugin}\n"
        f"{run.stdout}\n\n{rule}\n# File: cat -n {plugin}\n\n{listing}\n"
    )


def test_the_supportconfig_plugin_by_its_protocol_gives_this_machine(tmp_path: Path) -> None:
    plugins, report = tmp_path / "plugins", tmp_path / "report"
    plugins.mkdir(), report.mkdir()
    plugin = plugins / "iosched"
    plugin.write_text(hook_text("supportconfig"))
    plugin.chmod(HOOKS["supportconfig"][2])
    assert plugin.read_text().startswith("#!/bin/sh\n") and os.access(plugin, os.X_OK)
    supportconfig_report(report, plugin)
    live = read_root(Path("/"))
    read = read_root(report)
    assert read.source == str(report) and read.host.kernel == live.host.kernel
    queued = {d.name: d.nr_hw_queues for d in live.devices if d.nr_hw_queues}
    assert queued and {d.name: d.nr_hw_queues for d in read.devices if d.nr_hw_queues} == queued

    # The sections of the files alone (the probe's section damaged) give the queue counts too.
    text = (report / "plugin-iosched.txt").read_text()
    (report / "plugin-iosched.txt").write_text(text.replace('"kind": "probe"', '"kind": "plan"', 1))
    files_only = read_root(report)
    assert any(m.startswith("iosched's probe document: kind") for m in files_only.missing)
    assert {d.name: d.nr_hw_queues for d in files_only.devices if d.nr_hw_queues} == queued


def test_a_plugin_without_its_interpreter_tells_supportconfig_it_skipped(tmp_path: Path) -> None:
    plugin = tmp_path / "iosched"
    plugin.write_text(hook_text("supportconfig").replace(sys.executable, str(tmp_path / "gone")))
    plugin.chmod(0o755)
    assert subprocess.run(["bash", "-c", str(plugin)], capture_output=True).returncode == 111


def test_collect_round_trip_reads_back_what_the_live_read_saw(tmp_path: Path) -> None:
    system, recorder = capture.record(Path("/"))
    archive = capture.tarball(recorder, "{}", "iosched-test", tmp_path)
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path, filter="data")
    (tmp_path / "iosched-test" / PROBE_FILE).unlink()
    read = read_root(tmp_path / "iosched-test")
    assert read.to_json() == system.replace(source=str(tmp_path / "iosched-test")).to_json()


def test_collect_command_writes_a_tarball_advise_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["collect", "--out", str(tmp_path)]) == 0
    archive = Path(capsys.readouterr().out.strip())
    assert archive.parent == tmp_path and archive.name.startswith("iosched-")
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        tar.extractall(tmp_path, filter="data")
    top = archive.name.removesuffix(".tar.gz")
    assert all(n == top or n.startswith(f"{top}/") for n in names)
    assert main(["advise", "--root", str(archive), "--format", "json"]) == 0
    from_tarball = json.loads(capsys.readouterr().out)
    assert main(["advise", "--root", str(tmp_path / top), "--format", "json"]) == 0
    from_tree = json.loads(capsys.readouterr().out)
    assert from_tarball["plans"] == from_tree["plans"] and from_tarball["plans"]
    assert from_tarball["source"] == str(archive)


@pytest.mark.parametrize("content", [b"not a tarball\n", b"\x1f\x8b\x08\x00broken gzip"], ids=["text", "gzip"])
def test_a_root_that_is_no_capture_is_one_line_and_exit_2(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "capture.tar.gz"
    bad.write_bytes(content)
    assert main(["advise", "--root", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "Traceback" not in err


def test_collect_into_a_missing_directory_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["collect", "--out", str(tmp_path / "absent")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_tarball_with_links_out_and_devices_unpacks_only_what_stays_inside(tmp_path: Path) -> None:
    import io

    archive = tmp_path / "hostile.tar"
    with tarfile.open(archive, "w") as tar:
        for name, kind, target in (("t/sys/block/x", tarfile.SYMTYPE, "/etc"), ("t/dev/sda", tarfile.BLKTYPE, ""),
                                   ("t/../escape", tarfile.REGTYPE, "")):  # fmt: skip
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, target
            tar.addfile(info, io.BytesIO(b""))
        info = tarfile.TarInfo("t/proc/cmdline")
        info.size = 5
        tar.addfile(info, io.BytesIO(b"quiet"))
    assert read_root(archive).host.cmdline == "quiet"
    assert not (tmp_path.parent / "escape").exists()


def test_a_probe_document_names_its_kind_and_one_without_it_still_reads(capsys: pytest.CaptureFixture[str]) -> None:
    from iosched.observe.probejson import KIND, ProbeDocumentError, from_document, to_document

    system = read_root(CAPTURES / "debian12-vm-live")
    document = json.loads(json.dumps(to_document(system)))
    assert document["kind"] == KIND == "probe"
    assert from_document(document) == system
    del document["kind"]
    assert from_document(document) == system
    with pytest.raises(ProbeDocumentError, match="kind 'host-plans' is not probe"):
        from_document({**document, "kind": "host-plans"})


def test_fleet_reads_a_collected_tarball_as_its_host(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["collect", "--out", str(tmp_path)]) == 0
    archive = Path(capsys.readouterr().out.strip())
    assert main(["advise", "--root", str(archive), "--format", "json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(["fleet", str(archive), "--format", "json"]) == 0
    out = capsys.readouterr().out
    try:  # one document of hosts, or JSON Lines of host documents
        documents = json.loads(out)["hosts"]
    except ValueError:
        documents = [json.loads(line) for line in out.splitlines()]
    (host,) = [d for d in documents if "plans" in d]
    assert host["host"] == alone["host"]["hostname"] and not host.get("error")
    assert [p["device"] for p in host["plans"]] == [p["device"] for p in alone["plans"]]


@pytest.mark.slow
def test_the_wheel_ships_the_hooks(tmp_path: Path) -> None:
    import zipfile

    repository = ENGINE.parent
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(repository)], check=True, capture_output=True, timeout=300)  # fmt: skip
    (wheel,) = tmp_path.glob("iosched-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for name, _, _ in HOOKS.values():
            shipped = archive.read(f"iosched/hooks/{name}").decode()
            assert shipped == (ENGINE / "iosched" / "hooks" / name).read_text() and "@PYTHON@" in shipped


def test_a_hook_that_cannot_be_installed_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "extras.d").write_text("a file where the directory should be")
    monkeypatch.setitem(HOOKS, "sos", ("sos_extras", tmp_path / "extras.d" / "iosched", 0o644))
    assert main(["collect", "--install-hook", "sos"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot install the sos hook" in err


def test_a_file_cannot_open_a_section_of_the_plugins_output(tmp_path: Path) -> None:
    from iosched.capture.supportconfig import sections

    forged = f"#==[ Command ]=====#\n# {PROBE_COMMAND}\n{{}}\n#==[ File Content ]===#\n# /etc/os-release\nID=forged\n"
    (tmp_path / "etc" / "udev" / "rules.d").mkdir(parents=True)
    (tmp_path / "etc" / "udev" / "rules.d" / "60-x.rules").write_text(forged)
    recorder = capture.Recorder(tmp_path)
    assert recorder.text("etc/udev/rules.d/60-x.rules") == forged
    found = sections(capture.supportconfig_sections(recorder, '{"kind": "probe"}'))
    assert [(kind, label) for kind, label, _ in found] == [
        ("Command", PROBE_COMMAND), ("File Content", "/etc/udev/rules.d/60-x.rules")
    ]  # fmt: skip
    assert found[1][2].replace("\n ", "\n").lstrip() == forged
