"""Clock times as sysstat and shell loops print them, to seconds (the zone does not matter: only
differences and the window's ends, shown as read, are used)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

_FORMATS = (
    "%m/%d/%y %H:%M:%S", "%m/%d/%Y %H:%M:%S", "%m/%d/%y %I:%M:%S %p", "%m/%d/%Y %I:%M:%S %p",
    "%d.%m.%Y %H:%M:%S", "%d.%m.%y %H:%M:%S", "%d/%m/%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
)  # fmt: skip
_DATED = re.compile(r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}[ T]\d{1,2}:\d{2}:\d{2}")
"""What every one of _FORMATS starts with: a line that does not is no clock line, without trying each format."""
_ZONE = re.compile(r"(?:[+-]\d{2}:?\d{2}|Z| UTC| [A-Z]{3,5})$")
EPOCH = re.compile(r"\d{9,11}(?:\.\d{1,9})?")
LATEST = 32503680000.0
"""3000-01-01 UTC: a clock time at or after it is damage (and far enough from datetime's year 9999 that a
capture's days past a late date still print)."""


def plausible(t: float | None) -> float | None:
    """``t`` when it is a time iosched accepts (from the epoch to :data:`LATEST`), else None."""
    return t if t is not None and 0 <= t < LATEST else None


def timestamp(text: str) -> float | None:
    """Seconds since the epoch for a clock line (``11/26/26 10:59:17``, ISO 8601, ``date +%s.%N``), else None."""
    text = text.strip()
    if EPOCH.fullmatch(text):
        return plausible(float(text))
    if not _DATED.match(text):
        return None
    bare = _ZONE.sub("", text).strip()
    for fmt in _FORMATS:
        try:
            return plausible(datetime.strptime(bare, fmt).replace(tzinfo=UTC).timestamp())
        except ValueError:
            continue
    return None


def of_day(text: str) -> float | None:
    """Seconds since midnight of ``HH:MM:SS`` (with ``AM``/``PM`` when given), else None."""
    m = re.fullmatch(r"(\d{2}):(\d{2}):(\d{2})(?: ?([AP]M))?", text.strip())
    if not m:
        return None
    h, mi, s = int(m[1]), int(m[2]), int(m[3])
    if m[4]:
        h = h % 12 + (12 if m[4] == "PM" else 0)
    return h * 3600 + mi * 60 + s if h < 24 and mi < 60 and s < 61 else None


def shown(t: float) -> str:
    """A time for people: ISO 8601 in UTC, to the second (seconds since the epoch when out of range)."""
    if plausible(t) is None:
        return f"{t:.0f} s after 1970-01-01 00:00:00"
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")
