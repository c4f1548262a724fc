"""``iosched compare FILES...``: read benchmark results, judge the schedulers, show the verdict."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from iosched.cli import format_option, path_argument, stdout_columns, write_rendered
from iosched.render import documents, formats
from iosched.vocab import GOALS

if TYPE_CHECKING:
    from iosched.measure.parsers.loader import Loaded


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "compare",
        parents=[common],
        help="judge schedulers from benchmark results (fio, iozone, pgbench, dd, sysbench)",
        description="Read benchmark results and say which scheduler is better, if any, beyond the noise. "
        "FILE may be SCHED=FILE to name the scheduler of a file, or a directory written by 'iosched bench'.",
    )  # fmt: skip
    p.add_argument(
        "files", nargs="+", type=path_argument, metavar="FILE", help="result files, SCHED=FILE, or bench directories"
    )
    p.add_argument(
        "--baseline", metavar="SCHED", help="the scheduler to beat (default: the device's original, else the simplest)"
    )
    p.add_argument("--goal", choices=GOALS, default="throughput", help="what the workload needs (default: throughput)")
    p.add_argument("--scheduler", metavar="SCHED", help="the scheduler of files that do not say")
    p.add_argument("--points", action="store_true", help="also show the naive 2/1/0 points method and why it misleads")
    p.add_argument("--chart", type=path_argument, metavar="FILE.svg", help="write an SVG bar chart of the medians")
    p.add_argument(
        "--all-metrics",
        action="store_true",
        help="show every metric (default: per test the metrics each goal is judged on)",
    )
    format_option(p, formats.COMPARISON)
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from iosched.cli._results import load
    from iosched.errors import UsageError
    from iosched.knowledge.kbcache import load_checked
    from iosched.measure import judge, points
    from iosched.render import verdict

    if args.chart is not None and args.chart.suffix.lower() != ".svg":
        raise UsageError(f"--chart writes SVG; name the file *.svg (got {args.chart})")
    kb = load_checked(args.kb)
    loaded = load(kb, args.files, args.scheduler)
    judgement = judge(loaded.measurements, goal=args.goal, baseline=args.baseline or _known(loaded),
                      notes=loaded.notes, intervals=args.format == "json")  # fmt: skip
    tally = points(loaded.measurements, goal=args.goal) if args.points else None
    if args.chart is not None:
        try:
            args.chart.write_text(verdict.chart(judgement, everything=args.all_metrics), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.chart}: {exc.strerror or exc}") from None
    compared = documents.Compared(judgement=judgement, tally=tally, everything=args.all_metrics)
    options = formats.Options(terminal=stdout_columns())
    write_rendered(formats.COMPARISON.render(kb, compared, args.format, options), args.format)
    return 0


def _known(loaded: Loaded) -> str | None:
    names = {m.scheduler for m in loaded.measurements}
    return loaded.baseline if loaded.baseline in names else None
