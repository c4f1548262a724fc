"""JSON text for the everyday commands, without importing the ``json`` package.

Importing ``json`` compiles six regular expressions of its decoder, scanner and encoder: about a twentieth of a
command's start-up, and no command that reads the KB cache or writes a plan needs them. Text is decoded by the
scanner in C that ``json`` itself decodes with (``_json.make_scanner``; ``json``'s own where an interpreter has
no ``_json``), and written as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it: a property test
holds both to the ``json`` package's results. Writing the KB cache, which happens once per KB, uses ``json``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WHITESPACE = " \t\n\r"
_INFINITY = float("inf")
_CONSTANTS = {"NaN": float("nan"), "Infinity": _INFINITY, "-Infinity": -_INFINITY}


class _Context:
    """What the scanner reads of a ``json.JSONDecoder``: its defaults, and an object hook."""

    strict = True
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__

    def __init__(self, object_hook: Callable[[dict[str, Any]], Any] | None) -> None:
        self.object_hook = object_hook


class Decoder:
    """``json.loads(text, object_hook=object_hook)``, made once and called for many texts; ValueError (or
    RecursionError) for a text that is not one JSON value."""

    def __init__(self, object_hook: Callable[[dict[str, Any]], Any] | None = None) -> None:
        scanner: Any  # the scanner's context and its own scanner are not in the typing stubs
        try:
            from _json import make_scanner
        except ImportError:  # an interpreter without json's scanner in C
            from json import JSONDecoder

            scanner = JSONDecoder(object_hook=object_hook).scan_once  # type: ignore[attr-defined]
        else:
            context: Any = _Context(object_hook)
            scanner = make_scanner(context)
        self._scan: Callable[[str, int], tuple[Any, int]] = scanner

    def __call__(self, text: str | bytes) -> Any:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = self._scan(text, start)
        except StopIteration as exc:
            raise ValueError(f"no JSON value at character {exc.value}") from None
        if end < len(text) and text[end:].strip(_WHITESPACE):
            raise ValueError(f"more than one JSON value (character {end})")
        return value


loads = Decoder()
"""``json.loads``, for JSON's own types."""


def dumps(value: Any, indent: int = 2) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)``: TypeError for what JSON cannot hold."""
    out: list[str] = []
    _write(value, out, "\n", " " * indent)
    return "".join(out)


_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)} | {
    ord("\\"): "\\\\", ord('"'): '\\"', ord("\b"): "\\b", ord("\f"): "\\f", ord("\n"): "\\n", ord("\r"): "\\r",
    ord("\t"): "\\t",
}  # fmt: skip
"""What ``json`` escapes in a string when it writes other characters as they are."""


def _escaped(text: str) -> str:
    return '"' + text.translate(_ESCAPES) + '"'


try:
    from _json import encode_basestring as _string  # json's own, in C: the same text four times faster
except ImportError:  # an interpreter without json's C helpers
    _string = _escaped


_SEQUENCES = (list, tuple)


def _float(number: float) -> str:
    if number != number:
        return "NaN"
    if number in (_INFINITY, -_INFINITY):
        return "Infinity" if number > 0 else "-Infinity"
    return float.__repr__(number)


def _key(key: object) -> str:
    if isinstance(key, str):
        return _string(key)
    if isinstance(key, float):
        return _string(_float(key))
    if key is True or key is False or key is None:
        return _string({True: "true", False: "false", None: "null"}[key])
    if isinstance(key, int):
        return _string(int.__repr__(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _write(value: Any, out: list[str], newline: str, step: str) -> None:
    """``value`` as JSON text onto ``out``; ``newline`` starts a line at its depth, ``step`` indents one more."""
    if isinstance(value, str):
        out.append(_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, _SEQUENCES):
        if not value:
            out.append("[]")
            return
        inner = newline + step
        between = "[" + inner
        for item in value:
            out.append(between)
            between = "," + inner
            _write(item, out, inner, step)
        out.append(newline + "]")
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + step
        between = "{" + inner
        for key, item in value.items():
            out.append(between + _key(key) + ": ")
            between = "," + inner
            _write(item, out, inner, step)
        out.append(newline + "}")
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
