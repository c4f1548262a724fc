"""A KB cache file taken apart and put together again, for tests that damage one part of it."""

from __future__ import annotations

import json
from typing import Any

from iosched.knowledge import kbcompile


def take_apart(text: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The index, the parts between it and the sections (decoded), and the sections' text as it is."""
    size = int(text[len('{"head":') : text.index(",")])
    index = json.loads(text[text.index('"index":') + len('"index":') : size])
    parts: dict[str, Any] = {}
    end = size
    for name, length in index["parts"].items():
        start = end + len(f',"{name}":')
        parts[name] = json.loads(text[start : start + length])
        end = start + length
    return index, parts, text[end:]


def put_together(index: dict[str, Any], parts: dict[str, Any], sections: str, measure: bool = False) -> str:
    """A cache file of these parts; ``measure`` sets the length of each part in the index (a test that damages
    the index alone leaves them as they are)."""
    texts = {name: json.dumps(value, separators=(",", ":")) for name, value in parts.items()}
    if measure:
        index["parts"] = {name: len(text) for name, text in texts.items()}
    rest = "".join(f',"{name}":{text}' for name, text in texts.items())
    return kbcompile.head(json.dumps(index, separators=(",", ":"))) + rest + sections
