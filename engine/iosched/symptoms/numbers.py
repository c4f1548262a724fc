"""Numbers as the tools print them: a decimal point, or a decimal comma throughout (LC_NUMERIC), never a mix."""

from __future__ import annotations

import math
import re

_POINT = re.compile(r"-?\d+(?:\.\d+)?")
_COMMA = re.compile(r"-?\d+(?:,\d+)?")


class ReadError(ValueError):
    """One line of an input that cannot be read; the reader turns it into a ``missing`` entry."""


def separator(cells: list[str]) -> str:
    """``.`` or ``,``: the decimal separator of a table's numeric cells. A table where both appear as decimal
    separators is refused: its values cannot be read without guessing."""
    points = any("." in c and _POINT.fullmatch(c) for c in cells)
    commas = any("," in c and _COMMA.fullmatch(c) for c in cells)
    if points and commas:
        raise ReadError("mixed decimal separators (some cells use '.', others ','): run the tool with LC_ALL=C")
    return "," if commas else "."


def number(cell: str, sep: str = ".") -> float:
    """The value of one cell; ReadError when it is not a finite, non-negative number."""
    text = cell.replace(",", ".") if sep == "," and "." not in cell else cell
    if not (_POINT.fullmatch(text)):
        raise ReadError(f"{cell[:40]!r} is not a number")
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ReadError(f"{cell[:40]!r} is out of range")
    return value
