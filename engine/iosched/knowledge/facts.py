"""The registered facts that rule conditions may compare, and how each is compared."""

from __future__ import annotations

from functools import lru_cache

from iosched.hints import Literal
from iosched.kernel import KernelVersion

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FactType = Literal["bool", "str", "version", "number", "set"]


FACTS: dict[str, tuple[FactType, str]] = {
    "hw": ("str", "hardware preset id (hdd, ssd, nvme, virtual, san, raid, dasd, emmc, smr)"),
    "hw.rotational": ("bool", "the device has spinning media (queue/rotational = 1)"),
    "hw.multiqueue": ("bool", "the device has several hardware queues (NVMe and the like; absent when not known)"),
    "hw.queues": ("number", "how many hardware queues the device has (/sys/block/DEV/mq/), when it was read"),
    "hw.zoned": ("bool", "zoned block device (host-managed or host-aware SMR, ZNS)"),
    "hw.intelligent": ("bool", "the storage schedules I/O itself (array, SAN, RAID controller)"),
    "hw.virtual": ("bool", "a virtual machine's disk, scheduled again by the host"),
    "hw.multipath": ("bool", "reached through dm-multipath"),
    "hw.dasd": ("bool", "an IBM Z DASD"),
    "hw.network_volume": ("bool", "a cloud network volume presented as NVMe (Amazon EBS on Nitro)"),
    "workload": ("str", "workload id (db, analytics, fileserver, streaming, desktop, vm-host, batch, mixed)"),
    "workload.sync_heavy": ("bool", "the workload issues dependent synchronous reads or fsyncs"),
    "workload.interactive": ("bool", "a person waits on the I/O (desktop responsiveness)"),
    "workload.sequential": ("bool", "mostly large sequential transfers"),
    "workload.many_tenants": ("bool", "several competing processes or guests need fair shares"),
    "goal": ("str", "objective: latency, throughput or fairness"),
    "kernel": ("version", "running kernel version"),
    "io_path": ("str", "block layer path of the device: legacy or blk-mq"),
    "distro": ("str", "distribution id (sles12sp5, rhel9, ubuntu2404 ...)"),
    "distro.family": ("str", "distribution family (sles, opensuse, rhel, fedora, ubuntu, debian, amazon)"),
    "distro.udev_elevator_param": (
        "bool",
        "a udev rule of the distribution applies elevator= from the command line to every disk (RHEL 8/9)",
    ),
    "distro.nvme_multipath": (
        "bool",
        "native NVMe multipathing on by default (nvme_core.multipath; absent: not known)",
    ),
    "cgroup.version": ("str", "cgroup hierarchy mounted by default: v1, hybrid or v2 (absent when not known)"),
    "cache": ("str", "write cache protection: volatile, battery-backed or none"),
    "fs": ("str", "file system on the device: ext4, xfs, btrfs"),
    "measured.best": ("str", "scheduler that measurements show significantly better (absent if none)"),
    "device.rehearsal": ("bool", "the plan rehearses on a scratch loop device as if it were --rehearse HW"),
    "device.class": ("str", "class of the device from its kernel name (scsi-disk, virtio-blk, nvme, mmc ...)"),
    "scheduler.now": ("str", "the scheduler the device has before the plan (read, or its real default)"),
    "symptom.dirty_stall": ("bool", "the user has seen writers stall in balance_dirty_pages (--symptom dirty-stall)"),
    "mount.barriers": ("bool", "the file system is mounted with write barriers (absent when not known)"),
    "cmdline.elevator": ("bool", "the host's kernel command line has elevator= (absent when the host was not read)"),
    "noop.named": ("bool", "someone wrote noop for this device: the context, a udev rule, TuneD or elevator="),
    "host.virt": (
        "str",
        "the hypervisor the host runs under (kvm, qemu, vmware, microsoft, xen ...), when it was read",
    ),
    "host.tuners": (
        "bool",
        "another tuner on the host (udev rule, TuneD, sysctl.d, saptune ...) sets a value of this device",
    ),
    "host.scheduler_setter": ("bool", "another tuner on the host sets this device's scheduler at boot"),
    "host.tuned": ("bool", "a TuneD profile is active on the host (absent when the host was not read)"),
    "host.sap_tuning": ("bool", "saptune or sapconf tunes the host (absent when the host was not read)"),
    **{
        name: ("set", text)
        for name, text in (
            ("plan.targets", "the settings the plan's steps set (scheduler, queue.read_ahead_kb, vm.dirty_ratio ...)"),
            ("plan.kinds", "the kinds of the plan's steps (scheduler, tunable, queue-attribute, sysctl, mount-option)"),
            (
                "plan.persist",
                "how the plan persists its steps (udev-rule, sysctl-d, tuned-profile, kernel-cmdline ...)",
            ),
        )
    },
    "plan.scheduler": ("str", "the scheduler the plan sets or keeps"),
    **{
        f"obs.{name}": ("number", text)
        for name, text in (
            ("intervals", "measured intervals of the device in the window (iosched diagnose)"),
            ("util.median", "median %util over the window"),
            ("util.busy_share", "share of intervals, in percent, with %util of 80 or more"),
            ("queue.median", "median queue depth (aqu-sz, avgqu-sz) over the window"),
            ("r_await.median", "median read latency in ms (r_await)"),
            ("w_await.median", "median write latency in ms (w_await)"),
            ("await.median", "median latency in ms of reads and writes together (await)"),
            ("write_share", "writes' share, in percent, of the kilobytes moved in the window"),
            ("r_s.median", "median reads per second"),
            ("rkb_s.median", "median KiB read per second"),
            ("rareq_kib.median", "median size of a read request in KiB"),
            ("read_merge_pct", "share, in percent, of read requests merged into others"),
            ("psi_some.median", "median share of time, in percent, that some task waited on I/O (PSI)"),
            ("psi_full.median", "median share of time, in percent, that all tasks waited on I/O (PSI)"),
            ("dirty_pct_of_limit", "peak dirty plus writeback memory, in percent of the dirty limit"),
            ("dirty_pct_of_freerun", "peak dirty plus writeback memory, in percent of the freerun ceiling"),
            ("hung_dirty", "hung-task reports of writers stuck in balance_dirty_pages"),
            ("hung_io", "hung-task reports of tasks waiting on I/O (io_schedule)"),
            ("stack_dirty_share", "share, in percent, of /proc/PID/stack samples in balance_dirty_pages"),
            ("active.intervals", "intervals from the first with load (%util 10 or a request queued) to the last"),
            ("active.busy_share", "share of the active window's intervals, in percent, with %util of 80 or more"),
            ("active.util.median", "median %util over the active window"),
            ("active.queue.median", "median queue depth over the active window"),
            ("queue.weighted", "queue depth weighted by completed requests over the active window (what they met)"),
            ("r_await.weighted", "read latency in ms weighted by completed reads over the active window"),
            ("w_await.weighted", "write latency in ms weighted by completed writes over the active window"),
            ("await.weighted", "latency in ms weighted by completed requests over the active window (sar's too)"),
            ("r_starved_share", "share of the active window, in percent, with requests queued and no read completed"),
            ("r_starved_run", "longest run of intervals with requests queued and no read completed"),
            ("await.queueing", "median await over the await of the quietest tenth of active intervals"),
            ("queue.growth", "median queue depth of the active window's last third over its first third"),
            ("devices.util_max", "the highest median %util of any device measured"),
            ("devices.queue_max", "the highest median queue depth of any device measured"),
            (
                "psi_unexplained",
                "PSI some's median less the highest median %util of any device: waiting on I/O "
                "that no device's busy time covers (percentage points)",
            ),
        )
    },
}
"""Each fact's name: its type and what it means (for ``kb check`` and people; rules compare by the type)."""

