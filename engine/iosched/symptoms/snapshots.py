"""Files that hold one or more snapshots of a /proc file, each after a clock line (``date +%s.%N``, ``date``)."""

from __future__ import annotations

from iosched.symptoms.clock import timestamp


def split(text: str, is_content: object) -> list[tuple[float | None, list[str]]]:
    """The snapshots in ``text``: a clock line starts a new one; ``is_content(line)`` says which other lines
    belong to a snapshot (the rest, such as prompts or blank lines, are skipped). A repeated first content
    line also starts a new snapshot, so snapshots pasted without clock lines still come apart."""
    out: list[tuple[float | None, list[str]]] = []
    stamp: float | None = None
    for line in text.splitlines():
        if (t := timestamp(line)) is not None:
            stamp = t
            out.append((t, []))
            continue
        if not is_content(line):  # type: ignore[operator]
            continue
        if not out or (out[-1][1] and out[-1][1][0].split()[:3] == line.split()[:3]):
            out.append((stamp if not out or out[-1][1] else None, []))
        out[-1][1].append(line)
    return [(t, lines) for t, lines in out if lines]
