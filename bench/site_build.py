"""Build time of the whole reference site, as a ratio to a one-page site with the same theme.

Run: python bench/site_build.py [--runs N] [--keep DIR]. Each build is a fresh ``mkdocs build --strict`` process
into a temporary directory (the last full build into DIR with ``--keep``: the test suite builds its one site this
way); the KB cache is warmed first. Also shows the time of the page generator alone, as each full build logs it.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = """site_name: baseline
theme: {name: material, font: false}
plugins: [search]
"""


def timed(argv: list[str], runs: int, env: dict[str, str]) -> tuple[float, list[str]]:
    """Median seconds of ``runs`` runs of ``argv``, and the log of each; a failed run ends the script with its
    output."""
    samples, logs = [], []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed:\n{done.stdout[-2000:]}{done.stderr[-4000:]}")
        logs.append(done.stdout + done.stderr)
    return statistics.median(samples), logs


def generator_time(logs: list[str]) -> tuple[float, int]:
    """Median seconds of the page generator and its page count, as the builds that wrote ``logs`` said."""
    from iosched.sitegen.hooks import GENERATED_LOG

    line = re.compile(re.escape(GENERATED_LOG).replace("%d", r"(\d+)").replace("%\\.0f", r"(\d+)"))
    found = [m for m in map(line.search, logs) if m]
    if len(found) != len(logs):
        sys.exit(f"a full build did not say how long its page generator took:\n{logs[-1][-2000:]}")
    return statistics.median(int(m[2]) for m in found) / 1000, int(found[-1][1])


def main() -> None:
    from iosched.knowledge.kbcache import load_checked

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="build the full site into DIR and leave it there")
    args = parser.parse_args()
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        (base / "docs").mkdir(parents=True)
        (base / "docs" / "index.md").write_text("# Baseline\n\nOne page.\n")
        (base / "mkdocs.yml").write_text(BASELINE)
        out = args.keep or str(Path(tmp) / "out")
        full_cmd = [mkdocs, "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", out]
        load_checked()  # the compiled-KB cache the site's build reads, written as a first command would write it
        baseline, _ = timed([mkdocs, "build", "-q", "-f", str(base / "mkdocs.yml"), "-d", str(base / "out")],
                            args.runs, env)  # fmt: skip
        full, logs = timed(full_cmd, args.runs, env)
        pages = sum(1 for _ in Path(out).rglob("*.html"))
    generate, generated = generator_time(logs)
    print(f"one-page material site:  {baseline * 1000:8.0f} ms (median of {args.runs})")
    print(f"full site build:         {full * 1000:8.0f} ms, {pages} HTML pages, {full / baseline:.1f} x one-page site")
    print(f"page generator alone:    {generate * 1000:8.0f} ms, {generated} Markdown pages from the KB")


if __name__ == "__main__":
    main()
