"""Checks for text read from untrusted files: printable and bounded (shown with
:func:`iosched.escape.untrusted`)."""

from __future__ import annotations

import re

from iosched.grammar import UNSEEN

_CONTROL = re.compile(rf"[\t\n{UNSEEN}]")
"""What a one-line value may not hold: every unseen character, tabs and newlines."""


def printable(value: object, limit: int = 256) -> str | None:
    """``value`` stripped, when it is a non-empty string of at most ``limit`` characters without control characters."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > limit or _CONTROL.search(text):
        return None
    return text


def token(value: object, grammar: re.Pattern[str]) -> str | None:
    """``value`` when it is a string that ``grammar`` matches in full."""
    return value if isinstance(value, str) and grammar.fullmatch(value) else None
