"""Consistency of queue attributes, writeback sysctls, boot parameters, mount options and their caveats."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from iosched.kernel import KernelVersion, in_range
from iosched.knowledge.base import Kb

# The required queue attributes (the names of files in /sys/block/<dev>/queue/).
REQUIRED_QUEUE = {
    "scheduler", "read_ahead_kb", "nr_requests", "nomerges", "rq_affinity", "add_random", "rotational",
    "wbt_lat_usec", "max_sectors_kb", "max_hw_sectors_kb", "write_cache", "iostats", "io_poll",
    "io_poll_delay", "io_timeout", "minimum_io_size", "optimal_io_size", "physical_block_size",
    "logical_block_size", "zoned",
}  # fmt: skip
REQUIRED_SYSCTLS = {
    "vm.dirty_ratio", "vm.dirty_background_ratio", "vm.dirty_bytes", "vm.dirty_background_bytes",
    "vm.dirty_expire_centisecs", "vm.dirty_writeback_centisecs",
}  # fmt: skip
REQUIRED_BOOT = {"elevator", "scsi_mod.use_blk_mq", "dm_mod.use_blk_mq"}
# The unit a sysfs or sysctl name promises by its suffix.
SUFFIX_UNITS = {"_kb": "KiB", "_bytes": "bytes", "_usec": "us", "_centisecs": "centisecs", "_seconds": "s"}
OWN_CAVEATS = "caveats/system.yaml"
HIGH = KernelVersion(99, 0)


def _settings(kb: Kb) -> Iterator[Any]:
    yield from kb.section("queue_attributes")
    yield from kb.section("sysctls")


def _with_effects(kb: Kb) -> Iterator[Any]:
    yield from kb.section("boot_parameters")
    yield from (m for m in kb.section("mount_options") if m.effects)


def _effects_at(entity: Any, kernel: KernelVersion) -> list[Any]:
    return [e for e in entity.effects if in_range(kernel, e.since, e.until)]


def _effect_at(entity: Any, kernel: KernelVersion) -> Any | None:
    return next(iter(_effects_at(entity, kernel)), None)


def test_required_entities_are_present(kb: Kb) -> None:
    assert {a.name for a in kb.section("queue_attributes")} >= REQUIRED_QUEUE
    assert {s.name for s in kb.section("sysctls")} >= REQUIRED_SYSCTLS
    assert {b.name for b in kb.section("boot_parameters")} >= REQUIRED_BOOT


def test_pairs_with_is_mutual_and_pairs_a_ratio_with_bytes(kb: Kb) -> None:
    paired = [s for s in kb.section("sysctls") if s.pairs_with]
    assert paired, "the ratio/bytes pairs are linked"
    for sysctl in paired:
        other = kb.get(sysctl.pairs_with)
        assert other in kb.section("sysctls"), sysctl.name
        assert other.pairs_with == sysctl.name, sysctl.name
        assert {sysctl.unit, other.unit} == {"percent", "bytes"}, sysctl.name
        assert "dirty-ratio-bytes-cancel" in sysctl.caveats, sysctl.name


def test_names_with_a_unit_suffix_use_that_unit(kb: Kb) -> None:
    for setting in _settings(kb):
        for suffix, unit in SUFFIX_UNITS.items():
            if setting.name.endswith(suffix):
                assert setting.unit == unit, setting.name


def test_scoped_defaults_are_valid_values_of_their_setting(kb: Kb) -> None:
    for setting in _settings(kb):
        for scoped in setting.defaults:
            if scoped.value is not None:
                assert setting.accepts(scoped.value), (setting.name, scoped.value)


def test_read_only_attributes_have_no_range(kb: Kb) -> None:
    for attribute in kb.section("queue_attributes"):
        if not attribute.writable:
            assert attribute.range is None, attribute.name


def test_distribution_defaults_cite_a_vendor_or_seed_source(kb: Kb) -> None:
    """A vendor source is the vendor's document, a seed, or the vendor's own repository (a tool with a publisher)."""
    scoped = [(s, d) for s in _settings(kb) for d in s.defaults if d.scope.distributions]
    assert scoped, "at least one distribution default (SLE vm.dirty_ratio)"
    for setting, default in scoped:
        cited = [kb.get(ref) for ref in default.sources]
        assert any(c.type in {"seed", "vendor-doc"} or (c.type == "tool" and c.publisher) for c in cited), setting.name


def test_disabling_barriers_cites_the_data_loss_caveat(kb: Kb) -> None:
    disabling = [m for m in kb.section("mount_options") if m.disables_barriers]
    assert disabling
    for option in disabling:
        risks = {kb.get(ref).risk for ref in option.caveats}
        assert "data-loss" in risks, option.id
        assert not option.default, option.id


def test_effect_ranges_are_ordered_and_do_not_overlap(kb: Kb) -> None:
    for entity in _with_effects(kb):
        for earlier, later in pairwise(entity.effects):
            assert earlier.until is not None, entity.id
            assert later.since is not None and earlier.until <= later.since, entity.id
        starts = [e.since for e in entity.effects if e.since is not None]
        assert starts == sorted(starts), entity.id


def test_every_kernel_has_at_most_one_effect(kb: Kb) -> None:
    for entity in _with_effects(kb):
        bounds = {b for e in entity.effects for b in (e.since, e.until) if b is not None}
        for kernel in bounds | {KernelVersion(2, 6), HIGH}:
            assert len(_effects_at(entity, kernel)) <= 1, (entity.id, str(kernel))


def test_boot_parameters_end_in_an_effect_that_is_still_in_force(kb: Kb) -> None:
    for parameter in kb.section("boot_parameters"):
        assert _effect_at(parameter, HIGH) is not None, parameter.name


def test_disagreement_scopes_match_the_subjects_effects(kb: Kb) -> None:
    for item in kb.section("disagreements"):
        subject = kb.get(item.subject)
        if item.scope is None or item.scope.since is None or not getattr(subject, "effects", ()):
            continue
        effect = _effect_at(subject, item.scope.since)
        assert effect is not None, item.id
        assert effect.effect not in {"works", "legacy-only"}, item.id


def test_own_caveats_are_linked_both_ways(kb: Kb) -> None:
    own = {c.id for c in kb.section("caveats") if OWN_CAVEATS in kb.origins.get(c.id, "")}
    assert own
    for entity in (*_settings(kb), *kb.section("boot_parameters"), *kb.section("mount_options")):
        for ref in set(entity.caveats) & own:
            assert entity.id in kb.get(ref).related, (entity.id, ref)


def test_each_own_caveat_is_cited_by_something_it_relates_to(kb: Kb) -> None:
    own = [c for c in kb.section("caveats") if OWN_CAVEATS in kb.origins.get(c.id, "")]
    for caveat in own:
        linked = [kb.setting(r) or kb.get(r) for r in caveat.related]
        with_caveats = [e for e in linked if hasattr(e, "caveats") and not hasattr(e, "risk")]
        assert any(caveat.id in e.caveats for e in with_caveats), caveat.id


@given(st.integers(min_value=-(2**40), max_value=2**40))
def test_range_and_bool_checks_agree_with_the_kb(kb: Kb, value: int) -> None:
    for setting in _settings(kb):
        if setting.unit == "bool":
            assert setting.accepts(value) == (value in (0, 1)), setting.name
        elif setting.range is not None and not setting.choices:
            low, high = setting.range.min, setting.range.max
            inside = (low is None or value >= low) and (high is None or value <= high)
            assert setting.accepts(value) == inside, setting.name
