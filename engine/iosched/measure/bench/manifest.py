"""The manifest ``iosched bench`` writes beside its fio results, and reads back for ``compare``.

A manifest read back is untrusted: every field is checked for its type, scheduler names for their
pattern and run files for staying inside the manifest's directory (``loader`` checks the last).
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from iosched.measure.failure import MeasureError
from iosched.measure.parsers import boundedjson as jsontext
from iosched.measure.schedulers import valid_name

FORMAT = "iosched-bench/1"
NAME = "manifest.json"


@dataclass(frozen=True)
class Run:
    file: str
    scheduler: str
    workload: str
    round: int
    scheduler_before: str = ""
    scheduler_after: str = ""


@dataclass
class Manifest:
    device: str
    kernel: str
    fio_version: str
    original_scheduler: str
    schedulers: list[str]
    workloads: list[str]
    runtime: int
    rounds: int
    size: str
    loop: bool = False
    started: str = ""
    finished: str = ""
    complete: bool = False
    preconditioned: bool = False
    runs: list[Run] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}


def looks_like(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def parse(text: str, label: str) -> Manifest:
    """A manifest from JSON text; MeasureError (naming ``label`` and the field) when it is not a valid one."""
    doc = jsontext.load(text, label)
    if not looks_like(doc):
        raise MeasureError(f"{label}: not an iosched bench manifest")
    runs = doc.get("runs", [])
    if not isinstance(runs, list):
        raise MeasureError(f"{label}: 'runs' must be a list")
    checked = [Run(**_fields(Run, r, f"{label}: runs[{i}]")) for i, r in enumerate(runs)]
    for i, run in enumerate(checked):
        for name in (run.scheduler, run.scheduler_before, run.scheduler_after):
            if name and not valid_name(name):
                raise MeasureError(f"{label}: runs[{i}]: not a scheduler name: {name[:40]!r}")
    manifest = Manifest(**_fields(Manifest, {k: v for k, v in doc.items() if k != "runs"}, label), runs=checked)
    bad = [n for n in (*manifest.schedulers, manifest.original_scheduler) if n and not valid_name(n)]
    if bad:
        raise MeasureError(f"{label}: not a scheduler name: {bad[0][:40]!r}")
    return manifest


_TYPES = {"str": str, "int": int, "bool": bool, "list[str]": list}


def _fields(cls: type, data: Any, where: str) -> dict[str, Any]:
    """The known fields of ``data`` for dataclass ``cls``, each of its declared type; MeasureError otherwise."""
    if not isinstance(data, dict):
        raise MeasureError(f"{where}: must be an object")
    known = {f.name: f for f in fields(cls) if f.name != "runs"}
    values = {k: v for k, v in data.items() if k in known}
    missing = [
        name
        for name, f in known.items()
        if name not in values and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        raise MeasureError(f"{where}: missing field {missing[0]!r}")
    for name, value in values.items():
        kind = str(known[name].type)
        ok = isinstance(value, _TYPES[kind]) and not (kind == "int" and isinstance(value, bool))
        if kind == "list[str]":
            ok = ok and all(isinstance(item, str) for item in value)
        if not ok:
            raise MeasureError(f"{where}: field {name!r} must be {kind}, not {type(value).__name__}")
    return values


def write(path: Path, manifest: Manifest) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest.to_json(), indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
