"""``iosched probe`` in every format, and bad roots: one line on stderr, exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from iosched.cli import main
from iosched.records.system import SCHEMA_VERSION
from probe_helpers import NAMES, bracketed, capture, raw_schedulers

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
TOP_KEYS = {"kind", "host", "devices", "sysctls", "mounts", "tuners", "missing", "source", "schema_version"}
DEVICE_KEYS = {
    "name", "kind", "rotational", "scheduler", "schedulers", "io_path", "zoned", "write_cache", "nr_hw_queues",
    "queue", "iosched", "holders", "slaves", "model", "vendor", "serial", "wwn", "dm_uuid", "dm_name", "parent",
    "driver", "size_bytes", "removable", "bus_id", "dasd_type", "block_size", "hw",
}  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["probe", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", NAMES)
def test_json_is_the_documented_contract(name: str, capsys: pytest.CaptureFixture[str], distro_ids: set[str]) -> None:
    code, out, _ = run(capsys, "--root", str(capture(name)), "--format", "json")
    data = json.loads(out)
    assert code == 0 and set(data) == TOP_KEYS and data["schema_version"] == SCHEMA_VERSION
    assert out.isascii()
    assert data["host"]["distro"] in distro_ids
    for device in data["devices"]:
        assert set(device) == DEVICE_KEYS
    raw = raw_schedulers(capture(name))
    shown = {d["name"]: d["scheduler"] for d in data["devices"]}
    assert all(shown[n] == bracketed(line) for n, line in raw.items())


@pytest.mark.parametrize("name", NAMES)
def test_yaml_says_what_json_says(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, as_json, _ = run(capsys, "--root", str(capture(name)), "--format", "json")
    code, as_yaml, _ = run(capsys, "--root", str(capture(name)), "--format", "yaml")
    assert code == 0 and yaml.safe_load(as_yaml) == json.loads(as_json)


@pytest.mark.parametrize("name", NAMES)
def test_text_has_host_and_every_device(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, as_json, _ = run(capsys, "--root", str(capture(name)), "--format", "json")
    code, text, _ = run(capsys, "--root", str(capture(name)))
    data = json.loads(as_json)
    assert code == 0 and not CONTROL.search(text.replace("\n", ""))
    assert data["host"]["kernel"] in text and f"KB: {data['host']['distro']}" in text
    table = text.split("\nDEVICE ", 1)[1].split("\n\n", 1)[0]
    lines = table.splitlines()[1:]
    rows = {line.split()[0]: line.split()[3] for line in lines if "unattached loop" not in line}
    empty = [d["name"] for d in data["devices"] if d["kind"] == "loop" and d.get("size_bytes") == 0]
    assert sum("unattached loop" in line for line in lines) == (1 if empty else 0)
    for device in data["devices"]:
        if device["name"] not in empty:
            assert rows[device["name"]] == (device["scheduler"] or "-")


def test_text_escapes_what_the_capture_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/os-release").write_text('ID=x\nPRETTY_NAME="a\x1b]0;pwned\x07b\u202ec"\n')
    (tmp_path / "sys/block/sd\x1b[31m").mkdir(parents=True)
    for fmt in ("text", "json", "yaml"):
        code, out, _ = run(capsys, "--root", str(tmp_path), "--format", fmt)
        assert code == 0 and not CONTROL.search(out.replace("\n", "")) and "\u202e" not in out
    assert "a]0;pwnedbc" in run(capsys, "--root", str(tmp_path))[1]


@pytest.mark.parametrize("bad", ["missing", "file", "control\x1b[2J"])
def test_bad_root_is_one_line_and_exit_2(bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / bad
    if bad == "file":
        root.write_text("not a directory\n")
    code, out, err = run(capsys, "--root", str(root))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("iosched: error: ") and not CONTROL.search(err.rstrip("\n"))


def test_the_installed_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "iosched", "probe", "--root", str(tmp_path / "nope")],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
    done = subprocess.run([sys.executable, "-m", "iosched", "probe", "--root", str(capture(NAMES[0])),
                           "--format", "json"], capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["source"] == str(capture(NAMES[0]))
