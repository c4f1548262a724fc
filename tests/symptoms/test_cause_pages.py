"""The KB's causes: stable ids, `explain`, checked examples (their pages: tests/sitegen/test_site_pages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from iosched.cli import main
from iosched.knowledge.kbload import load


@pytest.mark.parametrize("ident", ["IOD001", "IOD004", "IOD010"])
def test_explain_names_the_condition(ident: str, kb, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", ident]) == 0
    out = capsys.readouterr().out
    assert kb.get(ident).when.describe() in out


def test_a_cause_whose_example_disagrees_fails_kb_check(tmp_path: Path, kb) -> None:
    """Causes are data: an example the condition contradicts is a KB error (KB109), not a silent miss."""
    bundled = Path(__file__).parents[2] / "kb"
    text = (bundled / "rules" / "diagnosis.yaml").read_text()
    example = "{obs.active.intervals: 3, obs.active.busy_share: 100, obs.active.queue.median: 54}, expect: "
    broken = text.replace(example + "silent", example + "fires")
    assert broken != text
    (tmp_path / "diagnosis.yaml").write_text(broken)
    (tmp_path / "sources.yaml").write_text((bundled / "sources" / "diagnosis.yaml").read_text())
    _, diagnostics = load([bundled, tmp_path])
    assert [(d.code, "IOD004" in d.message or d.line > 0) for d in diagnostics] == [("KB109", True)]
