"""Paths shared by the measurement tests."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")
