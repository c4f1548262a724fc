"""Paths and loading shared by the measurement tests (everything inside the repository)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from iosched.measure import Measurement, load

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def names() -> frozenset[str]:
    """The scheduler names of the bundled KB, as the CLI passes them."""
    from iosched.cli._results import scheduler_names
    from iosched.knowledge.kbcache import load_checked

    return scheduler_names(load_checked())


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def load_results(paths: list[Path], *, scheduler_hint: str | None = None) -> list[Measurement]:
    return list(load(paths, names=names(), scheduler_hint=scheduler_hint).measurements)
