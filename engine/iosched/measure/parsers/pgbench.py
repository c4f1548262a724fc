"""pgbench reports: 8.x to 13 (``tps = ... (excluding connections establishing)``), 14 (``without
initial connection time``) and 15+ (adds failed transactions). A transcript may hold several runs;
an ``echo NAME > .../queue/scheduler`` line before a run names its scheduler."""

from __future__ import annotations

import re

from iosched.measure.parsers.common import Parsed, number
from iosched.measure.schedulers import at, switches

_TPS = re.compile(r"^\s*tps = ([\d.]+)\s*\((including|excluding|without initial) connection", re.MULTILINE)
_START = re.compile(r"^\s*transaction type:", re.MULTILINE)
_LATENCY = re.compile(r"^\s*latency average\s*[:=]\s*([\d.]+)\s*ms", re.MULTILINE)
_FAILED = re.compile(r"^\s*number of failed transactions:\s*(\d+)", re.MULTILINE)


def looks_like(text: str) -> bool:
    return bool(_TPS.search(text))


def parse(text: str) -> Parsed:
    parsed = Parsed()
    marks = switches(text)
    starts = [m.start() for m in _START.finditer(text)] or [0]
    bounds = [*starts[1:], len(text)]
    for start, end in zip(starts, bounds, strict=True):
        block = text[start:end]
        found = {kind: number(value) for value, kind in _TPS.findall(block)}
        tps = found.get("excluding", found.get("without initial", found.get("including")))
        if tps is None:
            continue
        scheduler = at(start, marks) or ""
        parsed.add("pgbench", "tps", tps, "tps", "higher", scheduler=scheduler)
        if latency := _LATENCY.search(block):
            value = number(latency.group(1))
            if value is not None:
                parsed.add("pgbench", "latency_avg", value, "ms", "lower", scheduler=scheduler)
        if (failed := _FAILED.search(block)) and int(failed.group(1)) > 0:
            parsed.notes.append(f"pgbench: a run had {failed.group(1)} failed transactions")
    return parsed
