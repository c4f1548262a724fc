"""The typing forms that the package's named aliases and bases use at run time, without importing ``typing``.

Importing ``typing`` costs a command about as much start-up as the JSON decoder and the regular expressions
together, and the package needs its forms outside annotations (which are never evaluated) only to name the
closed vocabularies and the KB's constrained strings: ``Goal = Literal["latency", ...]``,
``Id = Annotated[str, Constrain(ID)]``. At run time these stand-ins record what they were given (a
``Literal`` is the tuple of its values, as ``get_args`` gives them); :func:`real` turns that back into
``typing``'s own forms when the KB is validated (:mod:`iosched.knowledge.validate`). Type checkers read
``typing``'s own.
"""

from __future__ import annotations

TYPE_CHECKING = False


class _LiteralForm(tuple[object, ...]):
    """``Literal["a", "b"]`` at run time: the tuple ``("a", "b")``."""

    def __class_getitem__(cls, values: object) -> _LiteralForm:  # type: ignore[override]
        return cls(values if isinstance(values, tuple) else (values,))


class _AnnotatedForm(tuple[object, ...]):
    """``Annotated[T, x, ...]`` at run time: the tuple ``(T, x, ...)``."""

    def __class_getitem__(cls, values: tuple[object, ...]) -> _AnnotatedForm:  # type: ignore[override]
        return cls(values)


if TYPE_CHECKING:
    from typing import Annotated as Annotated
    from typing import Any
    from typing import Generic as Generic
    from typing import Literal as Literal
    from typing import TypeVar as TypeVar
    from typing import dataclass_transform as dataclass_transform
    from typing import get_args as get_args
else:
    Literal = _LiteralForm
    Annotated = _AnnotatedForm

    class Generic:
        """A base class generic in its type variables (to type checkers; at run time, a plain class)."""

        def __class_getitem__(cls, _):
            return cls

    def TypeVar(name):
        return name

    def get_args(alias):
        return tuple(alias)

    def dataclass_transform(**_):
        return lambda cls: cls


def real(value: Any) -> Any:
    """``value`` with the stand-ins of this module made ``typing``'s own forms (validation builds on them)."""
    import typing

    if isinstance(value, _LiteralForm):
        return typing.Literal[tuple(value)]
    if isinstance(value, _AnnotatedForm):
        inner, *extras = value
        return typing.Annotated[(real(inner), *extras)]
    return value
