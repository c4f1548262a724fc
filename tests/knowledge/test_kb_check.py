"""`iosched kb check`: the bundled KB is clean; each diagnostic code has a mini-KB that triggers it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.diagnostics import CODES
from iosched.knowledge.kbload import load

INVALID = Path(__file__).parent / "invalid"
CASES = sorted(p for p in INVALID.iterdir() if p.is_dir())
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<code>KB\d{3}) \S")


def test_every_code_has_a_failing_mini_kb() -> None:
    assert {p.name for p in CASES} == set(CODES)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_mini_kb_reports_exactly_its_code(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, diagnostics = load([case])
    assert [d.code for d in diagnostics] == [case.name]
    assert main(["kb", "check", str(case)]) == 1
    out = capsys.readouterr().out.splitlines()
    match = LINE.match(out[0])
    assert match and match["code"] == case.name and int(match["line"]) >= 0
    assert Path(match["file"]).name == "kb.yaml"


def test_bundled_kb_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kb", "check"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("ok")


def test_layer_overrides_and_adds(tmp_path: Path, kb) -> None:
    from iosched.kbfiles import bundled_kb

    source = kb.section("sources")[0]
    (tmp_path / "site.yaml").write_text(
        "caveats:\n"
        "  - {id: site-array-x, title: Our array, risk: performance, text: Leave it on none., related: [san], "
        f"subject: {{fact: hw, eq: san}}, sources: [{source.id}]}}\n"
    )
    layered, diagnostics = load([bundled_kb(), tmp_path])
    assert diagnostics == []
    assert layered.get("site-array-x").title == "Our array"
    assert len(layered.section("caveats")) == len(kb.section("caveats")) + 1
    from iosched.knowledge.context import Context
    from iosched.planning.engine import advise

    plan = advise(layered, Context(hw="san", workload="db", kernel="6.8", device="dm-0"))
    assert "site-array-x" in {w.id for w in plan.warnings}


def test_missing_directory_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kb", "check", "/nonexistent/kb"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_every_code_the_engine_emits_is_registered() -> None:
    import re

    from iosched.diagnostics import CODES

    engine = Path(__file__).resolve().parents[2] / "engine" / "iosched"
    used = {code for path in engine.rglob("*.py") for code in re.findall(r'"(KB\d{3})"', path.read_text())}
    assert used and used <= set(CODES)


def test_checking_a_kb_does_not_import_the_engine() -> None:
    """The KB sits below the engine: loading and checking it (rules, actions, examples) plans nothing."""
    probe = (
        "import sys\n"
        "from iosched.knowledge.kbload import load\n"
        "from iosched.kbfiles import bundled_kb\n"
        "kb, found = load([bundled_kb()])\n"
        "assert kb.section('rules') and kb.section('examples') and not found, found\n"
        "print(sorted(m for m in sys.modules if m in ('iosched.planning.engine', 'iosched.steps', "
        "'iosched.persist')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]"]