VERSIONS = frozenset(name for name, (kind, _) in FACTS.items() if kind == "version")


@lru_cache(maxsize=1024)
def _version(text: str) -> KernelVersion:
    return KernelVersion.parse(text)


def compare(name: str, op: str, value: Any, expected: Any) -> bool:
    """Compare a fact's value with a rule's operand, as versions where the fact is a version. A set fact ``eq`` a
    value holds it, ``in`` a list shares one of its values (``ne``, ``not_in``: the negations)."""
    if isinstance(value, frozenset):
        match op:
            case "eq" | "ne":
                return (expected in value) is (op == "eq")
            case "in" | "not_in":
                return bool(value.intersection(expected)) is (op == "in")
        return False
    if name in VERSIONS:
        value = _version(str(value))
        expected = tuple(_version(str(e)) for e in expected) if isinstance(expected, tuple) else _version(str(expected))
    try:
        match op:
            case "eq":
                return bool(value == expected)
            case "ne":
                return bool(value != expected)
            case "in":
                return value in expected
            case "not_in":
                return value not in expected
            case "gt":
                return bool(value > expected)
            case "gte":
                return bool(value >= expected)
            case "lt":
                return bool(value < expected)
            case "lte":
                return bool(value <= expected)
    except TypeError:
        return False
    raise ValueError(f"unknown operator {op!r}")
