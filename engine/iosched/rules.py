"""The closed condition language of rules, their actions and examples.

A condition is ``all``/``any``/``not`` over comparisons of registered facts; there are no expressions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    Tag,
    model_validator,
)

from iosched.facts import FACTS, compare

Scalar = StrictBool | StrictInt | StrictFloat | StrictStr
OPERATORS = ("eq", "ne", "in", "not_in", "gt", "gte", "lt", "lte", "exists")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, populate_by_name=True)


class Compare(_Model):
    fact: StrictStr
    eq: Scalar | None = None
    ne: Scalar | None = None
    in_: tuple[Scalar, ...] | None = Field(None, alias="in")
    not_in: tuple[Scalar, ...] | None = None
    gt: Scalar | None = None
    gte: Scalar | None = None
    lt: Scalar | None = None
    lte: Scalar | None = None
    exists: StrictBool | None = None

    @model_validator(mode="after")
    def _one_operator(self) -> Self:
        if len(self.operators()) != 1:
            raise ValueError(f"a comparison needs exactly one of {', '.join(OPERATORS)}")
        return self

    def operators(self) -> list[tuple[str, Any]]:
        return [(op, v) for op in OPERATORS if (v := getattr(self, "in_" if op == "in" else op)) is not None]

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        ((op, expected),) = self.operators()
        value = facts.get(self.fact)
        if op == "exists":
            return (value is not None) is expected
        if value is None:
            return op in ("ne", "not_in")
        return compare(self.fact, op, value, expected)

    def facts(self) -> Iterator[Compare]:
        yield self

    def describe(self) -> str:
        ((op, expected),) = self.operators()
        symbol = {"eq": "==", "ne": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "in": "in",
                  "not_in": "not in", "exists": "exists:"}[op]  # fmt: skip
        shown = (
            f"[{', '.join(map(str, expected))}]"
            if isinstance(expected, tuple)
            else str(expected).lower()
            if isinstance(expected, bool)
            else str(expected)
        )
        return f"{self.fact} {symbol} {shown}"


class All(_Model):
    all: tuple[Condition, ...] = Field(min_length=1)

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return all(c.evaluate(facts) for c in self.all)

    def facts(self) -> Iterator[Compare]:
        for c in self.all:
            yield from c.facts()

    def describe(self) -> str:
        return " and ".join(_paren(c) for c in self.all)


class AnyOf(_Model):
    any: tuple[Condition, ...] = Field(min_length=1)

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return any(c.evaluate(facts) for c in self.any)

    def facts(self) -> Iterator[Compare]:
        for c in self.any:
            yield from c.facts()

    def describe(self) -> str:
        return " or ".join(_paren(c) for c in self.any)


class Not(_Model):
    not_: Condition = Field(alias="not")

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return not self.not_.evaluate(facts)

    def facts(self) -> Iterator[Compare]:
        yield from self.not_.facts()

    def describe(self) -> str:
        return f"not {_paren(self.not_)}"


def _paren(c: Condition) -> str:
    return f"({c.describe()})" if isinstance(c, All | AnyOf) else c.describe()


def _condition_kind(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return {All: "all", AnyOf: "any", Not: "not", Compare: "fact"}.get(type(value))
    if isinstance(value, dict):
        keys = [k for k in ("all", "any", "not", "fact") if k in value]
        return keys[0] if len(keys) == 1 else None
    return None


Condition = Annotated[
    Annotated[All, Tag("all")] | Annotated[AnyOf, Tag("any")] | Annotated[Not, Tag("not")]
    | Annotated[Compare, Tag("fact")],
    Discriminator(_condition_kind, custom_error_type="condition",
                  custom_error_message="a condition is a mapping with exactly one of all, any, not, fact"),
]  # fmt: skip


class Action(_Model):
    """Set one thing: ``scheduler``, a tunable, a queue attribute, a sysctl, a boot parameter or mount option.

    The value is a constant (``to``) or the value of a registered fact (``to_fact``, e.g. ``measured.best``).
    """

    set: StrictStr
    to: Scalar | None = None
    to_fact: StrictStr | None = None
    note: StrictStr | None = None

    @model_validator(mode="after")
    def _one_value(self) -> Self:
        if (self.to is None) == (self.to_fact is None):
            raise ValueError("an action needs exactly one of to, to_fact")
        return self

    def value(self, facts: Mapping[str, Any]) -> Any:
        return facts.get(self.to_fact) if self.to_fact else self.to


class RuleExample(_Model):
    """A context and what the rule does on it; examples run as tests and ``kb check`` verifies them."""

    context: dict[StrictStr, Scalar]
    expect: Literal["fires", "silent"]


All.model_rebuild()
AnyOf.model_rebuild()
Not.model_rebuild()


def referenced_facts(condition: Condition) -> set[str]:
    return {c.fact for c in condition.facts()}


def unknown_facts(condition: Condition, actions: tuple[Action, ...] = ()) -> list[str]:
    used = referenced_facts(condition) | {a.to_fact for a in actions if a.to_fact}
    return sorted(f for f in used if f not in FACTS)
