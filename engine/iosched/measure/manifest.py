"""The manifest ``iosched bench`` writes beside its fio results, and reads back for ``compare``."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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
    runs: list[Run] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}


def looks_like(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def read(path: Path) -> Manifest:
    """A manifest file; ValueError when it is not one."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not looks_like(doc):
        raise ValueError(f"{path}: not an iosched bench manifest")
    try:
        runs = [Run(**{k: v for k, v in r.items() if k in Run.__dataclass_fields__}) for r in doc.get("runs", [])]
        fields = {k: v for k, v in doc.items() if k in Manifest.__dataclass_fields__ and k != "runs"}
        return Manifest(**fields, runs=runs)
    except (TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: malformed manifest ({exc})") from None


def write(path: Path, manifest: Manifest) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest.to_json(), indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
