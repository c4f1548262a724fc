"""The cache's index names the rules a plan may fire (each rule's guard) and the caveats it may show (each
caveat's scope and related ids), so a plan rebuilds only those; the answers are the full scan's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from cache_files import put_together, take_apart
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_strategies import KB, KERNELS, contexts
from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError, facts_for_example, resolve
from iosched.knowledge.facts import FACTS
from iosched.knowledge.kbcache import IndexQueries, from_plain
from iosched.knowledge.kbcompile import dumps
from iosched.planning.engine import _scoped_caveats, holds, plan_resolved
from iosched.render import plan_json

TEXT = dumps(KB)
COMPILED = from_plain(TEXT)
RULES = KB.section("rules")


def _changed(change: Callable[[dict[str, Any]], object]) -> str:
    """The cache file with its rules' and caveats' parts changed."""
    index, parts, sections = take_apart(TEXT)
    change(parts)
    return put_together(index, parts, sections, measure=True)


def _operands() -> dict[str, list[Any]]:
    """Every operand the KB's rules compare each fact with."""
    found: dict[str, list[Any]] = {}
    for rule in RULES:
        for c in rule.when.comparisons():
            _, operand = c.operation
            found.setdefault(c.fact, []).extend(operand if isinstance(operand, tuple) else [operand])
    return found


OPERANDS = _operands()


def _values(kind: str, known: list[Any]) -> st.SearchStrategy[Any]:
    """Values of a fact of ``kind``: the values rules compare it with, and others."""
    if kind == "bool":
        return st.booleans()
    if kind == "str":
        return st.sampled_from([*known, "other"]) if known else st.text(max_size=4)
    if kind == "number":
        return st.integers(-2, 100) | st.floats(allow_nan=False, allow_infinity=False)
    if kind == "version":
        return st.sampled_from([*KERNELS, *map(str, known)])
    assert kind == "set", kind
    return st.frozensets(st.sampled_from([*known, "other"]) if known else st.text(max_size=4), max_size=3)


VALUES = {
    name: _values(kind, [v for v in OPERANDS.get(name, []) if not isinstance(v, bool)])
    for name, (kind, _) in FACTS.items()
}
"""Each registered fact's strategy, made once (making them for every example was most of the tests' time)."""


@st.composite
def fact_mappings(draw: st.DrawFn) -> dict[str, Any]:
    """Facts as any context could give them: each registered fact absent, or a value of its type (the values
    rules compare with, and others)."""
    facts: dict[str, Any] = {}
    for name, values in VALUES.items():
        if draw(st.booleans()):
            facts[name] = draw(values)
    return facts


def _missed(queries: IndexQueries, facts: Mapping[str, Any]) -> list[str]:
    """The rules whose condition holds on ``facts`` but whose guard in the index says it cannot."""
    may = queries.rules_that_may_fire(facts)
    assert may is not None
    return [rule.id for rule in RULES if rule.when.evaluate(facts) and rule.id not in may]


def _example_facts() -> Iterator[dict[str, Any]]:
    for rule in RULES:
        for example in rule.examples:
            yield facts_for_example(KB, example.context)


def _queries(kb: Kb) -> IndexQueries:
    queries = kb._queries
    assert queries is not None
    return queries


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(facts=fact_mappings())
def test_a_rule_whose_guard_fails_does_not_fire(facts: dict[str, Any]) -> None:
    assert _missed(_queries(COMPILED), facts) == []
    assert COMPILED.rules_that_fire(facts) == KB.rules_that_fire(facts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctx=contexts())
def test_a_resolved_context_fires_the_rules_of_the_full_scan(ctx: Context) -> None:
    try:
        facts = resolve(KB, ctx).facts
    except ContextError:
        return
    assert COMPILED.rules_that_fire(facts) == [r for r in RULES if r.when.evaluate(facts)]


def test_the_guards_narrow_the_rules() -> None:
    """On the facts of the rules' own examples, most rules are never rebuilt."""
    tried = [_queries(COMPILED).rules_that_may_fire(facts) or [] for facts in _example_facts()]
    assert sum(map(len, tried)) < len(tried) * len(RULES) / 3


def test_a_wrong_guard_is_caught() -> None:
    """A guard that excludes where its rule fires: the check above finds the facts that show it."""
    rule = next(r for r in RULES if any(c.operation[0] == "eq" for c in r.when.comparisons()))

    def wrong(rules: list[Any]) -> None:
        terms = next(entry for entry in rules if entry[0] == rule.id)[2]
        term = next(t for t in terms if t[1] == "eq")
        term[2] = "no such value" if not isinstance(term[2], bool) else not term[2]

    broken = _queries(from_plain(_changed(lambda parts: wrong(parts["rules"]))))
    assert any(_missed(broken, facts) for facts in _example_facts())


