"""Compiled KB records: frozen plain objects with the models' fields and behaviour, but no pydantic.

The cache holds the checked KB as records, so everyday commands never import pydantic or yaml.
"""

from __future__ import annotations

from typing import Any

from iosched.behavior import (
    ActionBehavior,
    AllBehavior,
    AnyBehavior,
    CompareBehavior,
    NotBehavior,
    RangeBehavior,
    SettingBehavior,
)
from iosched.kernel import KernelVersion

COMPUTED = ("kind", "id", "sources")


class Record:
    """Attributes from a dict; frozen; equal when of the same type with equal attributes."""

    def __init__(self, attributes: dict[str, Any]) -> None:
        object.__setattr__(self, "__dict__", attributes)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if k in self._fields)
        return f"{type(self).__name__}({shown})"


class RangeRecord(Record, RangeBehavior):
    pass


class SettingRecord(Record, SettingBehavior):
    pass


class CompareRecord(Record, CompareBehavior):
    pass


class AllRecord(Record, AllBehavior):
    pass


class AnyRecord(Record, AnyBehavior):
    pass


class NotRecord(Record, NotBehavior):
    pass


class ActionRecord(Record, ActionBehavior):
    pass


_BY_BEHAVIOR: dict[type, type[Record]] = {
    RangeBehavior: RangeRecord,
    SettingBehavior: SettingRecord,
    CompareBehavior: CompareRecord,
    AllBehavior: AllRecord,
    AnyBehavior: AnyRecord,
    NotBehavior: NotRecord,
    ActionBehavior: ActionRecord,
}


def _record_type(model_type: type) -> type[Record]:
    for behavior, record in _BY_BEHAVIOR.items():
        if issubclass(model_type, behavior):
            return record
    return Record


def to_record(value: Any) -> Any:
    """A validated model (recursively) as records; other values unchanged."""
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        attributes = {name: to_record(getattr(value, name)) for name in fields}
        for name in COMPUTED:
            if name not in attributes and hasattr(value, name):
                attributes[name] = to_record(getattr(value, name))
        attributes["_fields"] = tuple(fields)
        return _record_type(type(value))(attributes)
    if isinstance(value, tuple) and not isinstance(value, KernelVersion):
        return tuple(to_record(v) for v in value)
    if isinstance(value, dict):
        return {k: to_record(v) for k, v in value.items()}
    return value


def field_names(value: Any) -> tuple[str, ...] | None:
    """The schema fields of a model or a record (None for plain values)."""
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        return tuple(fields)
    return value._fields if isinstance(value, Record) else None
