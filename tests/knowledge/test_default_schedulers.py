"""What a device really has before a plan: distribution rows resolve to exactly one scheduler per device and path."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fnmatch import fnmatchcase
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.schema import DefaultScheduler, DeviceMatch

IO_PATHS = ("legacy", "blk-mq")
VERSION_WORD = r"(?<![\d.]){}(?![\d])"


def _globs(preset: Any) -> list[str]:
    return [g for m in preset.udev_match if m.key == "KERNEL" for g in m.value.split("|")]


def _device_names(kb: Kb, preset: Any) -> set[str]:
    """Device names of this preset: example devices and row glob prefixes that the preset's udev match accepts."""
    prefixes = {
        re.split(r"[*?\[]", glob, maxsplit=1)[0]
        for distro in kb.section("distributions")
        for row in distro.default_schedulers
        for glob in (row.match.kernel_names if row.match else ())
    }
    candidates = {h.example_device for h in kb.section("hardware")} | {p + "a" for p in prefixes}
    return {name for name in candidates if any(fnmatchcase(name, g) for g in _globs(preset))}


def _applicable(
    rows: tuple[DefaultScheduler, ...], preset: Any, name: str, io_path: str, kernel: KernelVersion
) -> list:
    rotational = bool(preset.facts.get("hw.rotational"))
    return [r for r in rows if r.applies(preset.id, name, rotational, io_path, kernel)]


def _winners(
    rows: tuple[DefaultScheduler, ...], preset: Any, name: str, io_path: str, kernel: KernelVersion
) -> set[str]:
    """The elevator(s) of the applicable rows with the highest precedence."""
    applicable = _applicable(rows, preset, name, io_path, kernel)
    if not applicable:
        return set()
    top = max(r.precedence for r in applicable)
    return {r.elevator for r in applicable if r.precedence == top}


def _supported(distro: Any, preset: Any) -> bool:
    """The kernel drives this class of device through a request queue (not bio-based, not too old)."""
    if preset.since and distro.kernel < preset.since:
        return False
    bio_based = not preset.scsi and "legacy" not in preset.default_elevator
    return not (bio_based and preset.blk_mq_since and distro.kernel < preset.blk_mq_since)


def _cases(kb: Kb) -> Iterator[tuple[Any, Any, str]]:
    for distro in kb.section("distributions"):
        for preset in kb.section("hardware"):
            for name in sorted(_device_names(kb, preset)):
                yield distro, preset, name


def test_every_row_has_a_structured_match_on_known_presets(kb: Kb) -> None:
    presets = {h.id for h in kb.section("hardware")}
    for distro in kb.section("distributions"):
        for row in distro.default_schedulers:
            assert row.match is not None, (distro.id, row.devices)
            assert set(row.match.hardware) <= presets, (distro.id, row.devices)


def test_exactly_one_scheduler_per_device_and_path(kb: Kb) -> None:
    for distro, preset, name in _cases(kb):
        for io_path in IO_PATHS:
            winners = _winners(distro.default_schedulers, preset, name, io_path, distro.kernel)
            assert len(winners) <= 1, (distro.id, preset.id, name, io_path, winners)
            if winners:
                available = set(kb.offered_on(distro.kernel, io_path)) or {"none"}
                assert winners <= available, (distro.id, preset.id, name, io_path, winners)


def test_every_supported_preset_resolves_on_each_distribution(kb: Kb) -> None:
    for distro in kb.section("distributions"):
        for preset in kb.section("hardware"):
            if not _supported(distro, preset):
                continue
            rows, device = distro.default_schedulers, preset.example_device
            assert any(_winners(rows, preset, device, p, distro.kernel) for p in IO_PATHS), (distro.id, preset.id)


def test_virtio_disks_never_get_a_legacy_scheduler_on_blk_mq_kernels(kb: Kb) -> None:
    """From the first blk-mq kernel (or a vendor backport) vd* rows are blk-mq rows: no noop, deadline or cfq."""
    first_blk_mq = kb.get("none").since
    legacy = {e.name for e in kb.section("elevators") if e.io_path == "legacy"}
    virtual = kb.get("virtual")
    assert any(fnmatchcase("vda", g) for g in _globs(virtual))
    for distro in kb.section("distributions"):
        backported = _winners(distro.default_schedulers, virtual, "vda", "blk-mq", distro.kernel)
        if distro.kernel < first_blk_mq and not backported:
            continue
        for row in distro.default_schedulers:
            if row.applies(virtual.id, "vda", True, row.io_path, distro.kernel):
                assert row.io_path == "blk-mq" and row.elevator not in legacy, (distro.id, row.devices)
        assert _winners(distro.default_schedulers, virtual, "vda", "blk-mq", distro.kernel), distro.id


