"""KB ids the probe classifies into, from the bundled KB."""

from __future__ import annotations

import pytest

from iosched.knowledge.base import Kb


@pytest.fixture(scope="session")
def distro_ids(kb: Kb) -> set[str]:
    return {d.id for d in kb.section("distributions")}


@pytest.fixture(scope="session")
def hardware_ids(kb: Kb) -> set[str]:
    return {h.id for h in kb.section("hardware")}
