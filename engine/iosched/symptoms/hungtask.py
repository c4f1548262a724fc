"""Kernel hung-task reports (kernel/hung_task.c): ``INFO: task NAME:PID blocked for more than N seconds.``
and the call trace that follows; a trace through ``balance_dirty_pages`` is a writer throttled on dirty
pages, one through ``io_schedule`` a task waiting on I/O."""

from __future__ import annotations

import re

from iosched.symptoms.clock import timestamp
from iosched.symptoms.series import Collector, Reading, Sample, empty

REPORT = re.compile(r"task (\S{1,64}):(\d+) blocked for more than (\d+) seconds")
_FRAME = re.compile(r"\b(balance_dirty_pages\w*|io_schedule\w*|wait_on_page_writeback|folio_wait_writeback|"
                    r"jbd2_log_wait_commit|blkdev_issue_flush)\b")  # fmt: skip
_SYSLOG_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})")
MAX_TRACE = 80


def looks_like(text: str) -> bool:
    return bool(REPORT.search(text[:4_000_000]))


def read(text: str, source: str) -> Reading:
    """One host sample per report: ``hung_dirty`` 1 when its stack holds balance_dirty_pages, else
    ``hung_io`` 1 when it waits in io_schedule; a report whose stack is cut off counts by its first line."""
    lines = text.splitlines()
    found = Collector(source)
    clock = True
    for i, line in enumerate(lines):
        m = REPORT.search(line)
        if not m:
            continue
        stop = next((k for k, x in enumerate(lines[i + 1 : i + 1 + MAX_TRACE]) if REPORT.search(x)), MAX_TRACE)
        frames = {f.group(1) for x in lines[i + 1 : i + 1 + stop] if (f := _FRAME.search(x))}
        dirty = any(f.startswith("balance_dirty_pages") for f in frames)
        t = _when(line)
        clock = clock and t is not None
        found.add_host(Sample(t if t is not None else float(len(found.host) + 1),
                              {"hung_dirty": float(dirty), "hung_io": float(not dirty and bool(frames))}))  # fmt: skip
    if not found.host:
        return empty(source, "hung-task reports", "no 'blocked for more than' report")
    return found.reading("hung-task reports", clock=clock and all(s.t > 1e9 for s in found.host))


def _when(line: str) -> float | None:
    if m := _SYSLOG_TIME.match(line):
        return timestamp(m[1])
    return None


_STACK_LINE = re.compile(r"^\[<[0-9a-fx]+>\] (\S+)")


def looks_like_stacks(text: str) -> bool:
    lines = [line for line in text.splitlines()[:200] if line.strip()]
    return sum(bool(_STACK_LINE.match(line)) for line in lines) >= max(1, len(lines) // 2)


def read_stacks(text: str, source: str) -> Reading:
    """Samples of ``/proc/PID/stack`` (one after another, each after a clock line or a blank line), as SUSE
    TID 7015931 asks: the share of samples in balance_dirty_pages is how long the writer is throttled."""
    samples: list[tuple[float | None, set[str]]] = []
    fresh = True
    for line in text.splitlines():
        if (t := timestamp(line)) is not None or not line.strip():
            if t is not None:
                samples.append((t, set()))
                fresh = False
            else:
                fresh = True
            continue
        if m := _STACK_LINE.match(line):
            if fresh or not samples:
                samples.append((None, set()))
                fresh = False
            samples[-1][1].add(m[1].split("+")[0])
    samples = [(t, frames) for t, frames in samples if frames]
    if not samples:
        return empty(source, "/proc/PID/stack samples", "no stack lines")
    clock = all(t is not None for t, _ in samples)
    found = Collector(source)
    for k, (t, frames) in enumerate(samples, 1):
        dirty = any(f.startswith("balance_dirty_pages") for f in frames)
        found.add_host(Sample(t if clock and t is not None else float(k), {"stack_dirty": float(dirty)}))
    return found.reading("/proc/PID/stack samples", clock=clock)
