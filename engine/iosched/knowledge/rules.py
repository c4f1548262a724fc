"""The closed condition language of rules, their actions and examples.

A condition is ``all``/``any``/``not`` over comparisons of registered facts; there are no expressions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property

from iosched.grammar import TEXT, Constrain, link_problem
from iosched.hints import Annotated, Literal
from iosched.knowledge.facts import FACTS, compare
from iosched.struct import Invalid, OneOfKeys, Struct
from iosched.vocab import NEGATIONS, OPERATOR_SYMBOLS, OPERATORS, Operator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

Scalar = bool | int | float | str


class Compare(Struct):
    """``{fact: NAME, OP: VALUE}`` with exactly one operator."""

    __aliases__: ClassVar[dict[str, str]] = {"in_": "in"}
    compound: ClassVar[bool] = False
    fact: str
    eq: Scalar | None = None
    ne: Scalar | None = None
    in_: tuple[Scalar, ...] | None = None
    not_in: tuple[Scalar, ...] | None = None
    gt: Scalar | None = None
    gte: Scalar | None = None
    lt: Scalar | None = None
    lte: Scalar | None = None
    exists: bool | None = None

    def check(self) -> None:
        if len(self.operators()) != 1:
            raise Invalid(f"a comparison needs exactly one of {', '.join(OPERATORS)}")

    def operators(self) -> list[tuple[Operator, Any]]:
        return [(op, v) for op in OPERATORS if (v := getattr(self, "in_" if op == "in" else op)) is not None]

    @cached_property
    def operation(self) -> tuple[Operator, Any]:
        """The one operator and its operand (validation checks that there is exactly one)."""
        ((op, expected),) = self.operators()
        return op, expected

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return compares(facts, self.fact, *self.operation)

    def comparisons(self) -> Iterator[Compare]:
        yield self

    def holding(self, facts: Mapping[str, Any]) -> Iterator[Compare]:
        if self.evaluate(facts):
            yield self

    def describe(self) -> str:
        op, expected = self.operation
        if isinstance(expected, tuple):
            shown = f"[{', '.join(map(str, expected))}]"
        else:
            shown = str(expected).lower() if isinstance(expected, bool) else str(expected)
        return f"{self.fact} {OPERATOR_SYMBOLS[op]} {shown}"


def compares(facts: Mapping[str, Any], fact: str, op: str, expected: Any) -> bool:
    """Whether ``facts`` meet the comparison ``fact op expected`` (a fact that is absent meets only a negation
    and ``exists: false``)."""
    value = facts.get(fact)
    if op == "exists":
        return (value is not None) is expected
    if value is None:
        return op in NEGATIONS
    return compare(fact, op, value, expected)


def _paren(condition: Condition) -> str:
    text = condition.describe()
    return f"({text})" if condition.compound else text


class _Compound(Struct):
    """``all`` / ``any`` over sub-conditions."""

    compound: ClassVar[bool] = True
    joiner: ClassVar[str] = ""

    def parts(self) -> tuple[Condition, ...]:
        raise NotImplementedError

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        raise NotImplementedError

    def comparisons(self) -> Iterator[Compare]:
        for c in self.parts():
            yield from c.comparisons()

    def holding(self, facts: Mapping[str, Any]) -> Iterator[Compare]:
        """The comparisons that make this condition hold on ``facts``: of every part that holds, those that make it
        hold (an ``any`` names each branch that holds, none that fails); nothing when the condition fails."""
        if self.evaluate(facts):
            for c in self.parts():
                yield from c.holding(facts)

    def describe(self) -> str:
        return f" {self.joiner} ".join(_paren(c) for c in self.parts())


class All(_Compound):
    joiner: ClassVar[str] = "and"
    all: tuple[Condition, ...]

    def parts(self) -> tuple[Condition, ...]:
        return self.all

    def check(self) -> None:
        if not self.all:
            raise Invalid("all needs at least one condition")

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return all(c.evaluate(facts) for c in self.all)


class AnyOf(_Compound):
    joiner: ClassVar[str] = "or"
    any: tuple[Condition, ...]

    def parts(self) -> tuple[Condition, ...]:
        return self.any

    def check(self) -> None:
        if not self.any:
            raise Invalid("any needs at least one condition")

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return any(c.evaluate(facts) for c in self.any)


class Not(Struct):
    __aliases__: ClassVar[dict[str, str]] = {"not_": "not"}
    compound: ClassVar[bool] = False
    not_: Condition

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return not self.not_.evaluate(facts)

    def comparisons(self) -> Iterator[Compare]:
        yield from self.not_.comparisons()

    def holding(self, facts: Mapping[str, Any]) -> Iterator[Compare]:
        """The negated comparisons that fail on facts that are there (``hw.rotational`` false under ``not rotational``);
        an absent fact proves nothing to show."""
        if self.evaluate(facts):
            yield from (c for c in self.not_.comparisons() if c.fact in facts and not c.evaluate(facts))

    def describe(self) -> str:
        return f"not {_paren(self.not_)}"


Condition = Annotated[All | AnyOf | Not | Compare, OneOfKeys(all=All, any=AnyOf, **{"not": Not}, fact=Compare)]


class Action(Struct):
    """Set one thing: ``scheduler``, a tunable, a queue attribute, a sysctl, a boot parameter or mount option.

    The value is a constant (``to``) or the value of a registered fact (``to_fact``, e.g. ``measured.best``).
    """

    set: str
    to: Scalar | None = None
    to_fact: str | None = None
    only: Literal["raise", "lower"] | None = None
    """Apply only where the value moves the setting this way from what the device has (read, else the default
    of its kernel and distribution): a rule that raises read-ahead never lowers it where the default is larger."""
    note: Annotated[str, Constrain(TEXT, strip=True, check=link_problem)] | None = None
    """Prose shown beside the action (the rule's page): KB prose, as :data:`iosched.knowledge.schema.Text`."""

    def check(self) -> None:
        if (self.to is None) == (self.to_fact is None):
            raise Invalid("an action needs exactly one of to, to_fact")

    def value(self, facts: Mapping[str, Any]) -> Any:
        return facts.get(self.to_fact) if self.to_fact else self.to


class RuleExample(Struct):
    """A context and what the rule does on it; examples run as tests and ``kb check`` verifies them."""

    context: dict[str, Scalar]
    expect: Literal["fires", "silent"]


def guard(condition: Condition) -> Iterator[Compare]:
    """Comparisons that hold wherever ``condition`` holds: the condition itself when it is one, those an ``all``
    joins at its top (none of an ``any`` or a ``not``): a rule whose guard fails on some facts cannot fire there."""
    if isinstance(condition, Compare):
        yield condition
    elif isinstance(condition, All):
        for part in condition.all:
            yield from guard(part)


def unknown_facts(condition: Condition, actions: tuple[Action, ...] = ()) -> list[str]:
    used = {c.fact for c in condition.comparisons()} | {a.to_fact for a in actions if a.to_fact}
    return sorted(f for f in used if f not in FACTS)
