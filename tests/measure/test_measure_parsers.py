"""Every parser on real outputs (see fixtures/README.md for where each comes from)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from measure_helpers import FIXTURES, fixture_text, load_results, names

from iosched.measure import MeasureError, load
from iosched.measure.parsers.loader import detect, parse_text


def values(name: str) -> dict[tuple[str, str], float]:
    parsed = parse_text(fixture_text(name), name)
    return {(m.test, m.metric): m.value for m in parsed.measurements}


def number_in(name: str, pattern: str) -> float:
    """A number read from the fixture itself with a pattern written for the test."""
    match = re.search(pattern, fixture_text(name))
    assert match, pattern
    return float(match.group(1))


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("fio2.2.10-json-write.json", "fio JSON"),
        ("fio3-json-randread-none-r1.json", "fio JSON"),
        ("fio3-jsonplus-mixed-ioscheduler.json", "fio JSON"),
        ("fio3-terse-seqwrite.txt", "fio terse"),
        ("iozone-3.169-throughput-mode.txt", "iozone"),
        ("iozone-3.4-throughput-R.txt", "iozone"),
        ("iozone-3.492-auto-table-blank-cells.txt", "iozone"),
        ("iozone-excel-R-auto.txt", "iozone"),
        ("iozone-scheduler-sda-all-results.log", "iozone-scheduler log"),
        ("pgbench-14.6-without-initial.txt", "pgbench"),
        ("pgbench-15.18-progress.txt", "pgbench"),
        ("pgbench-17.6-tpcb.txt", "pgbench"),
        ("dd-coreutils9-bfq.txt", "dd"),
        ("dd-coreutils8.2x-progress.txt", "dd"),
        ("dd-coreutils-old-seconds.txt", "dd"),
        ("sysbench-0.4.12-fileio-rndrw.txt", "sysbench fileio"),
        ("sysbench-0.5-fileio-quoted-mail.txt", "sysbench fileio"),
        ("sysbench-1.0.20-fileio-rndrw.txt", "sysbench fileio"),
    ],
)
def test_every_fixture_is_detected_and_parsed(name: str, kind: str) -> None:
    assert detect(fixture_text(name)) == kind
    parsed = parse_text(fixture_text(name), name)
    assert parsed.measurements
    for m in parsed.measurements:
        assert m.direction in ("higher", "lower")
        assert m.value >= 0


def test_fio3_json_units_follow_the_document() -> None:
    doc = json.loads(fixture_text("fio3-json-randread-none-r1.json"))
    read = doc["jobs"][0]["read"]
    got = values("fio3-json-randread-none-r1.json")
    assert got[("randread", "read_iops")] == pytest.approx(read["iops"])
    assert got[("randread", "read_bw")] == pytest.approx(read["bw_bytes"] / 2**20)
    assert got[("randread", "read_clat_mean")] == pytest.approx(read["clat_ns"]["mean"] / 1000)  # ns -> us
    assert got[("randread", "read_clat_p99")] == pytest.approx(read["clat_ns"]["percentile"]["99.000000"] / 1000)
    assert ("randread", "write_iops") not in got  # no writes were issued


def test_fio2_json_latency_is_microseconds_and_bw_kib() -> None:
    # fio 2.x: clat in microseconds, bw in KiB/s; strict JSON would choke on its duplicate "0.00" keys.
    write = json.loads(fixture_text("fio2.2.10-json-write.json"))["jobs"][0]["write"]
    got = values("fio2.2.10-json-write.json")
    assert got[("test", "write_clat_mean")] == pytest.approx(write["clat"]["mean"])
    assert got[("test", "write_clat_p99")] == pytest.approx(write["clat"]["percentile"]["99.000000"])
    assert got[("test", "write_bw")] == pytest.approx(write["bw"] / 1024)
    assert ("test", "read_iops") not in got  # total_ios == 0


def test_fio_ioscheduler_option_names_the_scheduler() -> None:
    doc = json.loads(fixture_text("fio3-jsonplus-mixed-ioscheduler.json"))
    options = {**doc.get("global options", {}), **doc["jobs"][0].get("job options", {})}
    found = load_results([FIXTURES / "fio3-jsonplus-mixed-ioscheduler.json"], scheduler_hint="bfq")
    assert {m.scheduler for m in found} == {options["ioscheduler"]}  # content beats the hint
    assert {m.metric for m in found} >= {"read_iops", "write_iops", "read_clat_p99", "write_clat_p99"}


def test_fio_terse_v3_fields() -> None:
    line = fixture_text("fio3-terse-seqwrite.txt").strip().split(";")
    got = values("fio3-terse-seqwrite.txt")
    assert got[("seqwrite", "write_iops")] == pytest.approx(float(line[48]))  # field 49: WRITE IOPS
    assert got[("seqwrite", "write_bw")] == pytest.approx(float(line[47]) / 1024)  # field 48: KiB/s
    assert got[("seqwrite", "write_clat_mean")] == pytest.approx(float(line[56]))  # field 57: clat mean, us


def test_iozone_throughput_mode_takes_children_see() -> None:
    got = values("iozone-3.169-throughput-mode.txt")
    kib = number_in(
        "iozone-3.169-throughput-mode.txt", r"Children see throughput for  1 initial writers\s+=\s+([\d.]+)"
    )
    assert got[("initial writers x1", "bw")] == pytest.approx(kib / 1024)
    assert len(got) == 4  # the -R block of the other sample is not counted twice
    assert len(values("iozone-3.4-throughput-R.txt")) == 4


def test_iozone_auto_table_places_cells_under_their_columns() -> None:
    got = values("iozone-3.492-auto-table-blank-cells.txt")
    row = fixture_text("iozone-3.492-auto-table-blank-cells.txt").splitlines()
    cells = next(line for line in row if line.strip().startswith("102400")).split()
    # read and reread are blank in this run: random read must not slide into the read column
    assert got[("random-read 102400k/1024k", "bw")] == pytest.approx(float(cells[4]) / 1024)
    assert got[("random-write 102400k/1024k", "bw")] == pytest.approx(float(cells[5]) / 1024)
    assert not any(test.startswith(("read ", "reread ")) for test, _ in got)


def test_iozone_excel_blocks() -> None:
    got = values("iozone-excel-R-auto.txt")
    assert got[("writer 16k/4k", "bw")] == pytest.approx(number_in("iozone-excel-R-auto.txt", r'"16"\s+(\d+)') / 1024)
    assert len(got) == 6


def test_iozone_scheduler_log_defects_are_repaired() -> None:
    loaded = load([FIXTURES / "iozone-scheduler-sda-all-results.log"], names=names())
    schedulers = {m.scheduler for m in loaded.measurements}
    assert "mq-deadline" in schedulers and "mq" not in schedulers
    assert not any(m.test == "Rewrite" for m in loaded.measurements)
    assert any("Rewrite" in n for n in loaded.notes)
    mq = [m for m in loaded.measurements if m.scheduler == "mq-deadline" and m.test == "Random read"]
    assert sorted(m.round for m in mq) == [1, 2, 3]  # recovered from row order


def test_seed_001_log_shows_the_rewrite_bug() -> None:
    seed = FIXTURES / "seed001-iozone-scheduler-blog-excerpt.txt"
    text = seed.read_text(encoding="utf-8")
    assert re.search(r"Rewrite\S*\$RWRITE", text)  # the script prints the Random write variable there
    rewrite = re.search(r"^Rewrite ([\d.]+) cfq 1 1$", text, re.MULTILINE)
    random_write = re.search(r"^Random write ([\d.]+) cfq 1 1$", text, re.MULTILINE)
    assert rewrite and random_write and rewrite.group(1) == random_write.group(1)
    loaded = load([seed], names=names())
    assert {m.scheduler for m in loaded.measurements} == {"cfq"}
    assert {m.round for m in loaded.measurements} == {1, 2}
    assert not any(m.test == "Rewrite" for m in loaded.measurements)


def test_seed_003_pgbench_transcript_attributes_runs_by_echo_lines() -> None:
    seed = FIXTURES / "seed003-pgbench-transcript-excerpt.txt"
    text = seed.read_text(encoding="utf-8")
    found = load_results([seed])
    tps = {(m.scheduler, m.value) for m in found if m.metric == "tps"}
    assert len(tps) == 3
    for scheduler in ("cfq", "deadline", "noop"):
        block = text[text.index(f"echo {scheduler}") if scheduler != "cfq" else text.index('echo "cfq"') :]
        expected = float(re.search(r"tps = ([\d.]+) \(excluding", block).group(1))
        assert (scheduler, expected) in tps
    latency = [m for m in found if m.metric == "latency_avg"]
    assert latency and all(m.unit == "ms" and m.direction == "lower" for m in latency)


def test_pgbench_versions() -> None:
    assert values("pgbench-14.6-without-initial.txt")[("pgbench", "tps")] == number_in(
        "pgbench-14.6-without-initial.txt", r"tps = ([\d.]+) \(without"
    )
    got = values("pgbench-15.18-progress.txt")
    assert got[("pgbench", "tps")] == number_in("pgbench-15.18-progress.txt", r"\ntps = ([\d.]+)")
    assert got[("pgbench", "latency_avg")] == number_in("pgbench-15.18-progress.txt", r"latency average = ([\d.]+)")


@pytest.mark.parametrize(
    "name", ["dd-coreutils9-bfq.txt", "dd-coreutils8.2x-progress.txt", "dd-coreutils-old-seconds.txt"]
)
def test_dd_rate_is_recomputed_from_the_summary(name: str) -> None:
    text = fixture_text(name)
    size, seconds = re.findall(r"^\s*(\d+) bytes .*? copied, ([\d.]+) s", text, re.MULTILINE)[-1]
    got = parse_text(text, name).measurements
    assert len(got) == 1  # the progress line is not a result
    assert got[0].value == pytest.approx(int(size) / float(seconds) / 2**20)


def test_sysbench_versions() -> None:
    old = values("sysbench-0.4.12-fileio-rndrw.txt")
    assert old[("fileio-rndrw", "requests")] == number_in("sysbench-0.4.12-fileio-rndrw.txt", r"([\d.]+) Requests/sec")
    assert old[("fileio-rndrw", "latency_p95")] == number_in(
        "sysbench-0.4.12-fileio-rndrw.txt", r"percentile:\s+([\d.]+)ms"
    )
    quoted = values("sysbench-0.5-fileio-quoted-mail.txt")
    assert quoted[("fileio-rndrw", "bw")] == number_in("sysbench-0.5-fileio-quoted-mail.txt", r"\(([\d.]+)Mb/sec\)")
    new = values("sysbench-1.0.20-fileio-rndrw.txt")
    assert new[("fileio-rndrw", "read_iops")] == number_in("sysbench-1.0.20-fileio-rndrw.txt", r"reads/s:\s+([\d.]+)")
    assert new[("fileio-rndrw", "write_bw")] == number_in(
        "sysbench-1.0.20-fileio-rndrw.txt", r"written, MiB/s:\s+([\d.]+)"
    )


def test_file_name_attribution_prefers_the_longest_token(tmp_path) -> None:
    text = fixture_text("dd-coreutils-old-seconds.txt")
    for name, expected in [("run-mq-deadline-2.txt", "mq-deadline"), ("deadline_r2.txt", "deadline"),
                           ("sda.bfq.txt", "bfq")]:  # fmt: skip
        (tmp_path / name).write_text(text)
        assert {m.scheduler for m in load_results([tmp_path / name])} == {expected}
    (tmp_path / "deadlines.txt").write_text(text)  # not a whole token
    with pytest.raises(MeasureError, match="which scheduler"):
        load_results([tmp_path / "deadlines.txt"])
    assert {m.scheduler for m in load_results([Path(f"kyber={tmp_path / 'deadlines.txt'}")])} == {"kyber"}


def test_bench_directory_rounds_come_from_file_names() -> None:
    found = load_results([FIXTURES / "bench-none-bfq"])
    assert {m.scheduler for m in found} == {"none", "bfq"}
    assert {m.round for m in found} == {1, 2, 3}
    assert sorted(m.run for m in found if m.scheduler == "bfq" and m.metric == "read_iops") == [1, 2, 3]


@pytest.mark.parametrize("content", [b"", b"hello world\n", b"\x00\x01binary", b'{"jobs": []}'])
def test_unrecognised_content_is_a_usage_error(tmp_path, content: bytes) -> None:
    path = tmp_path / "none-result.txt"
    path.write_bytes(content)
    with pytest.raises(MeasureError):
        load_results([path])


def test_missing_file_and_bad_scheduler_names() -> None:
    with pytest.raises(MeasureError, match="no such file"):
        load_results([FIXTURES / "does-not-exist.json"])
    with pytest.raises(MeasureError, match="not a scheduler name"):
        load_results([FIXTURES / "x"], scheduler_hint="Bad Name")
