"""Damaged input: truncated, mixed-locale, interleaved or random text gives a clear line, never a traceback,
and nothing is read from a half-read table."""

from __future__ import annotations

from pathlib import Path

import pytest
from diagnose_helpers import DEVICE_FORMATS, HOST_FILES, PUBLIC, device, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iosched.cli import main
from iosched.symptoms.detect import read_bytes, read_text
from iosched.symptoms.observations import facts, observe

FILES = [scenario("saturation") / f for f in (*DEVICE_FORMATS, *HOST_FILES)] + sorted(PUBLIC.iterdir())
TEXTS = [p.read_text() for p in FILES]


def _check(text: str) -> None:
    reading = read_text(text, "damaged")
    assert all(isinstance(line, str) and "\n" not in line for line in reading.missing)
    for samples in reading.devices.values():
        for sample in samples:
            assert all(v >= 0 for v in sample.values.values())
    observed = observe([reading])
    for dev in observed.devices:
        facts(observed, dev)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXTS), st.floats(0, 1))
def test_truncated_anywhere(text: str, where: float) -> None:
    _check(text[: int(len(text) * where)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXTS), st.lists(st.tuples(st.floats(0, 1), st.characters()), max_size=8))
def test_random_characters(text: str, edits: list[tuple[float, str]]) -> None:
    chars = list(text)
    for where, char in edits:
        if chars:
            chars[int(where * (len(chars) - 1))] = char
    _check("".join(chars))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXTS), st.sampled_from(TEXTS), st.integers(1, 7))
def test_interleaved_lines(a: str, b: str, every: int) -> None:
    lines_a, lines_b = a.splitlines(), b.splitlines()
    mixed = [
        line for k, pair in enumerate(zip(lines_a, lines_b, strict=False)) for line in pair[: 1 + (k % every == 0)]
    ]
    _check("\n".join(mixed))


def test_a_vmstat_header_without_its_wa_column_is_said_not_read() -> None:
    """A damaged header that still begins as vmstat's does (the property above found a ``wa`` changed to ``w0``)."""
    text = next(t for t in TEXTS if " wa " in t and t.lstrip().startswith("procs"))
    reading = read_text(text.replace(" wa ", " w0 ", 1), "damaged")
    assert not reading.host and any("no wa column" in line for line in reading.missing), reading.missing


@given(st.binary(max_size=2000))
def test_any_bytes(data: bytes) -> None:
    reading = read_bytes(data, "random")
    assert isinstance(reading.missing, list)


def test_a_report_cut_in_a_row_is_left_out_not_half_read() -> None:
    text = (scenario("saturation") / "iostat-x-t.txt").read_text()
    whole = read_text(text, "whole").devices[device("saturation")]
    cut = text[: text.rindex(device("saturation")) + len(device("saturation")) + 20]
    reading = read_text(cut, "cut")
    assert len(reading.devices[device("saturation")]) == len(whole) - 1
    assert any("fields where the header has" in m for m in reading.missing)


def test_decimal_commas_throughout_read_as_points_but_mixed_are_refused() -> None:
    text = (scenario("saturation") / "iostat-x-t.txt").read_text()
    dev = device("saturation")
    points = read_text(text, "C").devices[dev]
    lines = text.splitlines()
    comma = "\n".join(line.replace(".", ",") if line.startswith(dev) else line for line in lines)
    assert [s.values for s in read_text(comma, "de_DE").devices[dev]] == [s.values for s in points]
    first = next(k for k, line in enumerate(lines) if line.startswith(dev))
    lines[first] = lines[first].replace(".", ",", 3)
    mixed = read_text("\n".join(lines), "mixed")
    assert any("mixed decimal separators" in m for m in mixed.missing)
    assert len(mixed.devices[dev]) == len(points) - 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["diagnose"], "nothing to read"),
        (["diagnose", "/nonexistent/iostat.txt"], "not a file"),
        (["diagnose", "--seconds", "5", "x"], "--seconds goes with --probe"),
        (["diagnose", "--seconds", "10", "x"], "--seconds goes with --probe"),
        (["diagnose", "--probe", "--seconds", "0"], "expected whole seconds"),
        (["diagnose", "--root", "/nonexistent/sosreport"], "no such directory"),
        (
            ["diagnose", "--root", str(Path(__file__).parents[1] / "observe/captures/sos-rhel8-kvm-lvm")],
            "sos-rhel8-kvm-lvm holds nothing to diagnose",
        ),  # a capture of configuration only: it says which
    ],
)
def test_bad_usage_is_one_line_and_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "Traceback" not in err


def test_unreadable_input_is_one_line_and_exit_2(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("the disk is slow since Tuesday\n")
    assert main(["diagnose", str(junk)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a format iosched reads" in err[0]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(TEXTS), st.floats(0, 1), st.sampled_from(["text", "markdown", "json"]))
def test_the_command_on_a_damaged_file_answers_or_says_why_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str], text: str, where: float, fmt: str
) -> None:
    path = tmp_path_factory.mktemp("damaged") / "capture.txt"
    path.write_text(text[: int(len(text) * where)])
    code = main(["diagnose", str(path), "--format", fmt])
    out, err = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in err
    assert (code == 0 and out) or (code == 2 and len(err.strip().splitlines()) == 1)
