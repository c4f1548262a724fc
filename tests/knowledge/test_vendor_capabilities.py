"""Vendor kernels are not their upstream version: a distribution's own kernel decides a device's path and the
elevators it offers, and no plan writes an elevator the device does not offer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fnmatch import fnmatchcase
from typing import Any

import pytest

from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError, resolve, vendor_capability
from iosched.planning.engine import advise


def _names(kb: Kb, preset: Any) -> set[str]:
    """Kernel names a preset's devices can have: its example, and one name per glob any distribution row uses."""
    globs = [g for m in preset.udev_match if m.key == "KERNEL" for g in m.value.split("|")]
    rows = [r for d in kb.section("distributions") for r in (*d.default_schedulers, *d.io_paths)]
    prefixes = {re.split(r"[*?\[]", g, maxsplit=1)[0] for r in rows for g in (r.match.kernel_names if r.match else ())}
    candidates = {preset.example_device} | {p + "a" for p in prefixes if p}
    return {n for n in candidates if any(fnmatchcase(n, g) for g in globs)}


def _situations(kb: Kb) -> Iterator[tuple[str, str, str]]:
    for distro in kb.section("distributions"):
        for preset in kb.section("hardware"):
            for name in sorted(_names(kb, preset)):
                yield distro.id, preset.id, name


def _row_cases(kb: Kb) -> Iterator[tuple[str, Any, str, str]]:
    for distro in kb.section("distributions"):
        for row in distro.io_paths:
            for preset in kb.section("hardware"):
                for name in sorted(_names(kb, preset)):
                    rotational = bool(preset.facts.get("hw.rotational"))
                    if row.match.matches(preset.id, name, rotational):
                        yield distro.id, row, preset.id, name


def test_every_vendor_row_covers_a_device_it_can_be_asked_about(kb: Kb) -> None:
    covered = {(d, row.devices) for d, row, _, _ in _row_cases(kb)}
    rows = {(d.id, row.devices) for d in kb.section("distributions") for row in d.io_paths}
    assert rows and rows == covered


def test_a_distribution_kernel_puts_its_devices_on_the_vendor_path(kb: Kb) -> None:
    """The release's row beats the upstream version: RHEL 7's 3.10 runs virtio-blk and NVMe on blk-mq."""
    for distro_id, row, hw, name in _row_cases(kb):
        distro = kb.get(distro_id)
        for kernel in (None, f"{distro.kernel}.0-1160"):
            try:
                r = resolve(kb, Context(hw=hw, distro=distro_id, device=name, kernel=kernel))
            except ContextError:
                continue
            assert r.io_path == row.io_path, (distro_id, hw, name, kernel)
            if row.offered:
                assert r.offered == row.offered, (distro_id, hw, name)
                assert r.previous is None or r.previous in row.offered, (distro_id, hw, name, r.previous)


def test_no_plan_writes_an_elevator_the_device_does_not_offer(kb: Kb) -> None:
    """For every distribution, hardware and device name: the scheduler step and its undo name offered elevators."""
    checked = 0
    for distro_id, hw, name in _situations(kb):
        for workload in ("db", "streaming"):
            try:
                ctx = Context(hw=hw, distro=distro_id, device=name, workload=workload)
                r, plan = resolve(kb, ctx), advise(kb, ctx)
            except ContextError:
                continue
            checked += 1
            for step in plan.steps:
                if step.kind == "scheduler":
                    assert set(step.values) <= set(r.offered), (distro_id, hw, name, step.values, r.offered)
                    assert step.previous is None or step.previous in r.offered, (distro_id, hw, name, step.previous)
    assert checked > 100


def test_elevators_read_from_the_device_beat_the_kb(kb: Kb) -> None:
    """A device read on the host offers what its scheduler file lists, whatever the KB says of its kernel."""
    ctx = Context(hw="virtual", device="vda", kernel="6.8", workload="desktop", offered="none,mq-deadline")
    r = resolve(kb, ctx)
    assert r.offered == ("none", "mq-deadline")
    plan = advise(kb, ctx)
    assert all(set(s.values) <= set(r.offered) for s in plan.steps if s.kind == "scheduler")


@pytest.mark.parametrize("kernel", ["6.8", "3.10"])
def test_upstream_holds_where_no_vendor_row_applies(kb: Kb, kernel: str) -> None:
    """Without a distribution, the upstream version decides (3.10 virtio-blk is legacy upstream)."""
    r = resolve(kb, Context(hw="virtual", device="vda", kernel=kernel))
    expected = set(kb.offered_on(r.kernel, r.io_path))
    assert set(r.offered) == expected


def test_the_path_a_device_resolves_to_is_one_its_distribution_has_a_default_for(kb: Kb) -> None:
    """Where a release's default-scheduler table covers a device only on some paths, the device is on one of them
    (RHEL 7 lists vd* only on blk-mq: planning it on the legacy path ignored the table)."""
    for distro_id, hw, name in _situations(kb):
        distro = kb.get(distro_id)
        try:
            r = resolve(kb, Context(hw=hw, distro=distro_id, device=name))
        except ContextError:
            continue
        rotational = bool(r.hardware.facts.get("hw.rotational"))
        rows = [row for row in distro.default_schedulers if row.holds_on(r.kernel)]
        paths = {row.io_path for row in rows if row.match is None or row.match.matches(hw, name, rotational)}
        assert not paths or r.io_path in paths or r.io_path == "bio", (distro_id, hw, name, r.io_path, paths)


def test_a_device_class_on_a_distribution_kernel_older_than_its_blk_mq_is_not_given_blk_mq_elevators(kb: Kb) -> None:
    """rbd (blk-mq since 4.0), nbd (4.9) and the other classes on a release whose own kernel is older than their
    blk-mq conversion: never an mq elevator; on a newer one blk-mq, unless a vendor row says otherwise."""
    checked = 0
    for cls in kb.section("device_classes"):
        if cls.plan != "device" or cls.blk_mq_since is None or cls.scsi:
            continue
        name = cls.kernel_names[0].replace("*", "0")
        for distro in kb.section("distributions"):
            ctx = Context(hw=(cls.hardware or ("ssd",))[0], distro=distro.id, device=name, workload="db")
            try:
                r = resolve(kb, ctx)
            except ContextError:
                continue
            if vendor_capability(r.distribution, r.hardware, name, r.kernel) is not None:
                continue
            checked += 1
            if r.kernel >= cls.blk_mq_since:
                assert r.io_path == "blk-mq", (cls.id, distro.id)
                continue
            assert r.io_path in ("legacy", "bio"), (cls.id, distro.id)  # request-based, or bio-based (NVMe < 3.19)
            mq_only = {e.name for e in kb.section("elevators") if e.io_path == "blk-mq"} - {"none"}
            assert not mq_only & set(r.offered), (cls.id, distro.id, r.offered)
    assert checked > 10
