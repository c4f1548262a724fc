"""A Struct's fields are those of its whole MRO, the most basic class's first, each once, in declaration order."""

from __future__ import annotations

import inspect

import iosched.knowledge.kbload
import iosched.planning.engine
from iosched.struct import Struct


def _every_struct() -> list[type[Struct]]:
    """Every Struct of the engine (the schema, plans, systems) and of validation, imported above."""
    assert iosched.planning.engine and iosched.knowledge.kbload
    found, stack = [], [Struct]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        found.append(cls)
    return found


def test_fields_follow_the_mro_with_each_class_declarations_in_order() -> None:
    classes = _every_struct()
    assert len(classes) > 50
    for cls in classes:
        expected: dict[str, None] = {}
        for klass in reversed(cls.__mro__):
            annotations = inspect.get_annotations(klass)
            own = [n for n, a in annotations.items() if not str(a).startswith(("ClassVar", "typing.ClassVar"))]
            expected.update(dict.fromkeys(own))
        assert cls.__fields__ == tuple(expected), cls
        assert cls.__field_set__ == set(expected), cls
        assert cls.__required__ == {f for f in expected if not hasattr(cls, f)}, cls


def test_a_struct_of_two_bases_has_the_fields_of_both() -> None:
    class Left(Struct):
        a: int
        b: int = 0

    class Right(Struct):
        c: int

    class Both(Left, Right):
        d: int = 1

    assert Both.__fields__ == ("c", "a", "b", "d")
    assert Both.__required__ == {"a", "c"}
