"""``iosched probe`` on the live root and on each capture, as a ratio to a bare interpreter (`python -c pass`).

Run: python bench/probe.py [--runs N]. The whole command runs as a fresh process (after a warm-up that writes
the byte-code and KB caches); the reader alone is timed in this process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CAPTURES = Path(__file__).resolve().parents[1] / "tests/observe/captures"


def timed(argv: list[str], env: dict[str, str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def reader_ms(root: Path, runs: int) -> float:
    from iosched.observe.reader import read_root

    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        read_root(root)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    roots = [Path("/"), *sorted(p for p in CAPTURES.iterdir() if p.is_dir())]
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["IOSCHED_CACHE_DIR"] = cache
        bare = timed([sys.executable, "-c", "pass"], env, args.runs)
        print(f"bare interpreter: {bare * 1000:.1f} ms (median of {args.runs})")
        print(f"{'root':32} {'command ms':>10} {'x bare':>7} {'reader ms':>10}")
        for root in roots:
            argv = [sys.executable, "-m", "iosched", "probe", "--root", str(root), "--format", "json"]
            timed(argv, env, 1)  # warm-up: byte-code and KB caches, as after an install
            seconds = timed(argv, env, args.runs)
            label = "/ (live)" if root == Path("/") else root.name
            print(f"{label:32} {seconds * 1000:10.1f} {seconds / bare:7.1f} {reader_ms(root, args.runs):10.1f}")


if __name__ == "__main__":
    main()
