"""Reading result files: recognise the format, parse, and attribute every measurement to a scheduler."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from iosched.measure.bench import manifest
from iosched.measure.failure import MeasureError
from iosched.measure.measurements import Measurement
from iosched.measure.parsers import dd, fio_json, fio_terse, iozone, iozone_log, pgbench, sysbench
from iosched.measure.parsers.common import Parsed
from iosched.measure.schedulers import check_name, from_filename, round_from_filename, valid_name

MAX_BYTES = 64 * 1024 * 1024
_MANIFEST = re.compile(rf'"format"\s*:\s*"{re.escape(manifest.FORMAT)}"')

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
    """Parse ``text`` in whatever format it is in; MeasureError when unrecognised or empty."""
    for name, looks, parse in FORMATS:
        if looks(text):
            try:
                parsed = parse(text)
            except MeasureError as exc:
                raise MeasureError(f"{label}: {exc}") from None
            if not parsed.measurements:
                raise MeasureError(f"{label}: looks like {name} output but holds no results")
            return parsed
    raise MeasureError(
        f"{label}: unrecognised format (expected fio JSON or terse, iozone, pgbench, dd or sysbench output)"
    )


def read_text(path: Path) -> str:
    """A regular file of at most MAX_BYTES as text; MeasureError for a FIFO, a device, binary data ..."""
    from iosched.yamlsrc import YamlError, read_bytes

    try:
        data = read_bytes(path, MAX_BYTES)
    except YamlError as exc:
        raise MeasureError(f"{path}: {exc}; not a benchmark report") from None
    if b"\x00" in data:
        raise MeasureError(f"{path}: binary file; unrecognised format")
    return data.decode("utf-8", errors="replace")


def parse_file(path: Path, names: frozenset[str], *, scheduler: str | None = None, round: int | None = None,
               text: str | None = None) -> Parsed:  # fmt: skip
    """Parse one file; measurements without a scheduler in their content get ``scheduler``, else the
    scheduler of ``names`` named in the file name. MeasureError when no scheduler can be told."""
    parsed = parse_text(read_text(path) if text is None else text, str(path))
    fallback = scheduler or from_filename(path.name, names)
    file_round = round if round is not None else round_from_filename(path.stem)
    result = []
    for m in parsed.measurements:
        name = m.scheduler or fallback
        if not name:
            raise MeasureError(
                f"{path}: which scheduler is this? Name it as SCHED={path} or put the scheduler in the file name"
            )
        result.append(m.replace(scheduler=name, source=str(path), round=m.round if m.round is not None else file_round))
    return Parsed(result, [f"{path.name}: {n}" for n in dict.fromkeys(parsed.notes)])


class _Reader:
    """Collects measurements and notes over all arguments; the same measurements twice count once."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names
        self.measurements: list[Measurement] = []
        self.notes: list[str] = []
        self.baseline: str | None = None
        self._seen: dict[str, str] = {}  # fingerprint of a file's values -> the file first read with them

    def add(self, parsed: Parsed, source: Path) -> None:
        fingerprint = _fingerprint(parsed.measurements)
        if (first := self._seen.get(fingerprint)) is not None:
            self.notes.append(f"{source}: the same measurements as {first}; counted once")
            return
        self._seen[fingerprint] = str(source)
        self.measurements += parsed.measurements
        self.notes += parsed.notes

    def file(self, path: Path, hint: str | None) -> None:
        text = read_text(path)
        if path.name == manifest.NAME or _MANIFEST.search(text):
            self.manifest(path, text)
        else:
            self.add(parse_file(path, self.names, scheduler=hint, text=text), path)

    def manifest(self, path: Path, text: str) -> None:
        doc = manifest.parse(text, str(path))
        directory = path.parent.resolve()
        for run in doc.runs:
            file = (directory / run.file).resolve()
            if directory not in file.parents:
                raise MeasureError(f"{path}: run file {run.file[:60]!r} is outside {directory}")
            # fio's own ioscheduler option wins over the manifest
            self.add(parse_file(file, self.names, scheduler=run.scheduler, round=run.round), file)
            if run.scheduler_after and run.scheduler_after != run.scheduler:
                self.notes.append(f"{run.file}: the scheduler read back after the run was {run.scheduler_after}")
        if not doc.complete:
            self.notes.append(f"{path}: the bench did not finish; results are partial")
        if self.baseline is None and doc.original_scheduler:
            self.baseline = doc.original_scheduler


def load(paths: list[Path], *, names: frozenset[str], scheduler_hint: str | None = None) -> Loaded:
    """Read result files, ``SCHED=PATH`` arguments, bench output directories and manifests.

    ``names`` are the scheduler names a file name may carry (the caller's KB: elevators and aliases).
    A file whose measurements are all identical to an earlier file's is counted once, with a note: the
    same result given twice is one run, not two."""
    if scheduler_hint is not None:
        check_name(scheduler_hint)
    reader = _Reader(names)
    for raw in paths:
        path, hint = _split(raw, scheduler_hint)
        if path.is_dir() and (path / manifest.NAME).exists():
            path = path / manifest.NAME
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
            if not files:
                raise MeasureError(f"{path}: empty directory")
            for file in files:
                reader.file(file, hint)
        else:
            reader.file(path, hint)
    return Loaded(tuple(_number_runs(reader.measurements)), tuple(dict.fromkeys(reader.notes)), reader.baseline)


def _split(raw: Path, hint: str | None) -> tuple[Path, str | None]:
    """``SCHED=PATH`` names the scheduler of one file."""
    text = str(raw)
    if not raw.exists() and "=" in text:
        name, _, rest = text.partition("=")
        if not valid_name(name):
            raise MeasureError(f"not a scheduler name: {name[:40]!r} (in {text[:80]})")
        return Path(rest), name
    if not raw.exists():
        raise MeasureError(f"{raw}: no such file or directory")
    return raw, hint


def _fingerprint(measurements: list[Measurement]) -> str:
    """What identifies a file's results whatever its name or scheduler label: its tests, metrics and values."""
    items = sorted((m.test, m.metric, m.value.hex()) for m in measurements)
    return hashlib.sha256(repr(items).encode()).hexdigest()


def _number_runs(measurements: list[Measurement]) -> list[Measurement]:
    """Number the runs of each scheduler, test and metric 1..n in reading order."""
    counts: dict[tuple[str, str, str], int] = {}
    result = []
    for m in measurements:
        key = (m.scheduler, m.test, m.metric)
        counts[key] = counts.get(key, 0) + 1
        result.append(m.replace(run=counts[key]))
    return result
