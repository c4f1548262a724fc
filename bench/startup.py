"""Start-up of everyday commands as a ratio to a bare interpreter (`python -c pass`).

Run: python bench/startup.py [--runs N] [--no-instructions]. Targets: advise, explain and list at most 3 x a
bare interpreter and under 0.25 x `tuned-adm recommend` (compared when TuneD is installed: apt-get install
tuned); `kb check` of an unchanged KB at most 5 x. Two measures: paired wall time, and, where valgrind is
installed, instructions executed (callgrind, PYTHONHASHSEED=0), which a busy machine does not move. Each
command runs as a fresh process of the installed `iosched` script, after one warm-up run that writes the
byte-code and compiled-KB caches as a first use after installing would (the cold KB cache is shown separately).
Runs alternate with the bare interpreter (and `tuned-adm recommend`), and each ratio is taken run by run, so
that a machine whose speed drifts during the run does not move the ratios.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BARE = [sys.executable, "-c", "pass"]
COMMANDS = {  # name: (arguments, target as x bare)
    "advise --hw ssd --workload db": (["advise", "--hw", "ssd", "--workload", "db", "--format", "json"], 3),
    "advise --example pg-vm-ubuntu1604 (sh)": (["advise", "--example", "pg-vm-ubuntu1604", "--format", "sh"], 3),
    "explain mq-deadline.read_expire": (["explain", "mq-deadline.read_expire", "--format", "markdown"], 3),
    "list elevators": (["list", "elevators", "--format", "markdown"], 3),
    "kb check (unchanged KB)": (["kb", "check"], 5),
    "kb export": (["kb", "export"], None),
}


def once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def instructions(argv: list[str], env: dict[str, str]) -> int | None:
    """Instructions one run executes, counted by valgrind's callgrind (None without valgrind)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                          env={**env, "PYTHONHASHSEED": "0"}, capture_output=True, text=True, check=True)  # fmt: skip
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


def paired(argv: list[str], env: dict[str, str], runs: int, yardsticks: list[list[str]]) -> tuple[float, list[float]]:
    """Median seconds of ``argv`` and its median ratio to each yardstick, run in alternation with them."""
    seconds: list[float] = []
    ratios: list[list[float]] = [[] for _ in yardsticks]
    for _ in range(runs):
        times = [once(y, env) for y in yardsticks]
        took = once(argv, env)
        seconds.append(took)
        for found, t in zip(ratios, times, strict=True):
            found.append(took / t)
    return statistics.median(seconds), [statistics.median(r) for r in ratios]


def iosched_command() -> list[str]:
    """The installed console script beside this interpreter (what users run), else ``python -m iosched``."""
    script = os.path.join(os.path.dirname(sys.executable), "iosched")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "iosched"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", metavar="TEXT", help="only the commands whose name holds TEXT")
    parser.add_argument("--no-instructions", dest="instructions", action="store_false",
                        help="skip the instruction counts (each takes a second or two under valgrind)")  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as cold_cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["IOSCHED_CACHE_DIR"] = cache
        iosched = iosched_command()
        bare = statistics.median(once(BARE, env) for _ in range(args.runs))
        cold = once([*iosched, "kb", "export"], {**env, "IOSCHED_CACHE_DIR": cold_cache})
        bare_count = instructions(BARE, env) if args.instructions else None
        counted = f", {bare_count / 1e6:.1f}M instructions" if bare_count else ""
        print(f"bare interpreter: {bare * 1000:.1f} ms (median of {args.runs}){counted}")
        print(f"{'command':42} {'ms':>7} {'x bare':>7} {'target':>7} {'Minstr':>7} {'x bare':>7}")
        print(f"{'kb export, cold cache (parse + validate)':42} {cold * 1000:7.1f} {cold / bare:7.1f}")
        tuned = shutil.which("tuned-adm")
        yardsticks = [BARE, [tuned, "recommend"]] if tuned else [BARE]
        if tuned:
            reference = statistics.median(once([tuned, "recommend"], env) for _ in range(args.runs))
            print(f"{'tuned-adm recommend (for comparison)':42} {reference * 1000:7.1f} {reference / bare:7.1f}")
        for name, (argv, target) in COMMANDS.items():
            if args.only and args.only not in name:
                continue
            once([*iosched, *argv], env)  # warm-up: byte-code and KB caches, as after an install
            took, ratios = paired([*iosched, *argv], env, args.runs, yardsticks)
            goal = f"<= {target}" if target else ""
            count = instructions([*iosched, *argv], env) if bare_count else None
            counts = f" {count / 1e6:7.1f} {count / bare_count:7.2f}" if count and bare_count else ""
            versus = f" {ratios[1]:6.2f} x tuned-adm recommend" if tuned else ""
            print(f"{name:42} {took * 1000:7.1f} {ratios[0]:7.2f} {goal:>7}{counts}{versus}")


if __name__ == "__main__":
    main()
