"""Each reader on real outputs: the captures made here with sysstat and fio, and public samples."""

from __future__ import annotations

import re
from statistics import median

import pytest
from diagnose_helpers import DEVICE_FORMATS, PUBLIC, SCENARIOS, device, scenario

from iosched.symptoms.detect import read_bytes
from iosched.symptoms.observations import observe


def read(path):
    return read_bytes(path.read_bytes(), str(path))


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_device_format_of_a_capture_agrees(name: str) -> None:
    """iostat text and JSON, sar, sadf and diskstats sampled the same device over the same window: their
    median %util and queue depth agree (each a different reader and a different tool's arithmetic)."""
    dev = device(name)
    medians = {}
    for fmt in DEVICE_FORMATS:
        reading = read(scenario(name) / fmt)
        assert reading.missing == [], (fmt, reading.missing)
        samples = reading.devices[dev]
        assert len(samples) >= 25, fmt
        medians[fmt] = (median(s.values["util"] for s in samples), median(s.values["queue"] for s in samples))
    utils = [u for u, _ in medians.values()]
    queues = [q for _, q in medians.values()]
    assert max(utils) - min(utils) <= 10, medians
    assert max(queues) - min(queues) <= max(1.0, 0.15 * max(queues)), medians


def test_formats_are_recognised_by_content() -> None:
    expected = {
        "iostat-x-t.txt": "iostat -x", "iostat-x.json": "iostat JSON", "sar-d.txt": "sar -d", "sadf-d.txt": "sadf -d",
        "diskstats.log": "/proc/diskstats", "pressure-io.log": "/proc/pressure/io", "meminfo.log": "/proc/meminfo",
        "proc-vmstat.log": "/proc/vmstat", "vmstat-1.txt": "vmstat 1", "stack.log": "/proc/PID/stack samples",
    }  # fmt: skip
    for file, fmt in expected.items():
        assert read(scenario("dirty-flush") / file).fmt == fmt, file


def test_old_layout_iostat_maps_to_the_same_metrics_as_the_new() -> None:
    """sysstat 10.1.5 (CentOS 7.7: Device:, avgrq-sz, avgqu-sz, svctm) and 12.6.1 (aqu-sz, rareq-sz)."""
    old = read(PUBLIC / "jc-centos-7.7-iostat-x.out")
    new = read(PUBLIC / "sysstat-12.6.1-expected.iostat-x")
    assert set(old.devices) == {"sda", "dm-0", "dm-1"}
    for reading in (old, new):
        for samples in reading.devices.values():
            assert {"util", "queue", "r_await", "w_await", "rkb_s", "wkb_s"} <= set(samples[0].values)
    header = next(line for line in (PUBLIC / "jc-centos-7.7-iostat-x.out").read_text().splitlines()
                  if line.startswith("Device:")).split()  # fmt: skip
    row = next(line for line in (PUBLIC / "jc-centos-7.7-iostat-x.out").read_text().splitlines()
               if line.startswith("sda ")).split()  # fmt: skip
    assert old.devices["sda"][0].values["queue"] == float(row[header.index("avgqu-sz")])
    assert old.devices["sda"][0].values["areq_kib"] == float(row[header.index("avgrq-sz")]) / 2


def test_sadf_reads_only_disk_lines_of_a_report_of_every_activity() -> None:
    """sysstat's own expected output of sadf -d: every activity, one section after another."""
    text = (PUBLIC / "sysstat-12.6.1-expected.sadf-d").read_text()
    reading = read(PUBLIC / "sysstat-12.6.1-expected.sadf-d")
    names, section = set(), False
    for line in text.splitlines():
        if line.startswith("#"):
            section = line.startswith("# hostname;interval;timestamp;DEV;")
        elif section and line:
            names.add(line.split(";")[3])
    assert set(reading.devices) == names
    assert "cciss/c0d0" in reading.devices


def test_json_partitions_count_under_their_disk() -> None:
    reading = read(PUBLIC / "sysstat-12.6.1-expected.iostat-x-p-ALL-JSON")
    assert {"sda", "sda1"} <= set(reading.devices)  # the first (since-boot) of its two reports is left out
    observed = observe([reading])
    idle_or_measured = [*observed.devices, *"".join(n for n in observed.notes if n.startswith("no I/O")).split(", ")]
    assert any(name.endswith("sda") for name in idle_or_measured)  # idle in the one real interval
    assert not [d for d in observed.devices if re.fullmatch(r"sda\d+", d)]
    idle = [n for n in observed.notes if n.startswith("no I/O at all")]
    assert "since boot" in "".join(observed.notes)
    assert not any(re.search(r"\bsda\d+\b", n) for n in idle)  # partitions are not devices, idle or not


def test_one_report_since_boot_gives_no_window() -> None:
    """A single iostat report is the average since boot: context, said in the notes, never measurements."""
    observed = observe([read(PUBLIC / "jc-centos-7.7-iostat-x.out")])
    assert observed.devices == {} and any("read as context" in n for n in observed.notes)


def test_the_first_of_several_iostat_reports_is_left_out() -> None:
    reading = read(scenario("healthy") / "iostat-x-t.txt")
    reports = (scenario("healthy") / "iostat-x-t.txt").read_text().count("\nDevice ")
    assert len(reading.devices[device("healthy")]) == reports - 1
    assert reading.clock


def test_hung_task_report_waiting_on_io() -> None:
    reading = read(PUBLIC / "scality-restblockdriver-32-hung-task.log")
    assert reading.fmt == "hung-task reports"
    assert [s.values for s in reading.host] == [{"hung_dirty": 0.0, "hung_io": 1.0}]
    observed = observe([reading])
    assert observed.counts == {"hung_dirty": 0.0, "hung_io": 1.0}


def test_stack_samples_of_the_dirty_flush_writer() -> None:
    """The writer's stack, 5 samples a second (capture.sh): every sample is read, none invented as throttled
    (on this kernel the stack does not name balance_dirty_pages)."""
    path = scenario("dirty-flush") / "stack.log"
    reading = read(path)
    lines = path.read_text().splitlines()
    clock = [k for k, line in enumerate(lines) if re.fullmatch(r"\d{10}\.\d+", line)]
    stacks = sum(1 for k in clock if k + 1 < len(lines) and lines[k + 1].startswith("[<"))
    assert len(reading.host) == stacks > len(clock) // 2  # a running writer has an empty stack
    balance = "balance_dirty_pages" in path.read_text()
    assert any(s.values["stack_dirty"] for s in reading.host) == balance