def test_udev_and_driver_rows_outrank_the_kernel_default_they_override(kb: Kb) -> None:
    for distro, preset, name in _cases(kb):
        for io_path in IO_PATHS:
            rows = _applicable(distro.default_schedulers, preset, name, io_path, distro.kernel)
            kernel_rows = [r for r in rows if r.via in ("kernel", "kconfig")]
            other = [r for r in rows if r.via not in ("kernel", "kconfig")]
            if kernel_rows and other:
                assert _winners(tuple(rows), preset, name, io_path, distro.kernel) <= {r.elevator for r in other}


def test_hardware_kernel_releases_are_stated_by_a_cited_source(kb: Kb) -> None:
    for preset in kb.section("hardware"):
        texts = " ".join(f"{kb.get(s).title} {kb.get(s).note or ''}" for s in preset.sources)
        for version in (preset.blk_mq_since, preset.since):
            if version is not None:
                assert re.search(VERSION_WORD.format(re.escape(str(version))), texts), (preset.id, str(version))
        for required in preset.required_elevator:
            cited = " ".join(f"{kb.get(s).title} {kb.get(s).note or ''}" for s in required.sources)
            for version in (required.since, required.until):
                if version is not None:
                    assert re.search(VERSION_WORD.format(re.escape(str(version))), cited), (preset.id, str(version))


def test_only_driver_chosen_presets_differ_from_the_common_legacy_default(kb: Kb) -> None:
    legacy = {h.id: h.default_elevator["legacy"] for h in kb.section("hardware") if "legacy" in h.default_elevator}
    common = max(set(legacy.values()), key=list(legacy.values()).count)
    for preset_id, elevator in legacy.items():
        if elevator != common:
            assert kb.get(preset_id).facts.get("hw.dasd"), preset_id


def test_dasd_rows_follow_the_s390_tools_rule_history(kb: Kb) -> None:
    """A udev DASD row names the rule's value: deadline (mq-deadline on blk-mq) before the switch, none after."""
    switch = kb.get("s390-tools-commit-dasd-none")
    assert "v2.17.0" in switch.note
    for distro in kb.section("distributions"):
        for row in distro.default_schedulers:
            if row.via == "udev" and row.match and "dasd" in row.match.hardware:
                assert switch.id in row.sources, distro.id
                assert row.elevator in {"mq-deadline", "none"} and row.io_path == "blk-mq", distro.id


def test_s390_boot_loaders_name_their_update_command(kb: Kb) -> None:
    for distro in kb.section("distributions"):
        for loader in distro.boot_loaders:
            if loader.name == "zipl":
                assert loader.update == "zipl", distro.id
            else:
                assert loader.update == distro.grub_update, distro.id


def test_vendor_scoped_defaults_name_distributions_that_run_the_tool(kb: Kb) -> None:
    for setting in (*kb.section("sysctls"), *kb.section("queue_attributes")):
        for scoped in setting.defaults:
            condition = scoped.scope.condition or ""
            if "TuneD" in condition:
                for distro_id in scoped.scope.distributions:
                    assert "tuned-profile" in kb.get(distro_id).persistence, (setting.id, distro_id)


@pytest.mark.parametrize("field", ["hardware", "kernel_names", "rotational"])
def test_a_narrower_match_has_higher_specificity(field: str) -> None:
    values = {"hardware": ("hdd",), "kernel_names": ("sd*",), "rotational": True}
    assert DeviceMatch(**{field: values[field]}).specificity == DeviceMatch().specificity + 1


@given(
    name=st.from_regex(r"[a-z]{1,6}[0-9]{0,2}", fullmatch=True),
    rotational=st.booleans(),
    glob=st.sampled_from(["sd*", "vd*", "mmcblk*[0-9]", "dasd*[!0-9]", "nvme*"]),
)
def test_device_match_is_the_conjunction_of_its_fields(name: str, rotational: bool, glob: str) -> None:
    match = DeviceMatch(kernel_names=(glob,), rotational=True)
    assert match.matches("hdd", name, rotational) == (fnmatchcase(name, glob) and rotational)
    assert DeviceMatch().matches("hdd", name, rotational)
