"""Struct: the one base of every KB entity, plain frozen objects that are cheap to define and to rebuild.

A Struct declares its fields once, as class annotations with defaults in the class body (like a dataclass),
and type checkers read it as one (``dataclass_transform``): every constructor call is checked against the
fields. Fields are keyword-only; a table of short rows may declare ``class Row(Struct, kw_only=False)`` to
take them in declaration order.
It costs no code generation at import and no validation at construction: the KB is validated once, at load
time, by pydantic models derived from these very classes (:mod:`iosched.knowledge.validate`), and the compiled cache
rebuilds instances from plain data without running any check again.

Cross-field invariants live in ``check(self)`` methods; validation calls every ``check`` of the class's MRO.
A check reads only its own class's fields and raises :class:`Invalid`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import attrgetter

from iosched.hints import dataclass_transform

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Self


class Invalid(ValueError):
    """A broken invariant of one entity; ``code`` is the ``kb check`` diagnostic it maps to."""

    def __init__(self, message: str, code: str = "KB012") -> None:
        super().__init__(message)
        self.code = code


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Struct:
    """Frozen attributes named by the class annotations; equal when of one type with equal fields."""

    __fields__: ClassVar[tuple[str, ...]] = ()
    __required__: ClassVar[frozenset[str]] = frozenset()
    __field_set__: ClassVar[frozenset[str]] = frozenset()
    __own_fields__: ClassVar[tuple[str, ...]] = ()
    """The fields this class declares itself (``__fields__`` adds its bases')."""
    __aliases__: ClassVar[dict[str, str]] = {}
    """Python field name -> YAML key, for keys that are Python keywords (``in``, ``not``)."""
    __positional__: ClassVar[bool] = False
    """Whether this class takes its fields in declaration order too (``kw_only=False``)."""
    __values__: ClassVar[Callable[[Any], tuple[Any, ...]]] = lambda obj: ()
    """The values of the fields, in declaration order (what equality and the hash compare)."""

    def __init_subclass__(cls, *, kw_only: bool = True, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.__positional__ = not kw_only
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect costs start-up time
        classvar = ("ClassVar", "typing.ClassVar")  # a string under ``from __future__ import annotations``
        cls.__own_fields__ = own_fields = tuple([n for n, a in own.items() if not str(a).startswith(classvar)])
        bases: tuple[Any, ...] = cls.__bases__
        if len(bases) == 1:  # its base's fields, already in the order of its MRO, then its own
            names = dict.fromkeys(bases[0].__fields__)
            names.update(dict.fromkeys(own_fields))
        else:
            names = {}
            for klass in reversed(cls.__mro__):
                names.update(dict.fromkeys(klass.__dict__.get("__own_fields__", ())))
        cls.__fields__ = fields = tuple(names)
        cls.__field_set__ = frozenset(names)
        cls.__required__ = frozenset([f for f in fields if not hasattr(cls, f)])
        cls.__values__ = _values(fields)

    def __init__(self, *args: object, **values: object) -> None:
        """Fields by name (or, for a ``kw_only=False`` class, the first ones in declaration order)."""
        if args:
            if not self.__positional__:
                raise TypeError(f"{type(self).__name__} takes its fields by name")
            named = dict(zip(self.__fields__, args, strict=False))
            if len(args) > len(self.__fields__) or named.keys() & values.keys():
                raise TypeError(f"{type(self).__name__}: {len(args)} positional values for {self.__fields__}")
            values.update(named)
        if not (values.keys() <= self.__field_set__ and self.__required__ <= values.keys()):
            unknown = values.keys() - self.__field_set__
            missing = self.__required__ - values.keys()
            raise TypeError(f"{type(self).__name__}: unknown {sorted(unknown)}, missing {sorted(missing)}")
        self.__dict__.update(values)

    @classmethod
    def build(cls, values: dict[str, Any]) -> Self:
        """An instance from trusted, already validated field values (the cache's fast path); it keeps
        ``values`` as its own attribute dictionary."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "__dict__", values)
        return obj

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        values = type(self).__values__
        return type(self) is type(other) and values(self) == values(other)

    def __hash__(self) -> int:
        return hash((type(self), *type(self).__values__(self)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__fields__ if f in self.__dict__)
        return f"{type(self).__name__}({shown})"

    def replace(self, **changes: Any) -> Self:
        """The same record with some fields changed; itself when nothing changes."""
        for k, v in changes.items():
            if getattr(self, k) != v:
                break
        else:
            return self
        values = self.__dict__
        if not values.keys() <= self.__field_set__:  # what a cached_property keeps is not a field
            values = {k: v for k, v in values.items() if k in self.__field_set__}
        if not changes.keys() <= self.__field_set__:
            return type(self)(**{**values, **changes})  # raises: not a field
        return self.build({**values, **changes})  # an instance's fields and more fields: nothing to check

    def fields(self) -> Iterator[tuple[str, Any]]:
        """(name, value) of every field, defaults included, in declaration order."""
        for name in self.__fields__:
            yield name, getattr(self, name)

    def check(self) -> None:
        """Cross-field invariants; raise :class:`Invalid`. Subclasses extend, validation runs all."""


class OneOfKeys:
    """Annotation marker for a union of Structs told apart by the one key a mapping has (``all``, ``any`` ...)."""

    def __init__(self, **by_key: type[Struct]) -> None:
        self.by_key = by_key

    def discriminate(self, value: Any) -> str | None:
        """The key of the Struct that ``value`` is (or, as a mapping, will be); None when ambiguous."""
        if isinstance(value, dict):
            keys = [k for k in self.by_key if k in value]
            return keys[0] if len(keys) == 1 else None
        struct = getattr(type(value), "__struct__", type(value))
        return next((k for k, cls in self.by_key.items() if cls is struct), None)


def _values(fields: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if len(fields) > 1:
        return attrgetter(*fields)
    if fields:
        one = attrgetter(fields[0])
        return lambda obj: (one(obj),)
    return Struct.__values__


def checks(cls: type[Struct]) -> list[Any]:
    """The ``check`` methods a class inherits and defines, most basic first, each once."""
    found = []
    for klass in reversed(cls.__mro__):
        method = klass.__dict__.get("check")
        if method is not None and klass is not Struct:
            found.append(method)
    return found
