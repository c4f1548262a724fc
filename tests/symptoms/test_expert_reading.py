"""How an engineer reads iostat, on hand-made traps whose answer follows from sysstat's arithmetic: an idle
lead-in, reads that never complete (r_await 0.00 when r/s is 0), a parallel device at %util 100 with no
queueing, and a hung-task report on its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.symptoms.diagnosis import diagnose
from iosched.symptoms.observations import Observed, _observe, window_facts
from iosched.symptoms.series import Reading, Sample

IDLE = {"util": 0.0, "queue": 0.0, "r_s": 0.0, "w_s": 0.0, "r_await": 0.0, "w_await": 0.0, "rkb_s": 0.0,
        "wkb_s": 0.0}  # fmt: skip


def _observed(device: str, rows: list[dict[str, float]]) -> Observed:
    samples = [Sample(1.7e9 + k, row) for k, row in enumerate(rows)]
    reading = Reading("trap", "iostat -x", {device: samples}, [], [])
    obs = {m: o for m in rows[0] if (o := _observe(device, m, samples, reading))}
    return Observed({device: obs}, {device: samples}, {}, [], [], {}, {}, {})


def _ids(kb: object, device: str, rows: list[dict[str, float]]) -> list[str]:
    (found,) = diagnose(kb, _observed(device, rows))
    return [f.cause.id for f in found.findings]


def test_an_idle_lead_in_does_not_hide_saturation(kb) -> None:
    """8 idle intervals, then 22 at %util 95 with 20 queued: busy in 73% of the file, in all of the load."""
    busy = {**IDLE, "util": 95.0, "queue": 20.0, "r_s": 300.0, "w_s": 300.0, "r_await": 30.0, "w_await": 35.0,
            "rkb_s": 1200.0, "wkb_s": 1200.0}  # fmt: skip
    rows = [IDLE] * 8 + [busy] * 22
    assert window_facts([Sample(float(k), r) for k, r in enumerate(rows)])["obs.active.intervals"] == 22
    assert _ids(kb, "sdb", rows)[0] == "IOD004"


def test_reads_that_never_complete_are_starved_not_fast(kb) -> None:
    """A write flood; in 4 of 5 intervals no read completes (iostat prints r/s 0.00, r_await 0.00), the reads
    that do complete waited 2.9 s: median r_await says 0 ms, the weighted one 2,900 ms."""
    flood = {**IDLE, "util": 100.0, "queue": 24.0, "w_s": 400.0, "w_await": 60.0, "wkb_s": 400_000.0}
    read = {**flood, "r_s": 1.0, "r_await": 2900.0, "rkb_s": 4.0}
    rows = ([flood] * 4 + [read]) * 6
    facts = window_facts([Sample(float(k), r) for k, r in enumerate(rows)])
    assert facts["obs.r_await.weighted"] == 2900 and facts["obs.r_starved_share"] == 80
    assert "IOD006" in _ids(kb, "sdc", rows)


def test_a_parallel_device_at_full_util_without_queueing_is_not_saturated(kb) -> None:
    """NVMe at 70,000 4 KiB random reads/s, 0.09 ms each, 6 in flight, %util 100: await equals service time."""
    row = {**IDLE, "util": 100.0, "queue": 6.3, "r_s": 70_000.0, "r_await": 0.09, "await": 0.09,
           "rkb_s": 280_000.0, "rrqm_s": 0.0}  # fmt: skip
    ids = _ids(kb, "nvme0n1", [row] * 30)
    assert "IOD004" not in ids and "IOD005" not in ids
    assert "IOD004" in _ids(kb, "sdd", [row] * 30)  # the same numbers on a one-queue disk: saturated


def test_a_hung_task_report_alone_names_the_dirty_flush_stall(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    log = tmp_path / "messages"
    log.write_text("2026-11-26T10:00:00 h kernel: INFO: task dd:4242 blocked for more than 120 seconds.\n"
                   "2026-11-26T10:00:00 h kernel: Call Trace:\n"
                   "2026-11-26T10:00:00 h kernel:  balance_dirty_pages+0x3c1/0xd20\n")  # fmt: skip
    assert main(["diagnose", str(log), "--format", "json"]) == 0
    (host,) = json.loads(capsys.readouterr().out)["devices"]
    assert [c["id"] for c in host["causes"]] == ["IOD001"]
    assert all(e["window"] and e["source"] for e in host["causes"][0]["evidence"])


def test_no_cause_still_shows_window_and_source_and_what_to_capture(kb) -> None:
    """Two busy intervals fit no cause: every number still names its window and source, and what to capture."""
    from iosched.render.diagnosis_markdown import CAPTURE_NEXT, render_json

    row = {**IDLE, "util": 50.0, "queue": 1.0, "r_s": 10.0, "r_await": 1.0}
    observed = _observed("sde", [row, row])
    (found,) = diagnose(kb, observed)
    assert not found.findings and found.shown
    assert all(e.window and e.source for e in found.shown)
    (doc,) = json.loads(render_json(observed, [found], {}))["devices"]
    assert doc["capture_next"] == CAPTURE_NEXT and len(doc["evidence_without_cause"]) == len(found.shown)


@pytest.mark.parametrize(("hw", "saturated"), [("nvme", False), ("raid", False), ("san", False), ("hdd", True)])
def test_the_hardware_named_decides_how_a_full_util_is_judged(kb, hw: str, saturated: bool) -> None:
    """The parallel trap on a device whose name says nothing (sdd): --hw's class decides, as the plan's does;
    the evidence of a one-queue judgement names --hw as its source."""
    row = {**IDLE, "util": 100.0, "queue": 6.3, "r_s": 70_000.0, "r_await": 0.09, "await": 0.09,
           "rkb_s": 280_000.0, "rrqm_s": 0.0}  # fmt: skip
    (found,) = diagnose(kb, _observed("sdd", [row] * 30), hw=kb.get(hw))
    ids = [f.cause.id for f in found.findings]
    assert ("IOD004" in ids) is saturated, ids
    if saturated:
        (cause,) = [f for f in found.findings if f.cause.id == "IOD004"]
        (multiqueue,) = [e for e in cause.evidence if e.fact == "hw.multiqueue"]
        assert multiqueue.value is False and f"--hw {hw}" in multiqueue.window


def test_what_sysfs_says_wins_over_the_hardware_named(kb) -> None:
    """A capture's sysfs that reads one hardware queue wins over --hw nvme: the device is judged serially."""
    row = {**IDLE, "util": 100.0, "queue": 6.3, "r_s": 70_000.0, "r_await": 0.09, "await": 0.09}
    (found,) = diagnose(kb, _observed("vdb", [row] * 30), {"vdb": {"hw.multiqueue": False}}, hw=kb.get("nvme"))
    assert "IOD004" in [f.cause.id for f in found.findings]


