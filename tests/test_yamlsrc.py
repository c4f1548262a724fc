"""The bounded YAML reader: the same data as PyYAML for sane documents, one clear error for hostile ones."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from iosched.yamlsrc import MAX_DEPTH, YamlError, parse, read

SCALARS = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=12)
DATA = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)


def _depth(data: object) -> int:
    if isinstance(data, dict):
        return 1 + max(map(_depth, data.values()), default=0)
    if isinstance(data, list):
        return 1 + max(map(_depth, data), default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(DATA, st.booleans())
def test_documents_read_as_pyyaml_reads_them(data: object, flow: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    assert parse(text).data == yaml.safe_load(text)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3 * MAX_DEPTH), st.sampled_from(["flow", "block", "mapping"]))
def test_nesting_is_bounded_whatever_its_style(depth: int, style: str) -> None:
    text = {
        "flow": "[" * depth + "1" + "]" * depth,
        "block": "- " * depth + "1",
        "mapping": "".join(f"{'  ' * i}k{i}:\n" for i in range(depth - 1)) + f"{'  ' * (depth - 1)}k: 1",
    }[style]
    if depth <= MAX_DEPTH:
        data = parse(text).data
        assert _depth(data) == depth
    else:
        with pytest.raises(YamlError, match="nested deeper"):
            parse(text)


def test_hostile_values_are_yaml_errors() -> None:
    with pytest.raises(YamlError, match="4300 digits"):
        parse("a: 1" + "0" * 5000)
    with pytest.raises(YamlError, match="aliases"):
        parse("a: &x [1]\nb: *x\n")
    with pytest.raises(YamlError, match="one document"):
        parse("a: 1\n---\nb: 2\n")


def _advise(*argv: str) -> subprocess.CompletedProcess:
    """In a process of its own: the interpreter crashing (a segfault) fails the test instead of ending it."""
    return subprocess.run([sys.executable, "-m", "iosched", "advise", *argv], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip


HOSTILE = {
    "deep-flow.yaml": lambda: "[" * 30_000,
    "deep-block.yaml": lambda: "- " * 30_000 + "x",
    "deep.json": lambda: '{"a": ' * 30_000,
    "big-int.yaml": lambda: "hw: 1" + "0" * 5000,
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_context_file_is_one_line_and_exit_2(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE[name]())
    done = _advise("--context", str(path))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("iosched: error: context file") and done.stderr.count("\n") == 1


def test_a_deep_kb_layer_is_reported_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text("rules: " + "[" * 30_000)
    done = _advise("--hw", "ssd", "--kb", str(tmp_path))
    assert done.returncode == 1 and "nested deeper" in done.stderr


def test_a_fifo_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "context.yaml"
    os.mkfifo(fifo)
    with pytest.raises(YamlError, match="not a regular file"):
        read(fifo)  # opened without blocking: no writer is needed to get here
    done = _advise("--context", str(fifo))
    assert done.returncode == 2 and "not a regular file" in done.stderr


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.text() | st.integers() | st.booleans(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12))  # fmt: skip
def test_json_in_ascii_reads_back_whatever_it_holds(value: object) -> None:
    """``json.dumps`` writes a character beyond U+FFFF as a surrogate-pair escape, which YAML has not got."""
    import json

    assert parse(json.dumps({"v": value}, ensure_ascii=True)).data == {"v": value}


JSON_FLOATS = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e-05, 1.5e20, -0.0, 1e16])
YAML_OWN = ["\x85", "\u2028", "\u2029", "\ufeff", "\x7f", "\x9f", "\t"]
"""Characters YAML does not read as JSON does: its line breaks, a byte order mark, ones its reader refuses."""
JSON_TEXT = st.text() | st.lists(st.sampled_from(YAML_OWN) | st.text(max_size=2), max_size=4).map("".join)
JSON_SCALARS = st.none() | st.booleans() | st.integers() | JSON_TEXT | JSON_FLOATS
JSON_DATA = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSON_DATA, st.booleans())
def test_a_json_document_reads_as_yaml_reads_it(value: object, spaced: bool) -> None:
    """JSON is read by the JSON decoder where YAML would read the same data, else by YAML: the data, or the error,
    is YAML's either way. ``--- `` in front makes the text YAML's alone (numbers YAML reads as strings, such as
    ``1e-05``, characters its reader refuses, such as DEL)."""
    import json

    text = json.dumps({"v": value}, ensure_ascii=False, indent=1 if spaced else None)
    try:
        expected: object = parse("--- " + text).data
    except YamlError as exc:
        expected = str(exc)
    try:
        found: object = parse(text).data
    except YamlError as exc:
        found = str(exc)
    assert found == expected


def test_a_probe_document_is_read_by_the_json_decoder(capsys: pytest.CaptureFixture[str]) -> None:
    """What the JSON path is for: ``iosched probe`` documents, one per host in a fleet, read some fifty times
    faster than through YAML's events; the same data."""
    from iosched.cli import main

    capture = Path(__file__).parent / "observe" / "captures" / "sos-rhel7-physical-hdd"
    assert main(["probe", "--root", str(capture), "--format", "json"]) == 0
    text = capsys.readouterr().out
    document, through_yaml = parse(text), parse("--- " + text)
    assert document.json == text and not through_yaml.json  # decoded as JSON, with no YAML node made
    assert document.data == through_yaml.data
    for loc in (["devices"], ["devices", 2, "name"], ["host", "kernel"]):  # lines, once asked for, are YAML's
        assert document.line_of(loc) == through_yaml.line_of(loc) > 1
