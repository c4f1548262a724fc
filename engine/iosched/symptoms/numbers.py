"""Numbers as the tools print them: a decimal point, or a decimal comma throughout (LC_NUMERIC), never a mix."""

from __future__ import annotations

import math
import re

_POINT = re.compile(r"-?\d{1,20}(?:\.\d{1,20})?")
_COMMA = re.compile(r"-?\d{1,20}(?:,\d{1,20})?")
LARGEST = 1e15
"""No metric iosched reads comes near this (1e15 KiB/s is an exabyte a second): a larger value is damage, and
the bound keeps every sum, product and mean the diagnosis makes of up to ``series.MAX_SAMPLES`` values finite."""


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


def number(cell: str, sep: str = ".", factor: float = 1) -> float:
    """The value of one cell times ``factor`` (to the metric's unit); ReadError when it is not a number
    within bounds (see :func:`bounded`)."""
    text = cell.replace(",", ".") if sep == "," and "." not in cell else cell
    if not (_POINT.fullmatch(text)):
        raise ReadError(f"{cell[:40]!r} is not a number")
    return bounded(float(text), cell, factor)


def bounded(value: float, what: object = None, factor: float = 1) -> float:
    """``value`` times ``factor`` when the product is finite, non-negative and at most :data:`LARGEST`; else
    ReadError. Every number a reader keeps passes here, after its arithmetic (a unit factor, a rate)."""
    if isinstance(value, int) and abs(value) > LARGEST:
        value = LARGEST * 2  # too large to be one, and float() of it may overflow
    product = float(value) * factor
    if not math.isfinite(product) or not 0 <= product <= LARGEST:
        raise ReadError(f"{str(what if what is not None else value)[:40]!r} is out of range")
    return product
