"""Benchmark results: read them, judge schedulers soundly, and run the benchmark.

Public API (used by ``iosched compare``, ``iosched bench`` and ``iosched advise --results``):

``load(paths, *, names, scheduler_hint=None) -> Loaded``
    Read fio JSON/json+/terse, iozone, iozone-scheduler logs, pgbench, dd and sysbench fileio
    output, ``SCHED=PATH`` arguments, bench output directories and their ``manifest.json``, with the
    parsers' notes and the baseline a bench manifest recorded. ``names`` are the scheduler names a file
    name may carry (the caller's KB). The same measurements given twice count once (noted).
``judge(measurements, *, goal="throughput", baseline=None, intervals=False) -> Judgement``
    Verdicts (better/worse/tie/insufficient) of every scheduler against the baseline per test and
    metric, and a recommendation: the baseline unless a candidate is significantly better beyond
    the noise on the goal's primary metrics and worse on none of its guard rails.
    ``Judgement.to_json()`` is the JSON contract of ``iosched compare --format json``.
``evidence(measurements, *, goal, baseline, schedulers) -> iosched.records.evidence.Evidence``
    The judgement as evidence for ``advise``.
``points(measurements)``
    The seed's naive 2/1/0 points method, for showing side by side why it misleads.

Every failure on bad input is a ``MeasureError`` (a ``ValueError``) with a one-line message.

Scheduler attribution, strongest first: fio's ``ioscheduler`` job option (or an ``echo NAME >
.../queue/scheduler`` line before a run in a transcript); ``SCHED=PATH`` or ``scheduler_hint``;
a bench manifest; a scheduler name as a whole token in the file name (longest match first). Every
name read from a file passes the same check as one from the command line (``schedulers.valid_name``).
"""

from __future__ import annotations

from iosched.measure.failure import MeasureError
from iosched.measure.judging.judgement import judge
from iosched.measure.judging.measured import evidence
from iosched.measure.judging.points import Points, points
from iosched.measure.measurements import Judgement, Measurement, Verdict
from iosched.measure.parsers.loader import Loaded, load

__all__ = [
    "Judgement", "Loaded", "MeasureError", "Measurement", "Points", "Verdict", "evidence", "judge", "load", "points",
]  # fmt: skip
