"""Which scheduler a result belongs to: names known to the KB, and attribution from file names."""

from __future__ import annotations

import re
from functools import cache

# Order of "fewer moving parts", the tie-break between equally good candidates.
SIMPLICITY = ("none", "noop", "mq-deadline", "deadline", "kyber", "bfq", "cfq", "anticipatory")

_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")


@cache
def known_names() -> frozenset[str]:
    """Scheduler names: the bundled KB's elevators, with their aliases."""
    from iosched.kbcache import load_checked

    elevators = load_checked().elevators
    names = {*elevators, *(alias for e in elevators.values() for alias in e.aliases)}
    return frozenset(n for n in names if _NAME.fullmatch(n))


def valid_name(name: str) -> bool:
    """A plausible scheduler name (the kernel's own pattern: lower case, digits, dashes)."""
    return bool(_NAME.fullmatch(name))


def from_filename(name: str, names: frozenset[str] | None = None) -> str | None:
    """A known scheduler name appearing as a whole token in a file name; the longest one wins.

    Tokens are separated by anything but letters and digits, so ``mq-deadline`` matches as a
    whole before ``deadline`` does.
    """
    names = known_names() if names is None else names
    stem = name.lower()
    for candidate in sorted(names, key=len, reverse=True):
        if re.search(rf"(?<![a-z0-9]){re.escape(candidate)}(?![a-z0-9])", stem):
            return candidate
    return None


_ROUND = re.compile(r"(?:^|[-_.])(?:r|round|i|iter)(\d{1,4})(?=[-_.]|$)", re.IGNORECASE)


def round_from_filename(name: str) -> int | None:
    """A round number written as ``-r3``, ``_round3`` or ``-i3`` in a file name."""
    found = _ROUND.findall(name)
    return int(found[-1]) if found else None


_ECHO = re.compile(r"echo\s+[\"']?([a-z][a-z0-9-]*)[\"']?\s*>+\s*\S*/queue/scheduler")


def switches(text: str) -> list[tuple[int, str]]:
    """``echo NAME > /sys/block/X/queue/scheduler`` lines in a transcript: (offset, name)."""
    return [(m.start(), m.group(1)) for m in _ECHO.finditer(text)]


def at(offset: int, marks: list[tuple[int, str]]) -> str | None:
    """The scheduler last switched to before ``offset`` in a transcript."""
    current = None
    for position, name in marks:
        if position > offset:
            break
        current = name
    return current
