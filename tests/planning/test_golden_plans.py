"""Golden plans in all four formats for the built-in examples (rewrite with --update-goldens)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine_strategies import KB
from iosched.cli import terminal_text
from iosched.knowledge.context import Context
from iosched.planning.engine import advise
from iosched.render import plan_json, plan_markdown, plan_shell

GOLDEN = Path(__file__).resolve().parents[1] / "plans"
RENDERERS = {
    "md": plan_markdown.render,
    "json": plan_json.render,
    "sh": plan_shell.render,
    "txt": lambda kb, plan: terminal_text(plan_markdown.render(kb, plan)),
}


def _normalise(text: str, kb) -> str:
    from iosched import __version__

    return text.replace(kb.version, "KBVERSION").replace(__version__, "VERSION")


@pytest.mark.parametrize("name", [e.id for e in KB.section("examples")])
@pytest.mark.parametrize("fmt", sorted(RENDERERS))
def test_golden_plan(kb, name: str, fmt: str, update_goldens: bool) -> None:
    ctx = Context.from_mapping(kb.get(name).context)
    rendered = _normalise(RENDERERS[fmt](kb, advise(kb, ctx)), kb)
    golden = GOLDEN / name / f"expected.{fmt}"
    if update_goldens:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(rendered)
    assert golden.is_file(), f"missing {golden}; run pytest --update-goldens"
    assert rendered == golden.read_text()
