"""Shared fixtures: the bundled KB, loaded and checked once per session; hypothesis profiles."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from iosched.knowledge.base import Kb
from iosched.knowledge.kbcache import load_checked

ROOT = Path(__file__).resolve().parents[1]

# Speed is measured in bench/, never by a test: no profile has a deadline, so a busy machine cannot fail a test.
# "dev" explores new examples on every run; "ci" runs the same fixed examples every time, stores nothing, and
# does not call a test too slow because other work shares the cores.
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, database=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``-n auto --dist loadgroup``), tests that share the machine's loop devices and
    /run/iosched run one after another on one worker, and the site is built by one worker only. First: xdist's
    own hook, registered after this file on a worker and so called before it, names each test's group from
    these marks (tests/test_groups.py)."""
    for item in items:
        if item.get_closest_marker("root"):
            item.add_marker(pytest.mark.xdist_group("root"))
        elif "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("site"))
            item.add_marker(pytest.mark.slow)  # the session's one mkdocs build, tens of seconds, is theirs
    # the two groups, minutes of tests each on one worker, start first: the other workers share the rest meanwhile
    items.sort(key=lambda item: 0 if item.get_closest_marker("root") else 1 if _group(item) == "site" else 2)


def _group(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return str(marker.args[0]) if marker and marker.args else None


@pytest.fixture(scope="session")
def kb() -> Kb:
    """The bundled KB, checked (KbInvalid names every diagnostic), from the compiled cache as the CLI reads it."""
    return load_checked()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/plans/*/expected.* from the code")


@pytest.fixture(scope="session")
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def collection(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The iosched.tuning collection built and installed once per session (tests/ansible_collection.py)."""
    from ansible_collection import build_and_install

    return build_and_install(tmp_path_factory)
