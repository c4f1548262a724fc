"""GNU dd summaries (coreutils <= 8.24 ``N bytes (S) copied, T s, R``, older ``T seconds``; >= 8.25
adds the IEC size)
and BSD dd (``N bytes transferred in T secs``). The rate is recomputed from bytes and seconds."""

from __future__ import annotations

import math
import re

from iosched.measure.parsers.common import MIB, Parsed, number
from iosched.measure.schedulers import at, switches

_GNU = re.compile(r"^[ \t]*(\d+) bytes(?: \([^)\n]*\))? copied, ([\d.,]+(?:e[-+]?\d+)?) s(?:econds)?, ", re.MULTILINE)
_BSD = re.compile(r"^[ \t]*(\d+) bytes transferred in ([\d.]+) secs", re.MULTILINE)
_OUT = re.compile(r"^[ \t]*\d+\+\d+ records out[ \t]*$", re.MULTILINE)


def looks_like(text: str) -> bool:
    return bool(_GNU.search(text) or _BSD.search(text))


def parse(text: str) -> Parsed:
    parsed = Parsed()
    text = text.replace("\r", "\n")  # status=progress lines are separated by carriage returns
    marks = switches(text)
    outs = [m.end() for m in _OUT.finditer(text)]
    matches = list(_GNU.finditer(text)) + list(_BSD.finditer(text))
    if outs:  # only the summary right after "records out", not the progress lines
        matches = [m for m in matches if any(0 <= m.start() - o <= 2 for o in outs)]
    for match in sorted(matches, key=lambda m: m.start()):
        size, seconds = number(match.group(1)), number(match.group(2))
        if size is None or seconds is None:
            continue
        rate = size / seconds / MIB if 0 < seconds < math.inf else math.nan  # Parsed.add notes NaN
        parsed.add("dd", "bw", rate, "MiB/s", "higher", scheduler=at(match.start(), marks) or "")
    return parsed