def test_idle_busy_idle_busy_is_judged_by_phase(kb) -> None:
    """Two 8-interval stretches at %util 95 with 20 queued, 8 idle between: busy in two thirds of the active
    window (no saturation over it), saturated in each phase; the evidence names the phase."""
    busy = {**IDLE, "util": 95.0, "queue": 20.0, "r_s": 300.0, "w_s": 300.0, "r_await": 30.0, "w_await": 35.0,
            "rkb_s": 1200.0, "wkb_s": 1200.0}  # fmt: skip
    rows = [IDLE] * 4 + [busy] * 8 + [IDLE] * 8 + [busy] * 8 + [IDLE] * 2
    assert window_facts([Sample(float(k), r) for k, r in enumerate(rows)])["obs.active.busy_share"] < 75
    (found,) = diagnose(kb, _observed("sdf", rows))
    (cause,) = found.findings
    assert cause.cause.id == "IOD004" and all(e.window.startswith("phase 1 of 2: ") for e in cause.evidence)


def test_a_write_flood_then_a_read_phase_judges_each(kb) -> None:
    """Reads starved behind a write flood for 10 intervals, then 10 of reads alone on the same device: the
    starvation is named from the flood phase, though over the whole window reads complete in half the intervals."""
    flood = {**IDLE, "util": 100.0, "queue": 24.0, "w_s": 400.0, "w_await": 60.0, "wkb_s": 400_000.0}
    late = {**flood, "r_s": 1.0, "r_await": 2900.0, "rkb_s": 4.0}
    reads = {**IDLE, "util": 60.0, "queue": 1.5, "r_s": 3000.0, "r_await": 0.4, "rkb_s": 12_000.0}
    rows = ([flood] * 4 + [late]) * 2 + [reads] * 10
    (found,) = diagnose(kb, _observed("sdg", rows))
    starved = [f for f in found.findings if f.cause.id == "IOD006"]
    assert starved and all(e.window.startswith("phase 1 of 2: ") for e in starved[0].evidence)


