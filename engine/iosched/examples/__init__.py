"""Built-in example contexts for ``iosched advise --example NAME`` (the seeds' situations)."""

from __future__ import annotations

from pathlib import Path

DIRECTORY = Path(__file__).parent


def names() -> list[str]:
    return sorted(p.stem for p in DIRECTORY.glob("*.yaml"))


def path(name: str) -> Path | None:
    candidate = DIRECTORY / f"{name}.yaml"
    return candidate if name in names() else None
