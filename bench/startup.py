"""Start-up of everyday commands as a ratio to a bare interpreter (`python -c pass`).

Run: python bench/startup.py [--runs N]. Targets: advise, explain and list under 5 x a bare interpreter and
under 0.25 x `tuned-adm recommend` (compared when TuneD is installed: apt-get install tuned). Each command
runs as a fresh process, after one warm-up run that writes the byte-code and compiled-KB caches as a first
use after installing would (the cold KB cache is shown separately).
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

COMMANDS = {
    "explain mq-deadline.read_expire": ["explain", "mq-deadline.read_expire", "--format", "markdown"],
    "list elevators": ["list", "elevators", "--format", "markdown"],
    "kb export": ["kb", "export"],
    "advise --hw ssd --workload db": ["advise", "--hw", "ssd", "--workload", "db", "--format", "json"],
    "advise --example pg-vm-ubuntu1604 (sh)": ["advise", "--example", "pg-vm-ubuntu1604", "--format", "sh"],
}


def timed(argv: list[str], env: dict[str, str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["IOSCHED_CACHE_DIR"] = cache
        iosched = [sys.executable, "-m", "iosched"]
        bare = timed([sys.executable, "-c", "pass"], env, args.runs)
        cold = timed([*iosched, "kb", "export"], {**env, "IOSCHED_CACHE_DIR": tempfile.mkdtemp()}, 1)
        print(f"bare interpreter: {bare * 1000:.1f} ms (median of {args.runs})")
        print(f"{'command':45} {'ms':>8} {'x bare':>8}")
        print(f"{'kb export, cold cache (parse + validate)':45} {cold * 1000:8.1f} {cold / bare:8.1f}")
        tuned = shutil.which("tuned-adm")
        reference = timed([tuned, "recommend"], env, args.runs) if tuned else None
        if reference:
            print(f"{'tuned-adm recommend (for comparison)':45} {reference * 1000:8.1f} {reference / bare:8.1f}")
        for name, argv in COMMANDS.items():
            timed([*iosched, *argv], env, 1)  # warm-up: byte-code and KB caches, as after an install
            t = timed([*iosched, *argv], env, args.runs)
            versus = f" {t / reference:8.2f} x tuned-adm recommend" if reference else ""
            print(f"{name:45} {t * 1000:8.1f} {t / bare:8.1f}{versus}")


if __name__ == "__main__":
    main()
