"""Reading result files: recognise the format, parse, and attribute every measurement to a scheduler."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from iosched.errors import UsageError
from iosched.measure import dd, fio_json, fio_terse, iozone, iozone_log, manifest, pgbench, sysbench
from iosched.measure.common import Parsed
from iosched.measure.model import Measurement
from iosched.measure.schedulers import from_filename, round_from_filename, valid_name

MAX_BYTES = 64 * 1024 * 1024

# Checked in this order: the more specific formats first.
FORMATS: tuple[tuple[str, Callable[[str], bool], Callable[[str], Parsed]], ...] = (
    ("fio JSON", fio_json.looks_like, fio_json.parse),
    ("fio terse", fio_terse.looks_like, fio_terse.parse),
    ("iozone-scheduler log", iozone_log.looks_like, iozone_log.parse),
    ("iozone", iozone.looks_like, iozone.parse),
    ("sysbench fileio", sysbench.looks_like, sysbench.parse),
    ("pgbench", pgbench.looks_like, pgbench.parse),
    ("dd", dd.looks_like, dd.parse),
)


@dataclass(frozen=True)
class Loaded:
    """Everything read from the user's files: measurements, notes, and the baseline a manifest recorded."""

    measurements: tuple[Measurement, ...]
    notes: tuple[str, ...]
    baseline: str | None = None


def detect(text: str) -> str | None:
    """The name of the format of ``text``, or None."""
    return next((name for name, looks, _ in FORMATS if looks(text)), None)


def parse_text(text: str, label: str = "input") -> Parsed:
    """Parse ``text`` in whatever format it is in; UsageError when unrecognised or empty."""
    for name, looks, parse in FORMATS:
        if looks(text):
            parsed = parse(text)
            if not parsed.measurements:
                raise UsageError(f"{label}: looks like {name} output but holds no results")
            return parsed
    raise UsageError(
        f"{label}: unrecognised format (expected fio JSON or terse, iozone, pgbench, dd or sysbench output)"
    )


def read_text(path: Path) -> str:
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise UsageError(f"{path}: larger than {MAX_BYTES // 2**20} MiB; not a benchmark report")
    if b"\x00" in data:
        raise UsageError(f"{path}: binary file; unrecognised format")
    return data.decode("utf-8", errors="replace")


def parse_file(path: Path, *, scheduler: str | None = None, round: int | None = None) -> Parsed:
    """Parse one file; measurements without a scheduler in their content get ``scheduler``, else the
    scheduler named in the file name. UsageError when no scheduler can be told."""
    parsed = parse_text(read_text(path), str(path))
    fallback = scheduler or from_filename(path.name)
    file_round = round if round is not None else round_from_filename(path.stem)
    result = []
    for m in parsed.measurements:
        name = m.scheduler or fallback
        if not name:
            raise UsageError(
                f"{path}: which scheduler is this? Name it as SCHED={path} or put the scheduler in the file name"
            )
        result.append(
            replace(m, scheduler=name, source=str(path), round=m.round if m.round is not None else file_round)
        )
    return Parsed(result, [f"{path.name}: {n}" for n in dict.fromkeys(parsed.notes)])


def load(paths: list[Path], *, scheduler_hint: str | None = None) -> Loaded:
    """Read result files, ``SCHED=PATH`` arguments, bench output directories and manifests."""
    if scheduler_hint is not None and not valid_name(scheduler_hint):
        raise UsageError(f"not a scheduler name: {scheduler_hint!r}")
    measurements: list[Measurement] = []
    notes: list[str] = []
    baseline = None
    for raw in paths:
        path, hint = _split(raw, scheduler_hint)
        if path.is_dir():
            path = path / manifest.NAME if (path / manifest.NAME).is_file() else path
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not files:
                raise UsageError(f"{path}: empty directory")
            for file in files:
                parsed = parse_file(file, scheduler=hint)
                measurements += parsed.measurements
                notes += parsed.notes
            continue
        if path.name == manifest.NAME or _is_manifest(path):
            found, base = _from_manifest(path)
            measurements += found.measurements
            notes += found.notes
            baseline = baseline or base
            continue
        parsed = parse_file(path, scheduler=hint)
        measurements += parsed.measurements
        notes += parsed.notes
    return Loaded(tuple(_number_runs(measurements)), tuple(dict.fromkeys(notes)), baseline)


def _split(raw: Path, hint: str | None) -> tuple[Path, str | None]:
    """``SCHED=PATH`` names the scheduler of one file."""
    text = str(raw)
    if not raw.exists() and "=" in text:
        name, _, rest = text.partition("=")
        if not valid_name(name):
            raise UsageError(f"not a scheduler name: {name!r} (in {text})")
        return Path(rest), name
    if not raw.exists():
        raise UsageError(f"{raw}: no such file or directory")
    return raw, hint


def _is_manifest(path: Path) -> bool:
    if path.suffix != ".json" or path.stat().st_size > 4 * 2**20:
        return False
    try:
        return manifest.looks_like(json.loads(path.read_text(encoding="utf-8", errors="replace")))
    except ValueError:
        return False


def _from_manifest(path: Path) -> tuple[Parsed, str | None]:
    try:
        doc = manifest.read(path)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None
    found = Parsed()
    for run in doc.runs:
        file = (path.parent / run.file).resolve()
        if path.parent.resolve() not in file.parents or not valid_name(run.scheduler):
            raise UsageError(f"{path}: bad entry {run.file!r}")
        parsed = parse_file(file, scheduler=run.scheduler, round=run.round)
        found.measurements += parsed.measurements  # fio's own ioscheduler= option wins over the manifest
        found.notes += parsed.notes
        if run.scheduler_after and run.scheduler_after != run.scheduler:
            found.notes.append(f"{run.file}: the scheduler read back after the run was {run.scheduler_after}")
    if not doc.complete:
        found.notes.append(f"{path}: the bench did not finish; results are partial")
    base = doc.original_scheduler if valid_name(doc.original_scheduler) else None
    return found, base


def _number_runs(measurements: list[Measurement]) -> list[Measurement]:
    """Number the runs of each scheduler, test and metric 1..n in reading order."""
    counts: dict[tuple[str, str, str], int] = {}
    result = []
    for m in measurements:
        key = (m.scheduler, m.test, m.metric)
        counts[key] = counts.get(key, 0) + 1
        result.append(replace(m, run=counts[key]))
    return result
