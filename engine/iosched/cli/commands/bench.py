"""``iosched bench DEVICE | --loop SIZE``: run fio over every scheduler the device offers."""

from __future__ import annotations

import argparse
import sys

from iosched.cli import path_argument, write
from iosched.vocab import GOALS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "bench", parents=[common], help="benchmark every scheduler of a device with fio (root)",
        description="Run fio over every I/O scheduler DEVICE offers, in rotated rounds with direct I/O, and "
        "write fio JSON per run plus a manifest into --output; then compare them. Writes happen only on a "
        "device without partitions, file systems or holders, unless --destructive. The original scheduler "
        "and its tunables are restored afterwards, also on error or Ctrl-C.",
    )  # fmt: skip
    p.add_argument("device", nargs="?", help="a block device name, e.g. sdb or nvme0n1")
    p.add_argument("--loop", metavar="SIZE", help="use a throw-away loop device of SIZE (e.g. 1G) instead")
    p.add_argument(
        "--output", type=path_argument, metavar="DIR", help="where results go (default: ./iosched-bench-DATE)"
    )
    p.add_argument(
        "--runtime", type=int, default=3, metavar="SECONDS", help="seconds per run (default 3; 30+ on real disks)"
    )
    p.add_argument("--rounds", type=int, help="rounds; every scheduler runs once per round (default: enough for a "
                   "verdict; with fewer than 4, no scheduler can be shown better)")  # fmt: skip
    p.add_argument("--size", metavar="SIZE", help="region of the device to use (default: all, at most 4G)")
    p.add_argument(
        "--workload",
        action="append",
        dest="workloads",
        metavar="NAME",
        help="only these workloads (a wrong name lists them)",
    )
    p.add_argument("--scheduler", action="append", dest="schedulers", metavar="SCHED", help="only these schedulers")
    p.add_argument(
        "--latency-iops", type=int, default=1000, metavar="N", help="rate of the latency probe (default 1000)"
    )
    p.add_argument("--destructive", action="store_true", help="allow writes to a device that holds data")
    p.add_argument(
        "--goal", choices=GOALS, default="throughput", help="objective for the verdict (default: throughput)"
    )
    p.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    from datetime import datetime

    from iosched.cli._results import load
    from iosched.escape import one_line
    from iosched.knowledge.kbcache import load_checked
    from iosched.measure import judge
    from iosched.measure.bench.device import parse_size
    from iosched.measure.bench.fiojobs import WORKLOADS
    from iosched.measure.bench.runner import ROUNDS, Config, run
    from iosched.render.verdict import text

    kb = load_checked(args.kb)
    output = args.output or path_argument(f"iosched-bench-{datetime.now():%Y%m%d-%H%M%S}")
    config = Config(
        device=args.device, loop_size=parse_size(args.loop) if args.loop else None, output=output,
        runtime=args.runtime, rounds=ROUNDS if args.rounds is None else args.rounds,
        size=parse_size(args.size) if args.size else None, workloads=args.workloads or [w.name for w in WORKLOADS],
        schedulers=args.schedulers, destructive=args.destructive, rate_iops=args.latency_iops,
    )  # fmt: skip
    directory, problems = run(config, _progress)
    for problem in problems:
        print(f"iosched: warning: {one_line(problem)}", file=sys.stderr)
    loaded = load(kb, [directory])
    write(text(judge(loaded.measurements, goal=args.goal, baseline=loaded.baseline, notes=loaded.notes)))
    write("")
    write(one_line(f"Results in {directory}/ (fio JSON per run and manifest.json); compare again with: "
                   f"iosched compare {directory}"))  # fmt: skip
    return 1 if problems else 0


def _progress(message: str) -> None:
    from iosched.escape import one_line

    end = "\r" if sys.stderr.isatty() and message.startswith("[") else "\n"
    print(f"\033[K{one_line(message)}" if end == "\r" else one_line(message), file=sys.stderr, end=end, flush=True)
