"""Which scheduler a result belongs to: name checks, attribution from file names and transcripts.

Scheduler names come from many places (the command line, fio's ``ioscheduler`` option, ``echo NAME >
.../queue/scheduler`` lines, file names, bench manifests and state files); all of them pass ``valid_name``,
the kernel's own pattern, so a name is always a short word that is safe to print, compare and write back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from iosched.measure.failure import MeasureError

# Order of "fewer moving parts", the tie-break between equally good candidates.
SIMPLICITY = ("none", "noop", "mq-deadline", "deadline", "kyber", "bfq", "cfq", "anticipatory")

_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")


def valid_name(name: object) -> bool:
    """A plausible scheduler name (the kernel's own pattern: lower case, digits, dashes; at most 32)."""
    return isinstance(name, str) and bool(_NAME.fullmatch(name))


def check_name(name: object, where: str = "") -> str:
    """``name`` when it is a valid scheduler name; MeasureError otherwise (``where`` says where it was read)."""
    if not valid_name(name):
        shown = repr(name)[:40]
        raise MeasureError(f"{where + ': ' if where else ''}not a scheduler name: {shown}")
    return name  # type: ignore[return-value]


def known(names: Iterable[str]) -> frozenset[str]:
    """The valid names among ``names`` (the caller passes the KB's elevators and their aliases)."""
    return frozenset(n for n in names if valid_name(n))


def from_filename(name: str, names: frozenset[str]) -> str | None:
    """A known scheduler name appearing as a whole token in a file name; the longest one wins.

    Tokens are separated by anything but letters and digits, so ``mq-deadline`` matches as a
    whole before ``deadline`` does.
    """
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
    """``echo NAME > /sys/block/X/queue/scheduler`` lines in a transcript: (offset, name); the name is empty
    when it is not a valid one, so the runs after it are not credited to the scheduler before."""
    return [(m.start(), m.group(1) if valid_name(m.group(1)) else "") for m in _ECHO.finditer(text)]


def at(offset: int, marks: list[tuple[int, str]]) -> str | None:
    """The scheduler last switched to before ``offset`` in a transcript."""
    current = None
    for position, name in marks:
        if position > offset:
            break
        current = name
    return current
