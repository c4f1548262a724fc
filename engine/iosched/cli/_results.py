"""What the result-reading commands share: the KB's scheduler names, loading, and measured evidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from iosched.knowledge.base import Kb
from iosched.records.evidence import Evidence


def scheduler_names(kb: Kb) -> frozenset[str]:
    """The names a result file may carry for its scheduler: the KB's elevators and their aliases."""
    from iosched.measure.schedulers import known

    return known([*kb.elevators, *(alias for e in kb.elevators.values() for alias in e.aliases)])


def load(kb: Kb, paths: list[Path], scheduler_hint: str | None = None) -> Any:
    """``measure.load`` with the KB's scheduler names."""
    from iosched import measure

    return measure.load(paths, names=scheduler_names(kb), scheduler_hint=scheduler_hint)


def evidence(kb: Kb, paths: list[Path], *, goal: str, baseline: str | None) -> Evidence:
    """Measured evidence from result files, judged for ``goal`` against ``baseline`` (the rule-based choice)."""
    from iosched import measure

    loaded = load(kb, paths)
    return measure.evidence(loaded.measurements, goal=goal, baseline=baseline, schedulers=kb.elevators,
                            notes=loaded.notes)  # fmt: skip
