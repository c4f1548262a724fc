"""A judgement of schedulers as plain text, Markdown or an SVG chart (``iosched compare`` and ``bench``).

Per test and metric a table ranks the schedulers, baseline first, with the median, the spread, the ratio
to the baseline (``x1.25``: the candidate's median is 1.25 times the baseline's) and the verdict; each
table says whether higher or lower is better, so a ratio reads the way the metric does. Test names,
notes and reasons may come from result files: they are escaped for the target.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from statistics import fmean
from typing import TYPE_CHECKING, Any

from iosched.escape import markdown_block, markdown_cell, one_line

if TYPE_CHECKING:
    from iosched.measure.measurements import Judgement

BAR_WIDTH = 24
Row = tuple[str, float, str, int, str, str, str]  # scheduler, median, cv, runs, ratio, verdict, bar


def shown(judgement: Judgement, everything: bool) -> set[tuple[str, str]]:
    """The (test, metric) pairs to show: all, or per test the metrics that speak for any goal."""
    from iosched.measure.judging.judgement import primary_metrics
    from iosched.vocab import GOALS

    metrics: dict[str, set[str]] = {}
    for m in judgement.measurements:
        metrics.setdefault(m.test, set()).add(m.metric)
    if everything:
        return {(t, m) for t, names in metrics.items() for m in names}
    return {(t, m) for t, names in metrics.items() for goal in GOALS for m in primary_metrics(names, goal)}


def text_bars(row: dict[str, float], width: int = BAR_WIDTH) -> dict[str, str]:
    """A bar of '#' per scheduler, scaled to the largest value."""
    top = max(row.values(), default=0) or 1
    return {name: "#" * max(1, round(width * value / top)) if value > 0 else "" for name, value in row.items()}


def _tables(judgement: Judgement, everything: bool) -> Iterator[tuple[tuple[str, str], tuple[str, str], list[Row]]]:
    """Per shown test and metric: the key, (unit, 'higher is better'), and the rows, baseline first."""
    from iosched.measure.judging.judgement import better_word
    from iosched.measure.judging.stats import cv, medians

    keep = shown(judgement, everything)
    verdicts = {(v.test, v.metric, v.scheduler): v for v in judgement.verdicts}
    values: dict[tuple[str, str], dict[str, list[float]]] = {}
    units = {}
    for m in judgement.measurements:
        values.setdefault(m.key, {}).setdefault(m.scheduler, []).append(m.value)
        units[m.key] = (m.unit, m.direction)
    for key, row in medians(judgement.measurements).items():
        if key not in keep:
            continue
        unit, direction = units[key]
        bars = text_bars(row)
        order = sorted(row, key=lambda s: (s != judgement.baseline, -row[s] if direction == "higher" else row[s]))
        lines: list[Row] = []
        for name in order:
            v = verdicts.get((*key, name))
            runs = values[key][name]
            ratio = "" if v is None or v.ratio is None else f"x{v.ratio:.3g}"
            verdict = "baseline" if name == judgement.baseline else (v.verdict if v else "-")
            spread = f"{cv(runs):.1%}" if len(runs) > 1 and fmean(runs) else "-"
            lines.append((name, row[name], spread, len(runs), ratio, verdict, bars[name]))
        yield key, (unit, better_word(direction)), lines


def text(judgement: Judgement, tally: Any = None, *, everything: bool = False) -> str:
    """Plain text: a ranking table with bars per test and metric, then the recommendation."""
    out = [_headline(judgement, one_line), ""]
    for (test, metric), (unit, better), lines in _tables(judgement, everything):
        out.append(f"{one_line(test)}  {metric} ({unit}, {better})")
        out.append(f"  {'scheduler':<12} {'median':>12} {'cv':>7} {'n':>3} {'vs base':>8}  {'verdict':<12}")
        for name, median, spread, n, ratio, verdict, bar in lines:
            out.append(f"  {name:<12} {median:>12,.6g} {spread:>7} {n:>3} {ratio:>8}  {verdict:<12} {bar}")
        out.append("")
    out.append(one_line(f"Recommendation: {judgement.recommendation}: {judgement.reason}"))
    out.append("(vs base: the median divided by the baseline's; whether higher or lower is better is in each heading)")
    if not everything:
        out.append("(per test, the metrics each goal is judged on; --all-metrics shows every metric)")
    out += _points(judgement, tally)
    out += [one_line(f"note: {n}") for n in judgement.notes]
    return "\n".join(out)


def markdown(judgement: Judgement, tally: Any = None, *, everything: bool = False) -> str:
    """The same as Markdown: a section and a table per test and metric."""
    out = [f"# Scheduler comparison\n\n{_headline(judgement, _markdown)}\n"]
    for (test, metric), (unit, better), lines in _tables(judgement, everything):
        out.append(f"## {_markdown(f'{test}: {metric} ({unit}, {better})')}\n")
        out.append("| scheduler | median | cv | runs | vs baseline | verdict | |\n|---|--:|--:|--:|--:|---|---|")
        for name, median, spread, n, ratio, verdict, bar in lines:
            out.append(f"| {markdown_cell(name)} | {median:,.6g} | {spread} | {n} | {ratio} | {verdict} | `{bar}` |")
        out.append("")
    out.append(f"**Recommendation: {_markdown(str(judgement.recommendation))}**: {_markdown(judgement.reason)}\n")
    out += [_markdown(line) if line else "" for line in _points(judgement, tally)]
    if judgement.notes:
        out.append("\nNotes:\n")
        out += [f"- {_markdown(n)}" for n in judgement.notes]
    return "\n".join(out)


def chart(judgement: Judgement, *, everything: bool = False) -> str:
    """A standalone SVG of the medians: a panel per shown test and metric, a bar per scheduler."""
    from iosched.render.chart import bar_chart

    tables = list(_tables(judgement, everything))
    columns = [f"{test}: {metric} ({unit}, {better})" for (test, metric), (unit, better), _ in tables]
    medians = [{name: median for name, median, *_ in lines} for *_, lines in tables]
    rows = [(name, [m.get(name) for m in medians]) for name in judgement.schedulers]
    return bar_chart(columns, rows, "I/O schedulers compared (medians)", background="white") + "\n"


def _markdown(text: str) -> str:
    """Text that may come from a file, as one line of Markdown that shows exactly it."""
    return markdown_block(one_line(text))


def _headline(judgement: Judgement, escape: Callable[[str], str]) -> str:
    tests = sorted({m.test for m in judgement.measurements})
    runs = len({(m.source, m.scheduler, m.test, m.run) for m in judgement.measurements})
    if len(judgement.schedulers) == 1:
        return escape(f"Only {judgement.schedulers[0]} was measured ({runs} results in {len(tests)} test(s)): "
                      "nothing to compare; the normalized measurements follow.")  # fmt: skip
    return escape(f"{len(judgement.schedulers)} schedulers ({', '.join(judgement.schedulers)}), {len(tests)} "
                  f"test(s); baseline {judgement.baseline}; goal {judgement.goal}. A change counts only if it is "
                  "beyond the run-to-run noise and significant by an exact test.")  # fmt: skip


def _points(judgement: Judgement, tally: Any) -> list[str]:
    if tally is None:
        return []
    totals = ", ".join(f"{name} {score}" for name, score in tally.totals.items())
    winner = tally.winner or "a tie"
    return [
        "",
        f"Naive points method (2/1/0 per run and test, as in the iozone-scheduler blog): {totals}; winner: {winner}.",
        f"  {tally.inside_noise} of its {tally.awards} rank decisions separated schedulers by less than the "
        "run-to-run noise;",
        "  it ignores how large a difference is, counts tests by number rather than importance, never says",
        "  'keep the default', and changes when another scheduler is added.",
        f"  The verdict above: {judgement.recommendation}.",
    ]
