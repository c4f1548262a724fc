"""Device helpers without a device: names, sizes, scheduler lines, signatures, fio command lines."""

from __future__ import annotations

import pytest

from iosched.errors import UsageError
from iosched.measure.bench import rotated
from iosched.measure.device import HEAD_BYTES, SIGNATURES, check_name, parse_schedulers, parse_size, signature
from iosched.measure.fiojobs import WORKLOADS, command


@pytest.mark.parametrize("name", ["sda", "nvme0n1", "loop7", "/dev/vdb", "dm0", "dm-0"])
def test_good_names(name: str) -> None:
    assert "/" not in check_name(name)


@pytest.mark.parametrize("name", ["", "../sda", "sda/..", "/dev/../sda", "SDA", "sd a", "a" * 40, "dm-0;rm", "sda\n"])
def test_bad_names(name: str) -> None:
    with pytest.raises(UsageError):
        check_name(name)


def test_sizes() -> None:
    assert parse_size("64M") == 64 * 2**20
    assert parse_size("1G") == 2**30
    assert parse_size("512MiB") == 512 * 2**20
    for bad in ("", "1X", "-5M", "1M"):
        with pytest.raises(UsageError):
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
        assert ("--readonly" in args) == (not workload.writes)
    latency = next(w for w in WORKLOADS if w.name == "latency")
    assert "--rate_iops=500" in command(latency, "sda", runtime=3, size=2**26, output="x", rate_iops=500)
