"""Built-in example contexts for ``iosched advise --example NAME`` (the seeds' situations)."""

from __future__ import annotations

import os

DIRECTORY = os.path.dirname(os.path.abspath(__file__))


def names() -> list[str]:
    return sorted(n[: -len(".yaml")] for n in os.listdir(DIRECTORY) if n.endswith(".yaml"))


def path(name: str) -> str | None:
    """The example's file, or None when there is no such example."""
    return os.path.join(DIRECTORY, f"{name}.yaml") if name in names() else None
