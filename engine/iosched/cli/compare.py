"""``iosched compare FILES...``: read benchmark results, judge the schedulers, show the verdict."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from iosched.cli.output import format_option, write


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "compare",
        parents=[common],
        help="judge schedulers from benchmark results (fio, iozone, pgbench, dd, sysbench)",
        description="Read benchmark results and say which scheduler is better, if any, beyond the noise. "
        "FILE may be SCHED=FILE to name the scheduler of a file, or a directory written by 'iosched bench'.",
    )  # fmt: skip
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help="result files, SCHED=FILE, or bench directories")
    p.add_argument(
        "--baseline", metavar="SCHED", help="the scheduler to beat (default: the device's original, else the simplest)"
    )
    p.add_argument("--goal", choices=("throughput", "latency"), default="throughput", help="what the workload needs")
    p.add_argument("--scheduler", metavar="SCHED", help="the scheduler of files that do not say")
    p.add_argument("--points", action="store_true", help="also show the naive 2/1/0 points method and why it misleads")
    p.add_argument("--chart", type=Path, metavar="FILE.svg", help="write an SVG bar chart of the medians")
    p.add_argument(
        "--all-metrics",
        action="store_true",
        help="show every metric (default: per test the main throughput and latency metric)",
    )
    format_option(p)
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from iosched.errors import UsageError
    from iosched.measure import judge, load, points
    from iosched.measure.chart import svg

    if args.chart is not None and args.chart.suffix.lower() != ".svg":
        raise UsageError(f"--chart writes SVG; name the file *.svg (got {args.chart})")
    loaded = load(args.files, scheduler_hint=args.scheduler)
    judgement = judge(loaded.measurements, goal=args.goal, baseline=args.baseline or _known(loaded),
                      notes=loaded.notes)  # fmt: skip
    tally = points(loaded.measurements, goal=args.goal) if args.points else None
    if args.chart is not None:
        try:
            args.chart.write_text(svg(loaded.measurements), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.chart}: {exc.strerror or exc}") from None
    if args.format == "json":
        doc = judgement.to_json()
        if tally is not None:
            doc["points"] = {"totals": tally.totals, "winner": tally.winner, "awards": tally.awards,
                             "inside_noise": tally.inside_noise}  # fmt: skip
        write(json.dumps(doc, indent=2))
    elif args.format == "markdown":
        write(markdown(judgement, tally, everything=args.all_metrics))
    elif sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(markdown(judgement, tally, everything=args.all_metrics)))
    else:
        write(text(judgement, tally, everything=args.all_metrics))
    return 0


def _known(loaded) -> str | None:
    names = {m.scheduler for m in loaded.measurements}
    return loaded.baseline if loaded.baseline in names else None


def shown(judgement, everything: bool) -> set[tuple[str, str]]:
    """The (test, metric) pairs to show: all, or per test the main throughput and latency metric."""
    from iosched.measure.judge import GOALS, primary_metrics

    metrics: dict[str, set[str]] = {}
    for m in judgement.measurements:
        metrics.setdefault(m.test, set()).add(m.metric)
    if everything:
        return {(t, m) for t, names in metrics.items() for m in names}
    return {(t, m) for t, names in metrics.items() for goal in GOALS for m in primary_metrics(names, goal)}


def _rows(judgement, everything: bool = False):
    """Per test and metric: [(scheduler, median, cv, n, change, verdict, bar)], baseline first."""
    from statistics import fmean

    from iosched.measure.chart import medians, text_bars
    from iosched.measure.stats import cv

    keep = shown(judgement, everything)

    verdicts = {(v.test, v.metric, v.scheduler): v for v in judgement.verdicts}
    values: dict = {}
    units = {}
    for m in judgement.measurements:
        values.setdefault(m.key, {}).setdefault(m.scheduler, []).append(m.value)
        units[m.key] = (m.unit, m.direction)
    for key, row in medians(judgement.measurements).items():
        if key not in keep:
            continue
        bars = text_bars(row, 24)
        order = sorted(row, key=lambda s: (s != judgement.baseline, -row[s] if units[key][1] == "higher" else row[s]))
        lines = []
        for name in order:
            v = verdicts.get((*key, name))
            runs = values[key][name]
            change = "" if v is None or v.change is None else f"{v.change:+.1%}"
            verdict = "baseline" if name == judgement.baseline else (v.verdict if v else "-")
            spread = f"{cv(runs):.1%}" if len(runs) > 1 and fmean(runs) else "-"
            lines.append((name, row[name], spread, len(runs), change, verdict, bars[name]))
        yield key, units[key], lines


def text(judgement, tally, *, everything: bool = False) -> str:
    """Plain text: a ranking table with bars per test and metric, then the recommendation."""
    out = [_headline(judgement), ""]
    for (test, metric), (unit, direction), lines in _rows(judgement, everything):
        out.append(f"{test}  {metric} ({unit}, {direction} is better)")
        out.append(f"  {'scheduler':<12} {'median':>12} {'cv':>7} {'n':>3} {'change':>8}  {'verdict':<12}")
        for name, median, spread, n, change, verdict, bar in lines:
            out.append(f"  {name:<12} {median:>12,.6g} {spread:>7} {n:>3} {change:>8}  {verdict:<12} {bar}")
        out.append("")
    out.append(f"Recommendation: {judgement.recommendation}: {judgement.reason}")
    if not everything:
        out.append("(per test, the main throughput and latency metric; --all-metrics shows every metric)")
    out += _points_text(judgement, tally)
    out += [f"note: {n}" for n in judgement.notes]
    return "\n".join(out)


def markdown(judgement, tally, *, everything: bool = False) -> str:
    out = [f"# Scheduler comparison\n\n{_headline(judgement)}\n"]
    for (test, metric), (unit, direction), lines in _rows(judgement, everything):
        out.append(f"## {test}: {metric} ({unit}, {direction} is better)\n")
        out.append("| scheduler | median | cv | runs | change | verdict | |\n|---|--:|--:|--:|--:|---|---|")
        for name, median, spread, n, change, verdict, bar in lines:
            out.append(f"| {name} | {median:,.6g} | {spread} | {n} | {change} | {verdict} | `{bar}` |")
        out.append("")
    out.append(f"**Recommendation: {judgement.recommendation}**: {judgement.reason}\n")
    out += _points_text(judgement, tally)
    if judgement.notes:
        out.append("\nNotes:\n")
        out += [f"- {n}" for n in judgement.notes]
    return "\n".join(out)


def _headline(judgement) -> str:
    tests = sorted({m.test for m in judgement.measurements})
    runs = len({(m.source, m.scheduler, m.test, m.run) for m in judgement.measurements})
    if len(judgement.schedulers) == 1:
        return (f"Only {judgement.schedulers[0]} was measured ({runs} results in {len(tests)} test(s)): "
                "nothing to compare; the normalized measurements follow.")  # fmt: skip
    return (f"{len(judgement.schedulers)} schedulers ({', '.join(judgement.schedulers)}), {len(tests)} test(s); "
            f"baseline {judgement.baseline}; goal {judgement.goal}. A change counts only if it is beyond the "
            "run-to-run noise and significant by an exact test.")  # fmt: skip


def _points_text(judgement, tally) -> list[str]:
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
