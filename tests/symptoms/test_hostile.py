"""Hostile archives: numbers of hundreds of digits or beyond a float, JSON nested without end, dates past year
9999, devices by the ten thousand and one file under many names. Every reader and ``--root`` answer or refuse
in one line (exit 2), never with a traceback, non-finite JSON or memory that grows with the attack."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from diagnose_helpers import DEVICE_FORMATS, HOST_FILES, PUBLIC, device, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iosched.cli import main
from iosched.observe.reader import open_source
from iosched.symptoms import series
from iosched.symptoms.detect import read_text
from iosched.symptoms.gather import from_source

FILES = [scenario("saturation") / f for f in (*DEVICE_FORMATS, *HOST_FILES)] + sorted(PUBLIC.iterdir())
TEXTS = {p.name: p.read_text() for p in FILES}
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
HOSTILE_NUMBERS = st.sampled_from(["9" * 400, "9" * 5000, "1e308", "1.8e308", "NaN", "Infinity", "-1",
                                   "9" * 25 + ".5", "0." + "0" * 5000 + "1", "9" * 308 + ".0"])  # fmt: skip


def _strict(text: str) -> object:
    def refuse(token: str) -> None:
        raise AssertionError(f"non-finite number {token} in --format json")

    return json.loads(text, parse_constant=refuse)


def _run(path: Path | str, *extra: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    args = ["diagnose", *([str(path)] if path else []), *extra, "--format", "json"]
    code = main(args)
    out, err = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in err
    if code == 0:
        _strict(out)
    else:
        assert len(err.strip().splitlines()) == 1, err
    return code, out, err


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.sampled_from(sorted(TEXTS)), st.lists(st.tuples(st.floats(0, 1), HOSTILE_NUMBERS), min_size=1, max_size=4))
def test_hostile_numbers_in_every_reader(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], name: str,
    edits: list[tuple[float, str]],
) -> None:  # fmt: skip
    """A number of any file iosched reads replaced by a hostile one: read, or refused with a reason."""
    text = TEXTS[name]
    spans = [m.span() for m in NUMBER.finditer(text)]
    for where, hostile in sorted(edits, reverse=True):
        start, end = spans[int(where * (len(spans) - 1))]
        text = text[:start] + hostile + text[end:]
    reading = read_text(text, name)
    for samples in [*reading.devices.values(), reading.host]:
        assert all(0 <= v <= 1e15 for s in samples for v in s.values.values())
    path = tmp_path_factory.mktemp("hostile") / name
    path.write_text(text)
    _run(path, capsys=capsys)


def test_huge_numbers_each_name_their_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's forms, each refused with the reason: a diskstats counter of 400 and 5,000 digits, a PSI
    total of many digits, rMB/s of 1e308 in iostat's JSON."""
    snap = "   8       0 sda {}\n"
    for digits in (400, 5000):
        stats = tmp_path / f"diskstats-{digits}"
        stats.write_text("".join(f"{t}\n" + snap.format(" ".join(["9" * digits] * 11)) for t in (1.7e9, 1.7e9 + 1)))
        assert "longer than 20 digits" in _run(stats, capsys=capsys)[2]
    psi = tmp_path / "pressure"
    psi.write_text("some avg10=1.00 avg60=1.00 avg300=1.00 total=" + "9" * 500 + "\n")
    assert "longer than 20 digits" in _run(psi, capsys=capsys)[2]
    doc = json.loads(TEXTS["iostat-x.json"])
    for report in doc["sysstat"]["hosts"][0]["statistics"]:
        for disk in report["disk"]:
            disk["rMB/s"] = 1e308
    big = tmp_path / "iostat.json"
    big.write_text(json.dumps(doc))
    code, _, err = _run(big, capsys=capsys)
    assert code == 2 and "rMB/s" in err and "out of range" in err


