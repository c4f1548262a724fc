"""Helpers shared by the parsers: what a parser returns, and number reading."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from iosched.measure.model import Direction, Measurement

KIB = 1024.0
MIB = 1024.0 * 1024.0


@dataclass
class Parsed:
    """What one parser found in one text: measurements (scheduler may be empty) and notes."""

    measurements: list[Measurement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(
        self, test: str, metric: str, value: float, unit: str, direction: Direction,
        *, scheduler: str = "", round: int | None = None,
    ) -> None:  # fmt: skip
        self.measurements.append(
            Measurement(
                scheduler=scheduler,
                test=test,
                metric=metric,
                value=float(value),
                unit=unit,
                direction=direction,
                round=round,
            )
        )


def number(text: str) -> float | None:
    """A float from ``text`` (a decimal comma is accepted); None when it is not a finite number."""
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
