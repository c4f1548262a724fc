"""Kernel versions compared as versions, never as strings or floats."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_VERSION = r"(\d{1,2})\.(\d{1,3})(?:\.(\d{1,4}))?(?:[-+~_.][0-9A-Za-z._+~-]{0,64})?"
"""Compiled on first use (re caches it): compiling at import costs every command start-up time."""
_MOST = (2, 3, 4)
"""The most digits of the major, minor and patch numbers in :data:`_VERSION`."""


class KernelVersion(tuple[int, int, int]):
    """A kernel release as (major, minor, patch); ``5.10`` > ``5.9``. A plain tuple subclass: a NamedTuple
    compiles its annotations at import, which costs every command start-up time."""

    __slots__ = ()

    def __new__(cls, major: int, minor: int, patch: int = 0) -> KernelVersion:
        return tuple.__new__(cls, (major, minor, patch))

    @property
    def major(self) -> int:
        return self[0]

    @property
    def minor(self) -> int:
        return self[1]

    @property
    def patch(self) -> int:
        return self[2]

    def __repr__(self) -> str:
        return f"KernelVersion({self[0]}, {self[1]}, {self[2]})"

    def __getnewargs__(self) -> tuple[int, int, int]:
        return (self[0], self[1], self[2])

    @classmethod
    def parse(cls, text: object) -> KernelVersion:
        """Parse ``6.8``, ``6.8.12`` or ``6.8.0-45-generic``; raise ValueError otherwise."""
        if isinstance(text, KernelVersion):
            return text
        if not isinstance(text, str):
            raise ValueError(f'kernel version must be a quoted string such as "5.10", not {text!r}')
        parts = text.strip().split(".")
        if len(parts) in (2, 3) and all(
            p.isascii() and p.isdigit() and len(p) <= n for p, n in zip(parts, _MOST, strict=False)
        ):
            return cls(*map(int, parts))  # what the grammar reads these as, without compiling it
        m = re.fullmatch(_VERSION, text.strip())
        if m is None:
            raise ValueError(f"not a kernel version: {text!r} (expected X.Y or X.Y.Z)")
        return cls(int(m[1]), int(m[2]), int(m[3] or 0))

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}" + (f".{self.patch}" if self.patch else "")

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """Validated from a quoted string ("5.10"), serialised as one; used at KB load time only."""
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            cls.parse,
            json_schema_input_schema=core_schema.str_schema(pattern=r"^\d{1,2}\.\d{1,3}(\.\d{1,4})?$"),
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )


def in_range(version: KernelVersion, since: KernelVersion | None, until: KernelVersion | None) -> bool:
    """True when ``since <= version < until`` (either bound may be open)."""
    return (since is None or version >= since) and (until is None or version < until)
