"""The fio workloads of ``iosched bench``: command lines for a whole device, direct I/O (pure).

fio runs its jobs as threads (``--thread``), not forked processes: one process, so that killing it (or the
bench dying, see ``bench._die_with_parent``) ends every job at once."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Workload:
    name: str
    summary: str
    writes: bool
    options: tuple[str, ...]


WORKLOADS = (
    Workload("randread", "random read 4k, queue depth 32", False,
             ("--rw=randread", "--bs=4k", "--iodepth=32")),
    Workload("randrw", "mixed random 70 % read / 30 % write 4k, queue depth 16", True,
             ("--rw=randrw", "--rwmixread=70", "--bs=4k", "--iodepth=16")),
    Workload("seqwrite", "sequential write 1M, queue depth 8", True,
             ("--rw=write", "--bs=1M", "--iodepth=8")),
    Workload("dblike", "database-like: 4 jobs of 8k random 80 % read / 20 % write, queue depth 4", True,
             ("--rw=randrw", "--rwmixread=80", "--bs=8k", "--iodepth=4", "--numjobs=4", "--group_reporting")),
    Workload("latency", "latency probe: random read 4k at a fixed, Poisson-spaced rate, queue depth 1", False,
             ("--rw=randread", "--bs=4k", "--iodepth=1", "--rate_process=poisson")),
)  # fmt: skip
BY_NAME = {w.name: w for w in WORKLOADS}


def command(workload: Workload, device: str, *, runtime: int, size: int, output: str, rate_iops: int) -> list[str]:
    """The fio command line for one run of ``workload`` on ``/dev/DEVICE``."""
    ramp = 1 if runtime >= 5 else 0
    args = [
        "fio", f"--name={workload.name}", f"--filename=/dev/{device}", "--direct=1", "--ioengine=libaio",
        "--time_based", f"--runtime={runtime}", f"--ramp_time={ramp}", f"--size={size}", "--randrepeat=0",
        "--norandommap", "--thread", "--output-format=json", f"--output={output}", *workload.options,
    ]  # fmt: skip
    if workload.name == "latency":
        args.append(f"--rate_iops={rate_iops}")
    if not workload.writes:
        args.append("--readonly")
    return args


def precondition(device: str, *, size: int) -> list[str]:
    """One sequential write pass over the region, so that no workload reads never-written blocks."""
    return [
        "fio", "--name=precondition", f"--filename=/dev/{device}", "--direct=1", "--ioengine=libaio",
        "--rw=write", "--bs=1M", "--iodepth=8", f"--size={size}", "--thread", "--output-format=json",
    ]  # fmt: skip
