"""The closed condition language of rules, their actions and examples.

A condition is ``all``/``any``/``not`` over comparisons of registered facts; there are no expressions.
"""

from __future__ import annotations

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

from iosched.behavior import (
    OPERATORS,
    ActionBehavior,
    AllBehavior,
    AnyBehavior,
    CompareBehavior,
    NotBehavior,
)
from iosched.facts import FACTS

Scalar = StrictBool | StrictInt | StrictFloat | StrictStr


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, populate_by_name=True)


class Compare(_Model, CompareBehavior):
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


class All(_Model, AllBehavior):
    all: tuple[Condition, ...] = Field(min_length=1)


class AnyOf(_Model, AnyBehavior):
    any: tuple[Condition, ...] = Field(min_length=1)


class Not(_Model, NotBehavior):
    not_: Condition = Field(alias="not")


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


class Action(_Model, ActionBehavior):
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
