"""Every vocabulary is declared once: no module spells a closed set of words that vocab.py or kinds.py owns (in a
collection, a ``Literal`` type or the keys of a dict), every step-kind name has its class, and every kind of
entity has a renderer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from iosched import vocab
from iosched.knowledge.kinds import KINDS
from iosched.render.reference import RENDERERS
from iosched.steps import STEP_KINDS

ENGINE = Path(__file__).resolve().parents[1] / "engine" / "iosched"
SETS = {
    name: set(words)
    for name, words in vars(vocab).items()
    if name.isupper() and isinstance(words, tuple) and all(isinstance(w, str) for w in words)
}
"""Every closed vocabulary vocab.py declares (GOALS, SEVERITIES, OPERATORS, STEP_KIND_NAMES ...)."""


def _strings(nodes: list[ast.expr]) -> set[str] | None:
    """The strings of a group of two or more literals when every one is a string."""
    words = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return set(words) if len(nodes) >= 2 and len(words) == len(nodes) else None


def _word_groups(source: str):
    """Every group of two or more string literals that could spell a vocabulary, with its line: tuple, list and
    set literals (``Literal[...]`` and ``x in (...)`` included), and the keys of dict literals."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            words = _strings(list(node.elts))
        elif isinstance(node, ast.Dict):
            words = _strings([k for k in node.keys if k is not None])  # None: a **spread
        else:
            continue
        if words is not None:
            yield node.lineno, words


def _spelled(words: set[str]) -> list[str]:
    """The vocabularies that a group of words spells (part of) again."""
    return [name for name, members in SETS.items() if len(words & members) >= 2 and words <= members | {"none"}]


def test_the_vocabularies_are_found() -> None:
    assert {"GOALS", "SEVERITIES", "RISKS", "OPERATORS", "STEP_KIND_NAMES"} <= SETS.keys()


def test_the_check_sees_dict_keys_and_literal_types() -> None:
    source = (
        'A = {"warn": 0, "recommend": 1}\n'
        'B = Literal["eq", "ne"]\n'
        'C = x in ("mount-option", "boot-parameter")\n'
        'D = {"warn": 0, "consider": 2, **other}\n'
        'E = ("warn", "elsewhere")\n'
    )
    found = {line: _spelled(words) for line, words in _word_groups(source)}
    assert found == {1: ["SEVERITIES"], 2: ["OPERATORS"], 3: ["STEP_KIND_NAMES"], 4: ["SEVERITIES"], 5: []}


@pytest.mark.parametrize("path", sorted(p for p in ENGINE.rglob("*.py") if p.name != "vocab.py"), ids=str)
def test_no_module_spells_a_vocabulary_again(path: Path) -> None:
    for line, words in _word_groups(path.read_text(encoding="utf-8")):
        spelled = _spelled(words)
        assert not spelled, f"{path.name}:{line} spells {sorted(words)}: import vocab.{spelled[0]}"


def test_every_step_kind_name_has_one_step_class() -> None:
    assert set(STEP_KINDS) == set(vocab.STEP_KIND_NAMES)


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


@pytest.mark.parametrize(
    ("table", "words"),
    [("SEVERITY_RANK", "SEVERITIES"), ("OPERATOR_SYMBOLS", "OPERATORS"), ("GOAL_METRICS", "GOALS"),
     ("GOAL_BASIS", "GOALS")],
)  # fmt: skip
def test_every_table_of_a_vocabulary_covers_it(table: str, words: str) -> None:
    assert set(getattr(vocab, table)) == set(getattr(vocab, words))
