"""A cause's evidence lists only facts that hold for it: of the facts its condition compares, those on a path of
the condition that holds (a branch of an ``any`` that failed shows nothing), on every fixture and every example."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from diagnose_helpers import DEVICE_FORMATS, FIXTURES, PUBLIC, SCENARIOS, inputs, scenario

from iosched.cli.commands.diagnose import device_knowledge
from iosched.knowledge.rules import All, AnyOf, Compare, Not
from iosched.observe.reader import open_source
from iosched.symptoms.detect import read_bytes
from iosched.symptoms.diagnosis import diagnose
from iosched.symptoms.observations import observe


def _supporting(condition: Any, facts: Mapping[str, Any], want: bool = True) -> set[str]:
    """Facts of the comparisons whose outcome, through every enclosing node's outcome, gives the condition
    ``want``: a reference walk with polarity, written apart from the engine's."""
    if condition.evaluate(facts) != want:
        return set()
    if isinstance(condition, Compare):
        return {condition.fact}
    if isinstance(condition, Not):
        return _supporting(condition.not_, facts, not want)
    assert isinstance(condition, All | AnyOf)
    return set().union(*(_supporting(part, facts, want) for part in condition.parts()))


def _assert_holds(cause: Any, facts: Mapping[str, Any], shown: tuple[str, ...], where: str) -> None:
    compared = {c.fact for c in cause.when.comparisons()}
    support = _supporting(cause.when, facts)
    for fact in shown:
        assert fact in facts, (where, cause.id, fact)
        assert fact not in compared or fact in support, (where, cause.id, fact, facts[fact])


def _fixture_inputs() -> Iterator[tuple[str, list[Path], Path | None]]:
    for name in SCENARIOS:
        for fmt in DEVICE_FORMATS:
            yield f"{name}/{fmt}", inputs(name, fmt), scenario(name) / "root"
    for path in sorted(PUBLIC.iterdir()):
        yield path.name, [path], None
    for heldout in sorted((FIXTURES / "heldout").glob("*/")):
        yield heldout.name, sorted(p for p in heldout.iterdir() if p.is_file() and p.suffix != ".md"), heldout / "root"


@pytest.mark.parametrize(
    ("where", "paths", "root"), list(_fixture_inputs()), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_finding_on_every_fixture_shows_only_facts_that_hold(kb, where: str, paths: list[Path],
                                                                   root: Path | None) -> None:  # fmt: skip
    found = [read_bytes(p.read_bytes(), str(p)) for p in paths]
    src = open_source(root) if root is not None and root.is_dir() else None
    facts, parents, slaves, ratio = device_knowledge(src)
    if src is not None:
        from iosched.symptoms.gather import from_source

        found += list(from_source(src))
    for d in diagnose(kb, observe(found, parents, slaves), facts, ratio):
        for finding in d.findings:
            shown = tuple(e.fact for e in finding.evidence)
            _assert_holds(finding.cause, finding.judged, shown, f"{where}:{d.device}")
            assert all(
                e.value == round(finding.judged[e.fact], 2) for e in finding.evidence if isinstance(e.value, float)
            )


def test_every_cause_shows_only_facts_that_hold_on_its_examples(kb) -> None:
    for cause in kb.section("causes"):
        for example in cause.examples:
            if example.expect == "fires":
                _assert_holds(cause, example.facts, cause.shown(example.facts), f"{cause.id} example")


def test_a_branch_that_failed_shows_nothing(kb) -> None:
    """IOD002 named from reads that complete slowly: the starved-read branch failed, so its share (0) is not shown."""
    cause = kb.get("IOD002")
    facts = {"obs.active.intervals": 30, "obs.write_share": 99.5, "obs.active.queue.median": 63, "obs.r_s.median": 200,
             "obs.r_await.median": 4.6, "obs.r_starved_share": 0.0, "obs.r_await.weighted": 4.6}  # fmt: skip
    assert cause.when.evaluate(facts)
    shown = cause.shown(facts)
    assert "obs.r_starved_share" not in shown and "obs.r_await.weighted" not in shown
    assert {"obs.write_share", "obs.r_await.median", "obs.r_s.median"} <= set(shown)
