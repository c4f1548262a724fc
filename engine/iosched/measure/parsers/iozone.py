"""iozone's text report: the auto-mode table, throughput mode ("Children see ...") and ``-R`` blocks."""

from __future__ import annotations

import re

from iosched.measure.measurements import Direction
from iosched.measure.parsers.common import KIB, Parsed, number, slug

_UNIT = re.compile(r"Output is in\s+(kBytes/sec|Kbytes/sec|KB/sec|ops/sec|microseconds/op)", re.IGNORECASE)
_CHILDREN = re.compile(r"^\s*Children see throughput for\s+(\d+)\s+(.+?)\s*=\s*([\d.]+)\s+(\S+)", re.MULTILINE)
_REPORT = re.compile(r'^\s*"([^"]+) report"\s*$', re.MULTILINE)
_QUOTED = re.compile(r'"\s*([^"]*?)\s*"')
_HEADER = re.compile(r"^(\s*)(kB|KB)\s+reclen\s+.*$", re.MULTILINE)


def looks_like(text: str) -> bool:
    return bool(
        "Iozone: Performance Test" in text or _CHILDREN.search(text) or "Excel output is below" in text
        or _HEADER.search(text) or re.search(r'^\s*"Writer report"', text, re.MULTILINE)
    )  # fmt: skip


def _unit(word: str) -> tuple[str, str, float, Direction]:
    """(metric, unit, factor, direction) for an iozone unit word."""
    word = word.lower()
    if word.startswith("ops"):
        return "ops", "ops/s", 1.0, "higher"
    if word.startswith("micro"):
        return "time_per_op", "us", 1.0, "lower"
    return "bw", "MiB/s", 1.0 / KIB, "higher"  # iozone's kB is 1024 bytes


def parse(text: str) -> Parsed:
    parsed = Parsed()
    unit_match = _UNIT.search(text)
    default = _unit(unit_match.group(1) if unit_match else "kBytes/sec")
    for match in _CHILDREN.finditer(text):
        metric, unit, factor, direction = _unit(match.group(4))
        value = number(match.group(3))
        if value is not None:
            name = re.sub(r"\s+", " ", match.group(2))
            parsed.add(f"{name} x{match.group(1)}", metric, value * factor, unit, direction)
    if parsed.measurements:
        return parsed
    _excel(text, parsed, default)
    if not parsed.measurements:
        _table(text, parsed, default)
    return parsed


def _excel(text: str, parsed: Parsed, unit: tuple[str, str, float, Direction]) -> None:
    """``-R`` auto-mode blocks: a title, a row of record sizes, then one row per file size (ragged)."""
    metric, unit_name, factor, direction = unit
    lines = text.splitlines()
    for index, line in enumerate(lines):
        title = _REPORT.match(line)
        if not title or title.group(1).lower().startswith("throughput"):
            continue
        header = next((lines[j] for j in range(index + 1, min(index + 3, len(lines))) if lines[j].strip()), "")
        records = [number(r) for r in _QUOTED.findall(header)]
        row_index = lines.index(header, index + 1) + 1 if header else len(lines)
        while row_index < len(lines) and (row := re.match(r'^\s*"\s*(\d+)\s*"(.*)$', lines[row_index])):
            values = [number(v) for v in row.group(2).split()]
            for record, value in zip(records, values, strict=False):
                if record is not None and value is not None:
                    test = f"{slug(title.group(1))} {row.group(1)}k/{int(record)}k"
                    parsed.add(test, metric, value * factor, unit_name, direction)
            row_index += 1


def _table(text: str, parsed: Parsed, unit: tuple[str, str, float, Direction]) -> None:
    """The auto-mode table. Blank cells are common, so cells are placed by their right edge under
    the right-aligned column headings (two header lines: ``random``/``read`` and so on)."""
    metric, unit_name, factor, direction = unit
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if not _HEADER.match(line):
            continue
        above = lines[index - 1] if index else ""
        columns = []
        for word in re.finditer(r"\S+", line):
            end = word.end()
            prefix = next((w.group() for w in re.finditer(r"\S+", above) if abs(w.end() - end) <= 1), "")
            columns.append((end, f"{prefix} {word.group()}".strip()))
        for row in lines[index + 1 :]:
            cells = list(re.finditer(r"\S+", row))
            if not cells or not all(number(c.group()) is not None for c in cells):
                break
            placed = {}
            for cell in cells:
                end, name = min(columns, key=lambda col: abs(col[0] - cell.end()))
                placed[name] = number(cell.group())
            size, record = placed.pop("kB", placed.pop("KB", None)), placed.pop("reclen", None)
            if size is None or record is None:
                continue
            for name, value in placed.items():
                if value is not None:
                    parsed.add(f"{slug(name)} {int(size)}k/{int(record)}k", metric, value * factor, unit_name,
                               direction)  # fmt: skip
