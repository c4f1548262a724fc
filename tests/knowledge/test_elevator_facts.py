"""Consistency of the elevator facts in the bundled KB (kb/elevators, kb/caveats/elevators.yaml)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb

# The required set: four legacy (single-queue) elevators and four blk-mq ones.
REQUIRED = {
    "legacy": {"noop", "deadline", "cfq", "anticipatory"},
    "blk-mq": {"none", "mq-deadline", "bfq", "kyber"},
}
LEGACY_REMOVED_BY = KernelVersion.parse("5.0")
HZ_ONLY = re.compile(r"CONFIG_HZ=(\d+)")


def _file(kb: Kb, ident: str) -> str:
    return kb.origins[ident].rpartition(":")[0]


def _tunables(kb: Kb) -> Iterator[tuple[Any, Any]]:
    for elevator in kb.section("elevators"):
        for tunable in elevator.tunables:
            yield elevator, tunable


def test_required_elevators_are_present_on_their_path(kb: Kb) -> None:
    for io_path, names in REQUIRED.items():
        for name in names:
            assert kb.elevators[name].io_path == io_path, name


def test_equivalents_are_mutual_and_cross_the_io_path(kb: Kb) -> None:
    elevators = kb.elevators
    for elevator in elevators.values():
        if elevator.equivalent:
            other = elevators[elevator.equivalent]
            assert other.equivalent == elevator.name, elevator.name
            assert other.io_path != elevator.io_path, elevator.name


def test_aliases_name_the_removed_equivalent(kb: Kb) -> None:
    elevators = kb.elevators
    for elevator in elevators.values():
        for alias in elevator.aliases:
            aliased = elevators[alias]
            assert aliased.equivalent == elevator.name, alias
            assert aliased.until is not None and elevator.until is None, alias


def test_legacy_elevators_are_gone_by_5_0_and_blk_mq_ones_remain(kb: Kb) -> None:
    for elevator in kb.section("elevators"):
        if elevator.io_path == "legacy":
            assert elevator.until is not None and elevator.until <= LEGACY_REMOVED_BY, elevator.name
        else:
            assert elevator.until is None, elevator.name
    assert kb.offered_on(LEGACY_REMOVED_BY, "legacy") == []


def test_tunables_exist_only_while_their_elevator_exists(kb: Kb) -> None:
    for elevator, tunable in _tunables(kb):
        where = f"{elevator.name}.{tunable.name}"
        assert tunable.since is None or tunable.since >= elevator.since, where
        if elevator.until is not None:
            assert tunable.until is None or tunable.until <= elevator.until, where


def test_twins_are_mutual_and_the_us_file_is_1000_times_the_ms_file(kb: Kb) -> None:
    by_id = {f"{e.name}.{t.name}": t for e, t in _tunables(kb)}
    pairs = 0
    for elevator, tunable in _tunables(kb):
        if tunable.twin is None or tunable.unit != "us":
            continue
        ms = by_id[f"{elevator.name}.{tunable.twin}"]
        assert ms.twin == tunable.name and ms.unit == "ms", tunable.name
        assert tunable.name == f"{ms.name}_us"
        assert tunable.default == 1000 * ms.default, tunable.name
        ms_scoped = {(d.scope, d.value) for d in ms.defaults}
        for scoped in tunable.defaults:
            assert (scoped.scope, scoped.value / 1000) in ms_scoped, (tunable.name, scoped.scope)
        pairs += 1
    assert pairs == sum(1 for _, t in _tunables(kb) if t.twin) // 2


def test_jiffies_tunables_are_milliseconds(kb: Kb) -> None:
    for elevator, tunable in _tunables(kb):
        if tunable.jiffies:
            assert tunable.unit == "ms", f"{elevator.name}.{tunable.name}"


def test_hz_scoped_defaults_are_the_default_rounded_to_whole_ticks(kb: Kb) -> None:
    """A default of N ms at HZ=1000 is floor(HZ*N/1000) jiffies (at least 1) at another HZ, shown in ms."""
    checked = 0
    for elevator, tunable in _tunables(kb):
        for scoped in tunable.defaults:
            match = HZ_ONLY.fullmatch(scoped.scope.condition or "")
            if match is None:
                continue
            hz = int(match[1])
            ticks = max(1, hz * tunable.default // 1000)
            assert scoped.value == ticks * 1000 // hz, f"{elevator.name}.{tunable.name} at HZ={hz}"
            checked += 1
    assert checked > 0


def test_numeric_scoped_defaults_fit_the_range(kb: Kb) -> None:
    for elevator, tunable in _tunables(kb):
        for scoped in tunable.defaults:
            if tunable.range and isinstance(scoped.value, int | float) and not isinstance(scoped.value, bool):
                assert tunable.range.accepts(scoped.value), f"{elevator.name}.{tunable.name}: {scoped.value}"


def test_every_elevator_caveat_is_referenced(kb: Kb) -> None:
    referenced = {c for e in kb.section("elevators") for c in e.caveats}
    referenced |= {c for _, t in _tunables(kb) for c in t.caveats}
    ours = [c.id for c in kb.section("caveats") if _file(kb, c.id).endswith("caveats/elevators.yaml")]
    assert ours
    assert [c for c in ours if c not in referenced] == []