@pytest.mark.parametrize("depth", [17, 1000, 200_000])
def test_json_nested_deeper_than_iostat_is_refused(tmp_path: Path, depth: int,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    deep = tmp_path / "deep.json"
    deep.write_text('{"sysstat": ' + "[" * depth + "]" * depth + "}")
    code, _, err = _run(deep, capsys=capsys)
    assert code == 2 and "nested deeper" in err


@pytest.mark.parametrize("date", ["12/31/9999", "9999-12-31", "12/31/99"])
def test_a_late_date_that_passes_midnight(tmp_path: Path, date: str, capsys: pytest.CaptureFixture[str]) -> None:
    """sar counts a day on at midnight; from 9999-12-31 that is year 10000, which no clock prints."""
    lines = TEXTS["sar-d.txt"].splitlines()
    lines[0] = re.sub(r"\d{2}/\d{2}/\d{2,4}|\d{4}-\d{2}-\d{2}", date, lines[0])
    times = iter(["23:59:58", "00:00:01"] * len(lines))
    text = "\n".join(re.sub(r"^\d{2}:\d{2}:\d{2}", lambda _: next(times), x) for x in lines)
    sar = tmp_path / "sar"
    sar.write_text(text)
    _run(sar, capsys=capsys)
    iostat = tmp_path / "iostat"
    iostat.write_text(re.sub(r"^\d{2}/\d{2}/\d{2,4} ", f"{date} ", TEXTS["iostat-x-t.txt"], flags=re.MULTILINE))
    _run(iostat, "--format", "markdown", capsys=capsys)


@pytest.mark.slow
def test_devices_and_intervals_are_bounded_with_a_message(tmp_path: Path) -> None:
    """50,000 devices in three reports: the first MAX_DEVICES are read, the rest named as left out, in memory
    that does not grow with the count (the issue measured 2.2 GB). The command runs as users run it, in a process
    of its own whose peak resident memory the kernel reports (tracemalloc would multiply its time)."""
    header = next(x for x in TEXTS["iostat-x-t.txt"].splitlines() if x.startswith("Device"))
    row = next(x for x in TEXTS["iostat-x-t.txt"].splitlines() if x.startswith(device("saturation")))
    cells = row.split()[1:]
    block = "\n".join(f"dev{k} {' '.join(cells)}" for k in range(50_000))
    many = tmp_path / "many"
    many.write_text("".join(f"11/26/26 10:59:{s:02d}\n{header}\n{block}\n\n" for s in range(3)))
    out = tmp_path / "out.json"
    with out.open("wb") as sink:
        child = subprocess.Popen([sys.executable, "-m", "iosched", "diagnose", str(many), "--format", "json"],
                                 stdout=sink, stderr=subprocess.PIPE)  # fmt: skip
        _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, child.stderr.read() if child.stderr else ""
    doc = _strict(out.read_text())
    assert len(doc["devices"]) == series.MAX_DEVICES
    assert any(f"more than {series.MAX_DEVICES} devices" in m for m in doc["missing"])
    assert usage.ru_maxrss * 1024 < 512 * 1024 * 1024, usage.ru_maxrss


def test_collector_bounds_intervals_and_samples() -> None:
    found = series.Collector("x")
    for k in range(series.MAX_INTERVALS + 5):
        found.device("sda", series.Sample(float(k), {"util": 1.0}))
        found.add_host(series.Sample(float(k), {"psi_some": 1.0}))
    found.device("sdb", series.Sample(0.0, {"util": float("nan")}))
    reading = found.reading("test")
    assert len(reading.devices["sda"]) == series.MAX_INTERVALS == len(reading.host)
    assert "sdb" not in reading.devices
    assert len(reading.missing) == 3 and all("\n" not in m for m in reading.missing)


def test_root_reads_a_file_under_many_names_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Hard links to one sar report in var/log/sa are one reading, not one per name."""
    sa = tmp_path / "var" / "log" / "sa"
    sa.mkdir(parents=True)
    (sa / "sar01").write_text(TEXTS["sar-d.txt"])
    for k in range(2, 60):
        os.link(sa / "sar01", sa / f"sar{k:02d}")
    readings = list(from_source(open_source(tmp_path)))
    assert [r.source for r in readings] == ["var/log/sa/sar01"]
    code, out, _ = _run("", "--root", str(tmp_path), capsys=capsys)
    assert code == 0 and _strict(out)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.sampled_from(["proc/diskstats", "proc/pressure/io", "proc/meminfo", "proc/vmstat", "var/log/sa/sar26"]),
       st.sampled_from(sorted(TEXTS)), HOSTILE_NUMBERS, st.floats(0, 1))  # fmt: skip
def test_root_with_hostile_files(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], rel: str, name: str,
    hostile: str, where: float,
) -> None:  # fmt: skip
    root = tmp_path_factory.mktemp("root")
    text = TEXTS[name]
    spans = [m.span() for m in NUMBER.finditer(text)]
    start, end = spans[int(where * (len(spans) - 1))]
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text[:start] + hostile + text[end:])
    _run("", "--root", str(root), capsys=capsys)
