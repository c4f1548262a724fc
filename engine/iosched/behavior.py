"""Runtime behaviour of KB entities, free of pydantic.

The pydantic models (validation) and the compiled records (the cached KB on the hot path) both inherit
these mixins, so the engine and the renderers work on either without knowing which.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from iosched.facts import compare

OPERATORS = ("eq", "ne", "in", "not_in", "gt", "gte", "lt", "lte", "exists")
_SYMBOLS = {"eq": "==", "ne": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "in": "in", "not_in": "not in",
            "exists": "exists:"}  # fmt: skip


class RangeBehavior:
    def accepts(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


class SettingBehavior:
    def accepts(self, value: object) -> bool:
        """Whether ``value`` is a valid setting (range and choices from the KB)."""
        if self.unit == "bool":
            return value in (0, 1) and not isinstance(value, float)
        if self.choices:
            return value in self.choices
        if self.range:
            return self.range.accepts(value)
        return isinstance(value, int | float | str) and not isinstance(value, bool)


class CompareBehavior:
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

    def facts(self) -> Iterator[Any]:
        yield self

    def describe(self) -> str:
        ((op, expected),) = self.operators()
        if isinstance(expected, tuple):
            shown = f"[{', '.join(map(str, expected))}]"
        else:
            shown = str(expected).lower() if isinstance(expected, bool) else str(expected)
        return f"{self.fact} {_SYMBOLS[op]} {shown}"


def _paren(condition: Any) -> str:
    text = condition.describe()
    return f"({text})" if getattr(condition, "compound", False) else text


class _CompoundBehavior:
    """``all`` / ``any`` over sub-conditions held in the field named by ``parts``."""

    compound = True
    parts = ""
    joiner = ""
    combine = staticmethod(all)

    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return self.combine(c.evaluate(facts) for c in getattr(self, self.parts))

    def facts(self) -> Iterator[Any]:
        for c in getattr(self, self.parts):
            yield from c.facts()

    def describe(self) -> str:
        return f" {self.joiner} ".join(_paren(c) for c in getattr(self, self.parts))


class AllBehavior(_CompoundBehavior):
    parts, joiner, combine = "all", "and", staticmethod(all)


class AnyBehavior(_CompoundBehavior):
    parts, joiner, combine = "any", "or", staticmethod(any)


class NotBehavior:
    def evaluate(self, facts: Mapping[str, Any]) -> bool:
        return not self.not_.evaluate(facts)

    def facts(self) -> Iterator[Any]:
        yield from self.not_.facts()

    def describe(self) -> str:
        return f"not {_paren(self.not_)}"


class ActionBehavior:
    def value(self, facts: Mapping[str, Any]) -> Any:
        return facts.get(self.to_fact) if self.to_fact else self.to
