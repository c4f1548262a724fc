"""Structs are dataclass-like to a type checker: mypy checks every constructor call against the fields, and at
run time a Struct takes its fields by name unless it declares ``kw_only=False``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from iosched.diagnostics import Diagnostic
from iosched.records.plan import Step

ENGINE = Path(__file__).resolve().parents[1] / "engine"
STEP = 'Step(kind="sysctl", target="vm.dirty_ratio", value="10", title="t", because=(), reasons=(), sources=())'


def _mypy(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """mypy --strict on a module that imports the package (from this checkout, with no project configuration)."""
    module = tmp_path / "snippet.py"
    module.write_text(
        f"from iosched.diagnostics import Diagnostic\nfrom iosched.records.plan import Step\n\n{body}\n",
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
         "--cache-dir", str(tmp_path / "cache"), str(module)],
        cwd=tmp_path, env={"MYPYPATH": str(ENGINE), "PATH": ""}, capture_output=True, text=True,
    )  # fmt: skip


def test_mypy_accepts_a_well_formed_step_and_a_positional_row(tmp_path: Path) -> None:
    done = _mypy(tmp_path, f'step = {STEP}\nrow = Diagnostic("KB001", "a.yaml", 1, "a problem")\nkind: str = step.kind')
    assert done.returncode == 0, done.stdout


def test_mypy_rejects_an_unknown_kind_a_misspelt_field_and_a_missing_one(tmp_path: Path) -> None:
    body = (
        f"{STEP.replace('sysctl', 'not-a-kind')}\n"
        f"{STEP.replace('value=', 'valu=')}\n"
        f"{STEP.replace('title=', 'x=')}\n"
        'Step("sysctl")\n'
        f"{STEP}.value = '20'\n"
    )
    done = _mypy(tmp_path, body)
    assert done.returncode == 1, done.stdout
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    found = {int(line.split(":")[1]) for line in errors}
    assert found == {4, 5, 6, 7, 8}, done.stdout
    for said in ("'not-a-kind'", '"valu"', '"title"', '"value" defined in "Step" is read-only'):
        assert said in done.stdout


def test_fields_are_taken_by_name_unless_the_class_says_otherwise() -> None:
    with pytest.raises(TypeError, match="takes its fields by name"):
        Step("sysctl")  # type: ignore[call-arg]
    row = Diagnostic("KB001", "a.yaml", 1, "a problem")
    assert row == Diagnostic(code="KB001", file="a.yaml", line=1, message="a problem")
    with pytest.raises(TypeError, match="5 positional values"):
        Diagnostic("KB001", "a.yaml", 1, "a problem", "a fifth")  # type: ignore[call-arg]


def test_a_comparison_keeps_its_operation_and_is_replaced_by_its_fields_alone() -> None:
    """``Compare.operation`` is computed once and kept on the instance; ``replace`` gives a record of the
    fields alone (what it kept would be an unknown field), and equality and the KB cache see only fields."""
    from iosched.knowledge.kbcompile import to_plain
    from iosched.knowledge.rules import Compare

    compare = Compare(fact="kernel", gte="5.0")
    assert compare.operation == ("gte", "5.0") and compare.evaluate({"kernel": "5.4.0-100-generic"})
    moved = compare.replace(gte="6.0")
    assert moved == Compare(fact="kernel", gte="6.0") and moved.operation == ("gte", "6.0")
    assert not moved.evaluate({"kernel": "5.4.0-100-generic"})
    assert compare.replace(fact="distro") == Compare(fact="distro", gte="5.0")
    assert "operation" not in to_plain(compare) and compare == Compare(fact="kernel", gte="5.0")
