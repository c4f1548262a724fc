"""JSON in result files and manifests, read with bounds: nesting is measured before anything is parsed.

Python's JSON decoder recurses once per level; a crafted file nested tens of thousands deep must be
refused before it reaches the decoder. ``depth`` is a linear scan that skips strings exactly as JSON
defines them (no raw control characters inside, so a string never spans lines) and counts brackets.
"""

from __future__ import annotations

import json
import re
from typing import Any

from iosched.measure.failure import MeasureError

MAX_DEPTH = 64  # fio's output nests 5 deep
_STRING = re.compile(r'"[^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def depth(text: str) -> int:
    """The deepest bracket nesting outside strings in ``text`` (an upper bound of what a decoder meets)."""
    level = deepest = 0
    for bracket in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if bracket in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level = max(0, level - 1)
    return deepest


def check_depth(text: str, label: str) -> None:
    """MeasureError when ``text`` nests deeper than MAX_DEPTH."""
    if depth(text) > MAX_DEPTH:
        raise MeasureError(f"{label}: JSON nested deeper than {MAX_DEPTH} levels; not a benchmark result")


def documents(text: str) -> list[dict[str, Any]]:
    """Every JSON object in ``text`` that starts a line (fio may print warnings around it).

    The caller checks the depth first (``check_depth``)."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    index = 0
    while (start := text.find("{", index)) != -1:
        if start and text[start - 1] not in "\n\r":
            index = start + 1
            continue
        try:
            doc, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            index = start + 1
            continue
        if isinstance(doc, dict):
            found.append(doc)
        index = end
    return found


def load(text: str, label: str) -> Any:
    """One JSON document; MeasureError when it is too deep or not JSON."""
    check_depth(text, label)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MeasureError(f"{label}: not valid JSON ({str(exc).splitlines()[0][:80]})") from None