@pytest.mark.parametrize("gap", [0, 1, 2])
def test_bursts_are_no_phases(kb, gap: int) -> None:
    """Bursts of three intervals, however close: no phase, no cause beyond the healthy verdict."""
    burst = {**IDLE, "util": 100.0, "queue": 40.0, "r_s": 500.0, "r_await": 80.0, "rkb_s": 2000.0}
    rows = [IDLE] * 10 + [burst] * 3 + [IDLE] * (10 + gap) + [burst] * 3 + [IDLE] * 10
    assert [f.cause.id for f in diagnose(kb, _observed("sdh", rows))[0].findings] in (["IOD010"], [])


def _flood_with_reads(dirty_kib: float) -> Observed:
    """30 intervals of a write flood at %util 100 with 40 queued; one read in five intervals completes after 180 ms;
    dirty memory at ``dirty_kib`` of a 1 GiB dirty limit (/proc/vmstat's threshold)."""
    flood = {**IDLE, "util": 100.0, "queue": 40.0, "w_s": 400.0, "w_await": 90.0, "wkb_s": 400_000.0}
    read = {**flood, "r_s": 1.0, "r_await": 180.0, "rkb_s": 4.0}
    observed = _observed("sdi", ([flood] * 4 + [read]) * 6)
    host = Reading("trap", "/proc/vmstat", {}, [Sample(1.7e9 + k, {"dirty_kib": dirty_kib, "dirty_limit_kib": 1 << 20})
                                              for k in range(30)], [])  # fmt: skip
    found = {m: o for m in ("dirty_kib", "dirty_limit_kib") if (o := _observe("host", m, host.host, host))}
    return observed._replace(host=found)


def test_a_writeback_flush_that_holds_reads_is_named_as_such(kb) -> None:
    """The same flood with dirty memory at 70% of the kernel's limit is the flush (IOD009, first); with none,
    it is a flood of direct writes, which IOD009 does not claim."""
    (flush,) = diagnose(kb, _flood_with_reads(0.7 * (1 << 20)))
    assert flush.findings[0].cause.id == "IOD009"
    assert {e.fact for e in flush.findings[0].evidence} >= {"obs.dirty_pct_of_limit", "obs.r_starved_share"}
    (direct,) = diagnose(kb, _flood_with_reads(0.0))
    assert "IOD009" not in [f.cause.id for f in direct.findings] and direct.findings


def _stacked(upper: list[dict[str, float]], lower: list[dict[str, float]]) -> Observed:
    one, two = _observed("dm-0", upper), _observed("sda", lower)
    return Observed({**one.devices, **two.devices}, {**one.series, **two.series}, {}, [], [], {"dm-0": ("sda",)},
                    {}, {})  # fmt: skip


def test_queueing_is_attributed_to_the_disk_under_an_lv(kb) -> None:
    """An LV and its disk both saturated: the queue starts on the disk; the LV passes its plan to it."""
    busy = {**IDLE, "util": 95.0, "queue": 20.0, "r_s": 300.0, "w_s": 300.0, "r_await": 30.0, "w_await": 35.0,
            "rkb_s": 1200.0, "wkb_s": 1200.0}  # fmt: skip
    lv, disk = diagnose(kb, _stacked([busy] * 30, [busy] * 30))
    assert lv.device == "dm-0" and lv.findings and lv.plan == {} and "starts on sda" in lv.stacking
    assert disk.plan and not disk.stacking
    idle_disk = {**IDLE, "util": 20.0, "queue": 0.3, "r_s": 300.0, "w_s": 300.0, "r_await": 0.5, "w_await": 0.5}
    lv, disk = diagnose(kb, _stacked([busy] * 30, [idle_disk] * 30))
    assert lv.plan and "starts on dm-0" in lv.stacking


def test_a_phase_sees_the_host_over_its_own_times() -> None:
    """PSI at 50% in the first half only: the second phase's host shows 0, not the whole capture's median."""
    from iosched.symptoms.observations import phases, restricted

    busy = {**IDLE, "util": 95.0, "queue": 20.0, "r_s": 300.0, "r_await": 30.0, "rkb_s": 1200.0}
    observed = _observed("sdj", [IDLE] * 2 + [busy] * 10 + [IDLE] * 6 + [busy] * 10 + [IDLE] * 2)
    samples = [Sample(1.7e9 + k, {"psi_some": 50.0 if k < 15 else 0.0}) for k in range(30)]
    reading = Reading("trap", "/proc/pressure/io", {}, samples, [])
    psi = _observe("host", "psi_some", samples, reading)
    assert psi is not None
    observed = observed._replace(host={"psi_some": psi}, host_series={"psi_some": samples})
    first, second = phases(observed.series["sdj"])
    assert restricted(observed, "sdj", first).host["psi_some"].median == 50
    assert restricted(observed, "sdj", second).host["psi_some"].median == 0
