"""Start-up of everyday commands as a ratio to a bare interpreter (`python -c pass`).

Run: python bench/startup.py [--runs N]. Targets: advise, explain and list under 5 x a bare interpreter and
under 0.25 x `tuned-adm recommend` (compared when TuneD is installed: apt-get install tuned); `kb check` of an
unchanged KB under 10 x. Each command runs as a fresh process of the installed `iosched` script, after one
warm-up run that writes the byte-code and compiled-KB caches as a first use after installing would (the cold
KB cache is shown separately). Runs alternate with the bare interpreter (and `tuned-adm recommend`), and each
ratio is taken run by run, so that a machine whose speed drifts during the run does not move the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BARE = [sys.executable, "-c", "pass"]
COMMANDS = {  # name: (arguments, target as x bare)
    "advise --hw ssd --workload db": (["advise", "--hw", "ssd", "--workload", "db", "--format", "json"], 5),
    "advise --example pg-vm-ubuntu1604 (sh)": (["advise", "--example", "pg-vm-ubuntu1604", "--format", "sh"], 5),
    "explain mq-deadline.read_expire": (["explain", "mq-deadline.read_expire", "--format", "markdown"], 5),
    "list elevators": (["list", "elevators", "--format", "markdown"], 5),
    "kb check (unchanged KB)": (["kb", "check"], 10),
    "kb export": (["kb", "export"], None),
}


def once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as cold_cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["IOSCHED_CACHE_DIR"] = cache
        iosched = iosched_command()
        bare = statistics.median(once(BARE, env) for _ in range(args.runs))
        cold = once([*iosched, "kb", "export"], {**env, "IOSCHED_CACHE_DIR": cold_cache})
        print(f"bare interpreter: {bare * 1000:.1f} ms (median of {args.runs})")
        print(f"{'command':42} {'ms':>7} {'x bare':>7} {'target':>7}")
        print(f"{'kb export, cold cache (parse + validate)':42} {cold * 1000:7.1f} {cold / bare:7.1f}")
        tuned = shutil.which("tuned-adm")
        yardsticks = [BARE, [tuned, "recommend"]] if tuned else [BARE]
        if tuned:
            reference = statistics.median(once([tuned, "recommend"], env) for _ in range(args.runs))
            print(f"{'tuned-adm recommend (for comparison)':42} {reference * 1000:7.1f} {reference / bare:7.1f}")
        for name, (argv, target) in COMMANDS.items():
            once([*iosched, *argv], env)  # warm-up: byte-code and KB caches, as after an install
            took, ratios = paired([*iosched, *argv], env, args.runs, yardsticks)
            goal = f"< {target}" if target else ""
            versus = f" {ratios[1]:6.2f} x tuned-adm recommend" if tuned else ""
            print(f"{name:42} {took * 1000:7.1f} {ratios[0]:7.1f} {goal:>7}{versus}")


if __name__ == "__main__":
    main()
