"""Shared fixtures: the bundled KB, loaded and checked once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from iosched.kb import Kb
from iosched.kbload import load
from iosched.paths import bundled_kb

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def kb() -> Kb:
    loaded, diagnostics = load([bundled_kb()])
    assert diagnostics == []
    return loaded


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/plans/*/expected.* from the code")


@pytest.fixture(scope="session")
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))
