"""Plain-text tables that fit a terminal: columns that do not fit go to a further block, never wrapped or cut.

Every cell stays whole (a device name or a scheduler list is copied from the screen as it is); a table wider
than the terminal is split into blocks of columns, each repeating the first column so a row can be followed.
"""

from __future__ import annotations

from collections.abc import Sequence

GAP = "  "


def text_table(rows: Sequence[Sequence[str]], width: int | None = None) -> str:
    """``rows`` (the first is the header) as aligned columns, split into blocks no wider than ``width``."""
    if not rows:
        return ""
    columns = len(rows[0])
    widths = [max(len(row[i]) for row in rows) for i in range(columns)]
    blocks: list[list[int]] = [[0]]
    for i in range(1, columns):
        used = sum(widths[j] for j in blocks[-1]) + len(GAP) * len(blocks[-1])
        if width is not None and len(blocks[-1]) > 1 and used + widths[i] > width:
            blocks.append([0])
        blocks[-1].append(i)
    return "\n\n".join(
        "\n".join(GAP.join(row[i].ljust(widths[i]) for i in block).rstrip() for row in rows) for block in blocks
    )
