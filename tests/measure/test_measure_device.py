"""Device helpers without a device: names, sizes, scheduler lines, signatures, fio command lines."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.measure import MeasureError
from iosched.measure.bench import benchstate
from iosched.measure.bench.device import (
    HEAD_BYTES,
    SIGNATURES,
    check_name,
    fill,
    parse_schedulers,
    parse_size,
    signature,
)
from iosched.measure.bench.fiojobs import WORKLOADS, command
from iosched.measure.bench.runner import ROUNDS, reach, rotated
from iosched.measure.judging.judgement import ALPHA
from iosched.measure.judging.stats import runs_needed


@pytest.mark.parametrize("name", ["sda", "nvme0n1", "loop7", "/dev/vdb", "dm0", "dm-0"])
def test_good_names(name: str) -> None:
    assert "/" not in check_name(name)


@pytest.mark.parametrize("name", ["", "../sda", "sda/..", "/dev/../sda", "SDA", "sd a", "a" * 40, "dm-0;rm", "sda\n"])
def test_bad_names(name: str) -> None:
    with pytest.raises(MeasureError):
        check_name(name)


def test_sizes() -> None:
    assert parse_size("64M") == 64 * 2**20
    assert parse_size("1G") == 2**30
    assert parse_size("512MiB") == 512 * 2**20
    for bad in ("", "1X", "-5M", "1M"):
        with pytest.raises(MeasureError):
            parse_size(bad)


def test_scheduler_line() -> None:
    assert parse_schedulers("none [mq-deadline] kyber bfq\n") == (
        ["none", "mq-deadline", "kyber", "bfq"],
        "mq-deadline",
    )
    assert parse_schedulers("[none] \n") == (["none"], "none")


@pytest.mark.parametrize(("offset", "magic", "what"), SIGNATURES)
def test_every_signature_is_found(offset: int, magic: bytes, what: str) -> None:
    head = bytearray(HEAD_BYTES)
    head[offset : offset + len(magic)] = magic
    assert signature(bytes(head)) is not None
    assert signature(bytes(HEAD_BYTES)) is None


def test_rotation_visits_every_order_position() -> None:
    names = ["none", "mq-deadline", "kyber", "bfq"]
    firsts = [rotated(names, r)[0] for r in range(1, 5)]
    assert sorted(firsts) == sorted(names)
    assert all(sorted(rotated(names, r)) == sorted(names) for r in range(1, 9))


def test_fio_commands_are_direct_and_reads_are_read_only() -> None:
    for workload in WORKLOADS:
        args = command(workload, "loop0", runtime=3, size=2**26, output="/tmp/x.json", rate_iops=500)
        assert "--direct=1" in args and "--filename=/dev/loop0" in args and "--output-format=json" in args
        assert "--thread" in args  # one process: killing it ends every job
        assert ("--readonly" in args) == (not workload.writes)
    latency = next(w for w in WORKLOADS if w.name == "latency")
    assert "--rate_iops=500" in command(latency, "sda", runtime=3, size=2**26, output="x", rate_iops=500)


def test_a_loop_image_is_written_not_sparse(tmp_path) -> None:
    image = tmp_path / "disk.img"
    fill(image, 3 * 2**20 + 512)
    info = image.stat()
    assert info.st_size == 3 * 2**20 + 512 and info.st_blocks * 512 >= info.st_size
    assert len(set(image.read_bytes()[:4096])) > 200  # incompressible, not zeros


def test_too_few_rounds_are_named_before_the_bench_starts() -> None:
    needed = runs_needed(ALPHA)
    assert reach(ROUNDS) is None and reach(needed) is None
    assert f"--rounds {needed}" in reach(needed - 1) and reach(1) is not None


STATES = st.fixed_dictionaries(
    {"pid": st.integers(1, 2**22), "started": st.integers(0, 2**40)},
    optional={
        "image": st.sampled_from(["/tmp/iosched-bench-x1/disk.img", "/etc/passwd", "/tmp/../etc/disk.img", ""]),
        "device": st.sampled_from(["loop3", "sda", "../sda", "sda;reboot", ""]),
        "scheduler": st.sampled_from(["mq-deadline", "none", "Bad Name", "x" * 40, ""]),
        "tunables": st.dictionaries(st.sampled_from(["read_expire", "../../../etc/x", "fifo_batch"]),
                                    st.sampled_from(["500", "16", "1\n2", "x" * 80]), max_size=3),
    },
)  # fmt: skip


@given(STATES | st.dictionaries(st.text(max_size=8), st.integers(), max_size=4))
def test_a_state_file_is_used_only_when_every_field_is_sound(doc: dict) -> None:
    try:
        state = benchstate.parse(json.dumps(doc), "state")
    except MeasureError as exc:
        assert "\n" not in str(exc)
        return
    assert set(doc) == set(benchstate.State.__dataclass_fields__)
    assert state.device in ("", "loop3", "sda") and state.scheduler in ("", "mq-deadline", "none")
    assert state.image in ("", "/tmp/iosched-bench-x1/disk.img")
    assert all("/" not in k and "\n" not in v for k, v in state.tunables.items())


def test_a_state_file_reads_back_what_was_saved(tmp_path) -> None:
    saved = benchstate.State(pid=4242, started=7, image="/tmp/iosched-bench-ab/disk.img", device="loop3",
                             scheduler="mq-deadline", tunables={"read_expire": "500"})  # fmt: skip
    benchstate.save(saved, tmp_path)
    assert benchstate.parse(benchstate.path_for(4242, tmp_path).read_text(), "x") == saved
