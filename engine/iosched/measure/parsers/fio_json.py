"""fio ``--output-format=json`` and ``json+`` (fio 2.x latencies in microseconds, 3.x in nanoseconds)."""

from __future__ import annotations

import math
from typing import Any

from iosched.measure.parsers.boundedjson import check_depth, documents
from iosched.measure.parsers.common import KIB, Parsed, label
from iosched.measure.parsers.fio_common import Job, Side, emit
from iosched.measure.schedulers import valid_name

DIRECTIONS = ("read", "write", "trim", "mixed")


def looks_like(text: str) -> bool:
    return '"fio version"' in text or ('"jobs"' in text and '"jobname"' in text)


def parse(text: str) -> Parsed:
    parsed = Parsed()
    check_depth(text, "fio JSON")
    docs = [d for d in documents(text) if isinstance(d.get("jobs") or d.get("client_stats"), list)]
    # --status-interval writes one document per interval: the last one holds the final figures.
    for doc in docs[-1:]:
        globals_ = _options(doc.get("global options"))
        raw = doc.get("jobs") or doc.get("client_stats") or []
        raw = [j for j in raw if isinstance(j, dict)]
        if doc.get("client_stats"):
            raw = [j for j in raw if j.get("jobname") == "All clients"] or raw
        jobs = []
        schedulers = set()
        for entry in raw:
            options = {**globals_, **_options(entry.get("job options"))}
            if name := options.get("ioscheduler"):
                if valid_name(name):
                    schedulers.add(name)
                else:
                    parsed.notes.append(f"job option ioscheduler={label(name)!r} is not a scheduler name; ignored")
            sides = {d: s for d in DIRECTIONS if (s := _side(entry.get(d)))}
            if sides:
                jobs.append(Job(str(entry.get("jobname", "job")), _int(entry.get("groupid")), sides))
        scheduler = schedulers.pop() if len(schedulers) == 1 else ""
        emit(jobs, parsed, scheduler=scheduler)
    return parsed


def _options(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _num(value: Any) -> float | None:
    """A JSON number as a float (NaN and infinities kept, for ``Parsed.add`` to note); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer beyond the float range
        return math.inf


def _side(data: Any) -> Side | None:
    if not isinstance(data, dict):
        return None
    ios = _num(data.get("total_ios"))
    iops = _num(data.get("iops")) or 0.0
    if ios is None:  # fio 2.0-2.1 have no total_ios: fall back to the bytes moved
        ios = iops * (_num(data.get("runtime")) or 0.0) / 1000.0 if (_num(data.get("io_bytes")) or 0) > 0 else 0.0
    if ios == 0:  # this direction did no I/O
        return None
    bw_bytes = _num(data.get("bw_bytes"))
    if bw_bytes is None:
        bw_bytes = (_num(data.get("bw")) or 0.0) * KIB  # "bw" is KiB/s in every fio version
    clat, scale = (data.get("clat_ns"), 1e-3) if isinstance(data.get("clat_ns"), dict) else (data.get("clat"), 1.0)
    mean = p99 = None
    if isinstance(clat, dict) and (_num(clat.get("N")) is None or (_num(clat.get("N")) or 0) > 0):
        raw_mean = _num(clat.get("mean"))
        if raw_mean:  # 0 means no latency was recorded; NaN or < 0 go on, for Parsed.add to note
            mean = raw_mean * scale
        percentiles = clat.get("percentile")
        if isinstance(percentiles, dict):
            raw_p99 = _num(percentiles.get("99.000000", percentiles.get("99.00")))
            if raw_p99:
                p99 = raw_p99 * scale
    return Side(ios=ios, iops=iops, bw_bytes=bw_bytes, clat_mean_us=mean, clat_p99_us=p99)
