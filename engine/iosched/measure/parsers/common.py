"""Helpers shared by the parsers: what a parser returns, number reading, and labels from file content."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from iosched.measure.measurements import Direction, Measurement

KIB = 1024.0
MIB = 1024.0 * 1024.0
MAX_LABEL = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9 ._:/+=,()%-]+")


@dataclass
class Parsed:
    """What one parser found in one text: measurements (scheduler may be empty) and notes."""

    measurements: list[Measurement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(
        self, test: str, metric: str, value: float, unit: str, direction: Direction,
        *, scheduler: str = "", round: int | None = None,
    ) -> None:  # fmt: skip
        """Record one value; a value that is not a finite number >= 0 is noted and left out."""
        test = label(test)
        try:
            value = float(value)
        except OverflowError:  # an integer beyond the float range
            value = math.inf
        if not math.isfinite(value) or value < 0:
            self.notes.append(f"{test} {metric}: {value!r} is not a finite number >= 0; left out")
            return
        self.measurements.append(
            Measurement(
                scheduler=scheduler,
                test=test,
                metric=metric,
                value=value,
                unit=unit,
                direction=direction,
                round=round,
            )
        )


def number(text: str) -> float | None:
    """A float from ``text`` (a decimal comma is accepted); None when it is not a number at all.

    Infinities and NaN are returned as such, so that ``Parsed.add`` can say it left them out."""
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


def label(text: str) -> str:
    """A test name from file content in a closed grammar: letters, digits, spaces and ``._:/+=,()%-``,
    at most 64 characters; anything else becomes ``-``."""
    return _UNSAFE.sub("-", text).strip(" -")[:MAX_LABEL] or "test"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
