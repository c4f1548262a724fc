"""Every vocabulary is declared once: no module spells a closed set of words that vocab.py or kinds.py owns,
and every kind of entity has a renderer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from iosched import vocab
from iosched.kinds import KINDS
from iosched.render.reference import RENDERERS

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "iosched"
SETS = {name: set(getattr(vocab, name)) for name in ("GOALS", "CACHES", "IO_PATHS", "RISKS", "SEVERITIES")}


def _literal_sets(path: Path):
    """Every tuple, list or set literal of two or more strings in a module, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) >= 2:
            words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(words) == len(node.elts):
                yield node.lineno, set(words)


@pytest.mark.parametrize("path", sorted(p for p in ENGINE.rglob("*.py") if p.name != "vocab.py"), ids=str)
def test_no_module_spells_a_vocabulary_again(path: Path) -> None:
    for line, words in _literal_sets(path):
        for name, members in SETS.items():
            assert not (len(words & members) >= 2 and words <= members | {"none"}), (
                f"{path.name}:{line} spells {sorted(words)}: import vocab.{name}"
            )


def test_every_kind_has_a_renderer_and_a_unique_slug_and_section() -> None:
    assert {k.slug for k in KINDS} == set(RENDERERS)
    sections = [k.section for k in KINDS if k.section]
    assert len(sections) == len(set(sections))


def test_kind_names_are_spelled_only_in_kinds() -> None:
    spellings = {k.name for k in KINDS} | {k.title for k in KINDS} | {k.slug for k in KINDS if "-" in k.slug}
    for path in ENGINE.rglob("*.py"):
        if path.name == "kinds.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                assert len(keys & spellings) < 2, f"{path.name}:{node.lineno} keys a table by kind names again"


def test_the_unseen_characters_are_spelled_only_in_grammar() -> None:
    """KB prose, renderers and readers of untrusted files refuse or replace one set of characters."""
    spelled = [p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py") if "200b" in p.read_text().lower()]
    assert spelled == ["grammar.py"]
