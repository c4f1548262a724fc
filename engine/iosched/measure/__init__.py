"""Benchmark results: read them, judge schedulers soundly, and run the benchmark.

Public API (used by ``iosched compare``, ``iosched bench`` and ``iosched advise --results``):

``load_results(paths, *, scheduler_hint=None) -> list[Measurement]``
    Read fio JSON/json+/terse, iozone, iozone-scheduler logs, pgbench, dd and sysbench fileio
    output, ``SCHED=PATH`` arguments, bench output directories and their ``manifest.json``.
    Raises ``iosched.errors.UsageError`` (one line) for unreadable or unrecognised files.
``load(paths, *, scheduler_hint=None) -> Loaded``
    The same, with the parsers' notes and the baseline a bench manifest recorded.
``judge(measurements, *, goal="throughput", baseline=None) -> Judgement``
    Verdicts (better/worse/tie/insufficient) of every scheduler against the baseline per test and
    metric, and a recommendation: the baseline unless a candidate is significantly better beyond
    the noise on the goal's primary metrics and worse on none of its guard rails.
    ``Judgement.to_json()`` is the JSON contract of ``iosched compare --format json``.
``points(measurements)``
    The seed's naive 2/1/0 points method, for showing side by side why it misleads.

Scheduler attribution, strongest first: fio's ``ioscheduler`` job option (or an ``echo NAME >
.../queue/scheduler`` line before a run in a transcript); ``SCHED=PATH`` or ``scheduler_hint``;
a bench manifest; a scheduler name as a whole token in the file name (longest match first).
"""

from __future__ import annotations

from pathlib import Path

from iosched.measure.judge import judge
from iosched.measure.loader import Loaded, load
from iosched.measure.model import Judgement, Measurement, Verdict
from iosched.measure.points import Points, points

__all__ = ["Judgement", "Loaded", "Measurement", "Points", "Verdict", "judge", "load", "load_results", "points"]


def load_results(paths: list[Path], *, scheduler_hint: str | None = None) -> list[Measurement]:
    """Normalized measurements from result files; see the module docstring."""
    return list(load(paths, scheduler_hint=scheduler_hint).measurements)
