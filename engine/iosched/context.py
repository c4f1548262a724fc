"""The advise context: what the user said, validated, and the facts rules see (with assumptions)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from iosched.kb import Kb
from iosched.kernel import KernelVersion
from iosched.plan import Assumption

DEVICE = re.compile(r"[a-z][a-z0-9]{0,15}(?:-[0-9]{1,4})?")
PARTITION = re.compile(r"(?P<disk>(?:sd|vd|xvd|hd)[a-z]+|(?:nvme\d+n\d+|mmcblk\d+)(?=p))p?\d+")
SERIAL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
CACHES = ("volatile", "battery-backed", "none")
GOALS = ("latency", "throughput", "fairness")
IO_PATHS = ("legacy", "blk-mq", "bio")


class ContextError(ValueError):
    """A context the KB cannot resolve (unknown hardware, malformed kernel ...): exit 2 in the CLI."""


@dataclass(frozen=True)
class Context:
    """What the user told advise; every field optional except ``hw``."""

    hw: str | None = None
    workload: str | None = None
    kernel: str | None = None
    distro: str | None = None
    device: str | None = None
    serial: str | None = None
    cache: str | None = None
    fs: str | None = None
    goal: str | None = None
    io_path: str | None = None
    measured_best: str | None = None
    measured_summary: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: object) -> Context:
        """A context from a parsed YAML/JSON mapping; unknown keys and non-scalar values are errors."""
        if not isinstance(data, dict):
            raise ContextError("a context file must hold a mapping such as {hw: ssd, workload: db}")
        known = {f.name for f in fields(cls)} - {"measured_best", "measured_summary"}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise ContextError(f"unknown context key(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        values: dict[str, str] = {}
        for key, value in data.items():
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                raise ContextError(f"context key {key!r} must be a string, not {type(value).__name__}")
            values[str(key)] = str(value)
        return cls(**values)


@dataclass(frozen=True)
class Resolved:
    """A context checked against the KB, with every fact the rules can see."""

    context: Context
    facts: dict[str, Any]
    kernel: KernelVersion
    io_path: str
    device: str
    hardware: Any
    workload: Any
    distribution: Any | None
    assumptions: tuple[Assumption, ...] = field(default=())


def _choice(kind: str, value: str, valid: list[str] | tuple[str, ...]) -> str:
    if value not in valid:
        raise ContextError(f"unknown {kind} {value!r}; valid: {', '.join(valid)}")
    return value


def _assumption(kb: Kb, fact: str) -> Assumption:
    for item in kb.section("assumptions"):
        if item.fact == fact:
            return Assumption(fact, str(item.value), item.text, tuple(item.sources))
    raise ContextError(f"no {fact} given and the KB has no assumption for it")


def _io_path(kb: Kb, hardware: Any, kernel: KernelVersion, distro: Any | None) -> tuple[str, str]:
    """The block-layer path of this class of device on this kernel, and why."""
    legacy_gone = max((e.until for e in kb.section("elevators") if e.io_path == "legacy" and e.until),
                      default=None)  # fmt: skip
    if legacy_gone and kernel >= legacy_gone:
        return "blk-mq", f"the legacy block layer is gone since {legacy_gone}"
    if hardware.scsi and distro is not None and kernel == distro.kernel:
        path = "blk-mq" if distro.scsi_blk_mq else "legacy"
        return (
            path,
            f"{distro.name} {'enables' if distro.scsi_blk_mq else 'does not enable'} scsi-mq by default",
        )
    if hardware.blk_mq_since and kernel >= hardware.blk_mq_since:
        return "blk-mq", f"{hardware.title} uses blk-mq by default since {hardware.blk_mq_since}"
    if hardware.scsi or "legacy" in hardware.default_elevator:
        return "legacy", f"{hardware.title} uses the legacy single-queue path before {hardware.blk_mq_since}"
    return "bio", f"{hardware.title} bypasses the request queue (no elevator) before {hardware.blk_mq_since}"


def resolve(kb: Kb, ctx: Context) -> Resolved:
    """Check ``ctx`` against the KB and compute the facts; what is missing is assumed from the KB."""
    presets = {h.id: h for h in kb.section("hardware")}
    workloads = {w.id: w for w in kb.section("workloads")}
    distros = {d.id: d for d in kb.section("distributions")}
    assumed: list[Assumption] = []
    if ctx.hw is None:
        raise ContextError(f"no hardware given (--hw); valid: {', '.join(presets)}")
    hardware = presets[_choice("hardware", ctx.hw, list(presets))]
    if ctx.workload is None:
        assumed.append(_assumption(kb, "workload"))
    workload = workloads[_choice("workload", ctx.workload or str(assumed[-1].value), list(workloads))]
    distro = distros[_choice("distribution", ctx.distro, list(distros))] if ctx.distro else None
    try:
        if ctx.kernel is not None:
            kernel = KernelVersion.parse(ctx.kernel)
        elif distro is not None:
            kernel = distro.kernel
            why = f"the default kernel of {distro.name}"
            assumed.append(Assumption("kernel", str(kernel), why, tuple(distro.sources)))
        else:
            assumed.append(_assumption(kb, "kernel"))
            kernel = KernelVersion.parse(str(assumed[-1].value))
    except ValueError as exc:
        raise ContextError(str(exc)) from None
    if ctx.io_path is not None:
        io_path = _choice("I/O path", ctx.io_path, IO_PATHS)
    else:
        io_path, why = _io_path(kb, hardware, kernel, distro)
        assumed.append(Assumption("io_path", io_path, why, tuple(hardware.sources)))
    if ctx.device is not None and not DEVICE.fullmatch(ctx.device):
        raise ContextError(f"refusing device name {ctx.device!r}: expected a kernel name such as sda, nvme0n1, dm-0")
    if ctx.device is not None and (part := PARTITION.fullmatch(ctx.device)):
        raise ContextError(f"{ctx.device} is a partition; the scheduler belongs to the whole disk {part['disk']}")
    if ctx.serial is not None and not SERIAL.fullmatch(ctx.serial):
        raise ContextError(f"refusing serial {ctx.serial!r}: letters, digits and . _ : - only")
    device = ctx.device or hardware.example_device
    if ctx.device is None:
        assumed.append(Assumption("device", device, f"an example {hardware.title} name; pass --device", ()))
    cache = ctx.cache
    if cache is None:
        assumed.append(_assumption(kb, "cache"))
        cache = str(assumed[-1].value)
    filesystems = sorted({m.filesystem for m in kb.section("mount_options")})
    facts: dict[str, Any] = {
        **{k: v for k, v in hardware.facts.items() if v is not None},
        **{k: v for k, v in workload.facts.items() if v is not None},
        "hw": hardware.id,
        "workload": workload.id,
        "goal": _choice("goal", ctx.goal, GOALS) if ctx.goal else workload.goal,
        "kernel": str(kernel),
        "io_path": io_path,
        "cache": _choice("cache", cache, CACHES),
    }
    if ctx.fs is not None:
        facts["fs"] = _choice("file system", ctx.fs, filesystems)
    if distro is not None:
        facts["distro"] = distro.id
        facts["distro.family"] = distro.family
    if ctx.measured_best is not None:
        facts["measured.best"] = _choice("scheduler", ctx.measured_best, sorted(kb.elevators))
    return Resolved(ctx, facts, kernel, io_path, device, hardware, workload, distro, tuple(assumed))


def facts_for_example(kb: Kb, example: dict[str, Any]) -> dict[str, Any]:
    """The facts a rule example's context resolves to (``measured.best`` may be given directly)."""
    data = dict(example)
    best = data.pop("measured.best", None)
    ctx = Context.from_mapping(data)
    if best is not None:
        ctx = Context(**{**ctx.__dict__, "measured_best": str(best)})
    return resolve(kb, ctx).facts
