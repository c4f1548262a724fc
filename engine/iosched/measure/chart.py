"""Charts of medians per scheduler: a plain-text bar chart and a standalone SVG (no dependencies)."""

from __future__ import annotations

from collections import defaultdict
from html import escape
from statistics import median

from iosched.measure.model import Measurement

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f")


def medians(measurements: list[Measurement] | tuple[Measurement, ...]) -> dict[tuple[str, str], dict[str, float]]:
    """{(test, metric): {scheduler: median}} in a stable order."""
    values: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for m in measurements:
        values[m.key][m.scheduler].append(m.value)
    return {k: {s: median(v) for s, v in sorted(by.items())} for k, by in sorted(values.items())}


def text_bars(row: dict[str, float], width: int = 30) -> dict[str, str]:
    """A bar of '#' per scheduler, scaled to the largest value."""
    top = max(row.values(), default=0) or 1
    return {name: "#" * max(1, round(width * value / top)) if value > 0 else "" for name, value in row.items()}


def svg(measurements: list[Measurement] | tuple[Measurement, ...], metrics: list[tuple[str, str]] | None = None,
        title: str = "I/O schedulers compared (medians)") -> str:  # fmt: skip
    """An SVG document: one panel per test and metric, a horizontal bar per scheduler."""
    table = medians(measurements)
    keys = [k for k in (metrics or list(table)) if k in table]
    units = {m.key: m.unit for m in measurements}
    schedulers = sorted({s for k in keys for s in table[k]})
    colour = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(schedulers)}
    bar, gap, label_w, plot_w, left = 18, 4, 150, 420, 20
    y = 50
    parts = []
    for key in keys:
        row = table[key]
        top = max(row.values(), default=0) or 1
        parts.append(f'<text x="{left}" y="{y}" font-weight="bold">{escape(key[0])}: {escape(key[1])} '
                     f"({escape(units.get(key, ''))})</text>")  # fmt: skip
        y += 10
        for name, value in row.items():
            w = max(1.0, plot_w * value / top)
            parts.append(f'<text x="{left}" y="{y + bar - 5}">{escape(name)}</text>')
            parts.append(f'<rect x="{left + label_w}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour[name]}"/>')
            parts.append(f'<text x="{left + label_w + w + 6:.1f}" y="{y + bar - 5}">{value:,.4g}</text>')
            y += bar + gap
        y += 24
    height = y + 10
    width = left + label_w + plot_w + 110
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">')  # fmt: skip
    body = "\n".join(parts)
    return (f'{head}\n<rect width="100%" height="100%" fill="white"/>\n'
            f'<text x="{left}" y="24" font-size="16">{escape(title)}</text>\n{body}\n</svg>\n')  # fmt: skip
