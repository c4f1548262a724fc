"""Checks for text read from untrusted files: printable, bounded, and escaped before it is shown."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Control characters, line separators and the invisible or direction-changing marks (as iosched.render.escape)."""


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


def escape(value: object, limit: int = 200) -> str:
    """One terminal-safe line: control characters become ``\\xNN``, and long text is cut with an ellipsis."""
    text = value if isinstance(value, str) else repr(value)
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else "?", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
