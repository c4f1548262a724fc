"""``vmstat 1`` (procps): ``b`` (processes blocked, mostly on I/O) and ``wa`` (CPU time waiting for I/O)."""

from __future__ import annotations

import re

from iosched.symptoms.numbers import ReadError, number
from iosched.symptoms.series import Collector, Reading, Sample

_HEADER = re.compile(r"^\s*r\s+b\s+swpd\s+free\s")


def looks_like(text: str) -> bool:
    return any(_HEADER.match(line) for line in text.splitlines()[:10])


def read(text: str, source: str) -> Reading:
    """One sample a line; the first line (averages since boot) is left out. Without ``-t`` the times are
    sample numbers; with ``-t`` the last two fields are the date and time."""
    header: list[str] | None = None
    host = Collector(source)
    first = True
    for n, line in enumerate(text.splitlines(), 1):
        if _HEADER.match(line):
            header = line.split()
            if "wa" not in header:  # the header matched on its first columns only
                host.say("header", f"line {n}: the header has no wa column; the samples under it are left out")
                header = None
            continue
        if header is None or not line.strip() or line.lstrip().startswith("procs"):
            continue
        cells = line.split()
        if len(cells) < len(header):
            host.say("fields", f"line {n} has {len(cells)} fields where the header has {len(header)}; left out")
            continue
        if first:
            first = False
            continue
        try:
            row = {h: number(c) for h, c in zip(header, cells, strict=False) if h in ("b", "wa")}
        except ReadError as exc:
            host.say("number", f"line {n}: {exc}; left out")
            continue
        host.add_host(Sample(float(len(host.host) + 1), {"blocked": row["b"], "iowait": row["wa"]}))
    if not host.host:
        return Reading(source, "vmstat 1", {}, [], [*host.missing,
                       f"{source}: no vmstat sample after the first line"], False)  # fmt: skip
    return host.reading("vmstat 1", [], False, ("the first line (averages since boot) is left out",))