DAMAGE: dict[str, Callable[[dict[str, Any]], object]] = {
    "rules-a-mapping": lambda index: index.update(rules={}),
    "rule-left-out": lambda index: index["rules"].pop(0),
    "rules-reordered": lambda index: index["rules"].reverse(),
    "guard-unknown-operator": lambda index: index["rules"][0][2].append(["hw", "like", "ssd"]),
    "guard-a-text": lambda index: index["rules"][0].__setitem__(2, "hw"),
    "guard-operand-a-mapping": lambda index: index["rules"][0][2].append(["hw", "eq", {}]),
    "guard-version-not-one": lambda index: index["rules"][0][2].append(["kernel", "gte", "x.y"]),
    "rule-name-a-number": lambda index: index["rules"][0].__setitem__(1, 5),
    "caveats-a-mapping": lambda index: index.update(caveats={}),
    "caveat-left-out": lambda index: index["caveats"].pop(),
    "caveat-related-not-text": lambda index: index["caveats"][0].__setitem__(2, [1]),
    "caveat-distributions-a-text": lambda index: index["caveats"][0].__setitem__(1, "rhel9"),
    "caveat-short": lambda index: index["caveats"][0].pop(),
    "elevators-a-mapping": lambda index: index.update(elevators={}),
    "elevator-left-out": lambda index: index["elevators"].pop(),
    "elevator-since-a-text": lambda index: index["elevators"][0].__setitem__(2, "4.12"),
    "elevator-until-of-texts": lambda index: index["elevators"][-1].__setitem__(3, ["5", "0"]),
    "elevator-aliases-a-text": lambda index: index["elevators"][0].__setitem__(4, "deadline"),
    "elevator-unknown": lambda index: index["elevators"][0].__setitem__(0, "anticipatory"),
    "elevator-twice": lambda index: index["elevators"].__setitem__(1, index["elevators"][0]),
    "parts-empty": lambda index: index.update(rules=None, caveats=None, elevators=None),
}


def _example_contexts() -> list[Context]:
    return [Context.from_mapping(example.context) for example in KB.section("examples")]


@pytest.mark.parametrize("name", DAMAGE)
def test_a_damaged_part_gives_way_to_the_section(name: str) -> None:
    text = _changed(DAMAGE[name])
    for ctx in _example_contexts():
        damaged = from_plain(text)
        r = resolve(damaged, ctx)
        assert plan_json.render(damaged, plan_resolved(damaged, r)) == plan_json.render(KB, plan_resolved(KB, r))
    damaged = from_plain(text)
    assert damaged.elevator_facts() == KB.elevator_facts()
    assert [damaged.get(rule.name) for rule in RULES] == list(RULES)
    assert damaged.get("no-such-rule") is None


def test_a_rule_name_rebuilds_only_that_rule() -> None:
    kb = from_plain(TEXT)
    rule = RULES[-1]
    assert kb.get(rule.name) == rule and kb.get("no-such-name") is None
    assert "rules" not in kb.sections._built  # type: ignore[attr-defined]


def _full_scan(kb: Kb, r: Any, steps: list[Any], scheduler: str | None) -> list[str]:
    """The caveats of a plan as found by reading every caveat."""
    device = {r.hardware.id, *([r.device_class.id] if r.device_class is not None else [])}
    involved = device | {scheduler, r.previous, *(s.target for s in steps), *(s.persist_method for s in steps)}
    return [c.id for c in kb.section("caveats") if holds(c, r)
            and (involved if c.scope is not None and c.scope.distributions else device) & set(c.related)]  # fmt: skip


def _planned() -> Iterator[Context]:
    yield from _example_contexts()
    for rule in RULES:
        for example in rule.examples:
            yield Context.from_mapping({k: v for k, v in example.context.items() if k != "measured.best"})
    for hw in KB.section("hardware"):
        for workload in KB.section("workloads"):
            for distro in (None, *[d.id for d in KB.section("distributions")][::4]):
                yield Context(hw=hw.id, workload=workload.id, distro=distro)
    for distro in ("sles15sp5", "sles15sp6", "sles15sp7"):  # caveats scoped to these releases and a class of disk
        for hw in ("san", "virtual"):
            yield Context(hw=hw, workload="db", distro=distro)


def test_the_caveats_of_a_plan_are_those_of_the_full_scan() -> None:
    assert _queries(COMPILED).caveat_scopes() is not None
    seen = set()
    for ctx in _planned():
        kb = from_plain(TEXT)
        try:
            r = resolve(kb, ctx)
        except ContextError:
            continue
        plan = plan_resolved(kb, r)
        steps, scheduler = list(plan.steps), plan.scheduler or r.previous
        scoped = _scoped_caveats(kb, r, steps, scheduler)
        assert scoped == _full_scan(KB, r, steps, scheduler), ctx
        seen.update(scoped)
    assert len(seen) >= 8  # scoped caveats that flags can reach (elevator= and device-class ones need a host)


def test_the_elevators_a_device_is_offered_are_those_of_the_full_scan() -> None:
    """What a device on each path is offered, on every kernel the KB names, with no elevator rebuilt."""
    kb = from_plain(TEXT)
    assert kb.elevator_facts() == KB.elevator_facts()
    kernels = {v for e in KB.section("elevators") for v in (e.since, e.until) if v is not None}
    for kernel in sorted(kernels | {KernelVersion.parse(k) for k in KERNELS}):
        for path in ("legacy", "blk-mq", "bio"):
            scan = [e.name for e in KB.section("elevators") if e.io_path == path and e.holds_on(kernel)]
            assert kb.offered_on(kernel, path) == scan
    assert kb.elevator("mq-deadline") == KB.elevators["mq-deadline"]
    assert "elevators" not in kb.sections._built  # type: ignore[attr-defined]
