"""Offline bar charts as SVG: one panel per column, one bar per row, each panel on its own scale; and the same
data as text sparklines, for a ticket, which shows inline SVG as raw text.

The site inlines the SVG in evidence pages; ``iosched compare --chart`` and ``iosched diagnose --chart`` write
standalone files. Every label passes ``escape.xml_text``, so text from a result file cannot break out of the SVG.
"""

from __future__ import annotations

from collections.abc import Sequence

from iosched.escape import xml_text as escape

WIDTH = 640
LABEL_W = 170
VALUE_W = 70
BAR_H = 16
GAP = 4
TITLE_H = 22
PALETTE = ("#3f6ec6", "#e0823d", "#4aa564", "#c44e52", "#8c6bb1", "#937860", "#d17ab8", "#7f7f7f")

Number = int | float | None


def _fmt(value: float) -> str:
    return f"{value:,.6g}" if isinstance(value, float) else f"{value:,}"


def _panel(title: str, labels: Sequence[str], values: Sequence[Number], top: float) -> list[str]:
    present = [v for v in values if v is not None]
    low, high = min(0, *present) if present else 0, max(0, *present) if present else 0
    span = (high - low) or 1
    plot_w = WIDTH - LABEL_W - VALUE_W
    zero = LABEL_W + plot_w * (0 - low) / span
    out = [f'<text x="0" y="{top + 15:.0f}" font-weight="bold">{escape(title)}</text>']
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = top + TITLE_H + i * (BAR_H + GAP)
        out.append(f'<text x="{LABEL_W - 6}" y="{y + 12:.0f}" text-anchor="end">{escape(label)}</text>')
        if value is None:
            out.append(f'<text x="{LABEL_W}" y="{y + 12:.0f}" opacity="0.6">no value</text>')
            continue
        end = LABEL_W + plot_w * (value - low) / span
        x, w = min(zero, end), abs(end - zero)
        colour = PALETTE[i % len(PALETTE)]
        out.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.0f}" width="{w:.1f}" height="{BAR_H}" fill="{colour}">'
            f"<title>{escape(label)}: {escape(_fmt(value))}</title></rect>"
        )
        out.append(f'<text x="{max(zero, end) + 4:.1f}" y="{y + 12:.0f}">{escape(_fmt(value))}</text>')
    return out


def bar_chart(
    columns: Sequence[str], rows: Sequence[tuple[str, Sequence[Number]]], caption: str, *, background: str = ""
) -> str:
    """An SVG (one line per element, no blank lines, so Markdown keeps it as raw HTML). Text takes the
    page's colour; a standalone file passes ``background`` (e.g. ``white``) to be readable anywhere."""
    labels = [label for label, _ in rows]
    panel_h = TITLE_H + len(rows) * (BAR_H + GAP) + 10
    height = 24 + panel_h * len(columns)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
        f'height="{height}" style="max-width:100%;height:auto" font-size="12" font-family="sans-serif" '
        f'fill="{"black" if background else "currentColor"}">',
        f"<title>{escape(caption)}</title>",
        *([f'<rect width="100%" height="100%" fill="{escape(background)}" stroke="none"/>'] if background else []),
        f'<text x="0" y="14" opacity="0.7">{escape(caption)}</text>',
    ]
    for c, column in enumerate(columns):
        parts += _panel(column, labels, [values[c] for _, values in rows], 24 + c * panel_h)
    parts.append("</svg>")
    return "\n".join(parts)


SPARKS = "▁▂▃▄▅▆▇█"


def sparklines(columns: Sequence[str], rows: Sequence[tuple[str, Sequence[Number]]]) -> list[str]:
    """One text line per column: its name, a sparkline of its rows (each on the column's own scale from 0; a
    blank where a row has no value), the lowest and highest value, and the first and last row's labels."""
    width = max((len(c) for c in columns), default=0)
    span = f"{rows[0][0]} .. {rows[-1][0]}" if rows else ""
    lines = []
    for c, column in enumerate(columns):
        values = [r[1][c] for r in rows]
        present = [v for v in values if v is not None]
        high = max(present, default=0) or 1
        marks = "".join(" " if v is None else SPARKS[min(len(SPARKS) - 1, int(max(v, 0) / high * len(SPARKS)))]
                        for v in values)  # fmt: skip
        low_high = f"{_fmt(min(present))} .. {_fmt(max(present))}" if present else "no value"
        lines.append(f"{column:<{width}} |{marks}| {low_high} ({span})")
    return lines
