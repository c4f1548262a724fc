"""Every rule's examples run as tests, and every rule has examples of both outcomes."""

from __future__ import annotations

import pytest

from iosched.knowledge.context import facts_for_example
from iosched.knowledge.kbcache import load_checked

RULES = load_checked().section("rules")  # the compiled cache of the checked KB: no YAML read in each worker


@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{r.id}-{r.name}")
def test_examples_behave_as_stated(kb, rule) -> None:
    for example in rule.examples:
        fired = rule.when.evaluate(facts_for_example(kb, example.context))
        assert fired == (example.expect == "fires"), (rule.id, example.context)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_rule_has_fires_and_silent_examples(rule) -> None:
    assert {e.expect for e in rule.examples} == {"fires", "silent"}


def test_rule_ids_and_names_are_unique(kb) -> None:
    rules = kb.section("rules")
    assert len({r.id for r in rules}) == len({r.name for r in rules}) == len(rules)
