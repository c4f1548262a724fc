"""verify's verdict counts the disks it did not check: a disk with a file system on it that is skipped while no
other plan covers it (no preset fits, a value refused) makes the host not compliant, named with its data;
partitions, volumes and paths whose disks are planned do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.hostplan import UNCHECKED, plan_host, verdict, verify

CAPTURES = sorted(p for p in (Path(__file__).parent / "captures").iterdir() if p.is_dir())


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.name)
def test_a_disk_with_data_that_no_plan_checked_is_never_compliant(capture: Path, kb: Kb) -> None:
    distros, presets = {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")}
    system = classified(read_root(capture), distros, presets)
    user = Context(workload="db")
    host = plan_host(kb, system, user)
    rows = verify(system, host)
    before = verdict(rows)
    unchecked = [r.device for r in rows if r.status == UNCHECKED]
    assert list(before.unchecked) == unchecked and before.compliant is (before.text == "compliant")
    assert not unchecked or not before.compliant
    with_data = [p.device for p in host.plans if p.context.get("mountpoint")]
    if not with_data:
        pytest.skip(f"{capture.name}: no planned disk holds a file system")  # the other captures cover it
    for device in with_data:
        unplaced = system.replace(devices=tuple(d.replace(hw=None) if d.name == device else d
                                                for d in system.devices))  # fmt: skip
        rows = verify(unplaced, plan_host(kb, unplaced, user))
        (row,) = [r for r in rows if r.device == device]
        result = verdict(rows)
        assert row.status == UNCHECKED and row.actual and " on /" in row.actual
        assert not result.compliant and device in result.unchecked and result.text.startswith("not checked: ")
        assert (f"; {result.differs} setting(s) differ" in result.text) is bool(result.differs)
        assert f"{device} (holds {row.actual}): {row.because}" in result.text


def test_a_san_host_whose_root_disk_fits_no_preset_is_not_checked(kb: Kb) -> None:
    """The RHEL 6 SAN capture's local disk sda holds / and /boot and fits no preset: the multipath maps agree
    or differ, but the host is never compliant while sda was not checked."""
    capture = next(p for p in CAPTURES if p.name == "sos-rhel6-san-mpath")
    distros, presets = {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")}
    system = classified(read_root(capture), distros, presets)
    result = verdict(verify(system, plan_host(kb, system, Context(workload="db"))))
    assert not result.compliant and result.unchecked == ("sda",)
    assert result.text.startswith("not checked: sda (holds ext4 on /boot, ext4 on /): no hardware preset")
