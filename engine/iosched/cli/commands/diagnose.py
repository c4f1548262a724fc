"""``iosched diagnose``: why is this disk slow? iostat, sar, /proc snapshots and kernel logs in; the cause,
its evidence and the plan out."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from iosched.cli import format_option, path_argument, write_rendered
from iosched.errors import UsageError
from iosched.render import documents, formats

MAX_SECONDS = 3600
DEFAULT_SECONDS = 10


def seconds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected whole seconds from 1 to {MAX_SECONDS}, got {text!r}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "diagnose", parents=[common], help="why is this disk slow: iostat, sar, /proc snapshots in, a cause out",
        description="Read iostat -x (text or JSON), sar -d, sadf -d, /proc/diskstats snapshots, /proc/pressure/io, "
        "/proc/meminfo, /proc/vmstat, vmstat 1 or kernel hung-task reports (recognised by content), name the "
        "cause per device with its evidence, and plan the fix.",
    )  # fmt: skip
    p.add_argument("files", nargs="*", type=path_argument, metavar="FILE", help="captured outputs, any order")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--root", type=path_argument, metavar="DIR",
                       help="a captured tree, sosreport or supportconfig: its /proc files, sar reports, logs and "
                       "sysfs (scheduler, stacking)")  # fmt: skip
    where.add_argument("--probe", action="store_true", help="sample this machine's diskstats, PSI and meminfo")
    p.add_argument("--seconds", type=seconds, metavar="N", help=f"with --probe: how long (default {DEFAULT_SECONDS})")
    p.add_argument("--hw", help="hardware preset for the plan (iosched list hardware)")
    format_option(p, formats.DIAGNOSIS)
    p.add_argument(
        "--chart",
        type=path_argument,
        metavar="DIR",
        help="also write each device's chart over time as DIR/DEVICE.svg (Markdown has it as text)",
    )
    p.set_defaults(func=cmd_diagnose)


def write_charts(directory: Path, observed: Any, devices: list[str]) -> None:
    """Each device's SVG chart as a file named after it (characters other than letters, digits, ``.``, ``_``
    and ``-`` become ``_``: a device name read from an input is untrusted)."""
    import re

    from iosched.render import diagnosis_markdown as rd

    try:
        directory.mkdir(parents=True, exist_ok=True)
        for device in devices:
            if (svg := rd.chart(observed, device)) is not None:
                name = re.sub(r"[^A-Za-z0-9._-]", "_", device).lstrip(".") or "device"
                (directory / f"{name}.svg").write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write charts to {directory}: {exc.strerror or exc}") from None


def readings(args: argparse.Namespace, stack: ExitStack) -> tuple[list[Any], Any]:
    """The readings the arguments name, and the capture's Source (None without --root)."""
    from iosched.symptoms.detect import read_bytes

    found = []
    for path in args.files:
        try:
            data = path.read_bytes() if path.is_file() else None
        except OSError as exc:
            raise UsageError(f"{path}: {exc.strerror or exc}") from None
        if data is None:
            raise UsageError(f"{path}: not a file")
        found.append(read_bytes(data, str(path)))
    src = None
    if args.root is not None:
        from iosched.observe.reader import ProbeError, open_source, root_directory
        from iosched.symptoms.gather import from_source

        try:
            src = open_source(stack.enter_context(root_directory(args.root)))
        except ProbeError as exc:
            raise UsageError(str(exc)) from None
        found += list(from_source(src))
    if args.probe:
        import time

        from iosched.symptoms.gather import sample

        def read(rel: str) -> str:
            with open(f"/{rel}", encoding="utf-8", errors="replace") as f:
                return f.read()

        found += sample(args.seconds or DEFAULT_SECONDS, read, time.time, time.sleep)
        from iosched.observe.reader import open_source

        src = open_source(path_argument("/"))  # this machine's sysfs: schedulers, stacking, vm.dirty_ratio
    if not found and args.root is not None and not args.files:
        raise UsageError(
            f"{args.root} holds nothing to diagnose (no iostat, sar or sadf output, /proc snapshots, "
            "vmstat or kernel log); give those files as FILE..., or --probe on the host"
        )
    if not found:
        raise UsageError("nothing to read: give FILE..., --root DIR or --probe")
    return found, src


def loop_disk(src: Any, name: str, parents: dict[str, str]) -> str | None:
    """The whole disk under a loop device's backing file: the device mounted at the longest mount point that
    holds the file (``/proc/mounts``), its partition's disk; None when the capture does not say."""
    import posixpath

    from iosched.observe.mounts import read_mounts
    from iosched.symptoms.observations import disk_of

    backing = src.value(f"sys/block/{name}/loop/backing_file")
    if not backing or not backing.startswith("/"):
        return None
    backing = posixpath.normpath(backing)
    holding = [m for m in read_mounts(src)[0] if m.device.startswith("/dev/")
               and (m.mountpoint == "/" or backing.startswith(m.mountpoint.rstrip("/") + "/"))]  # fmt: skip
    if not holding:
        return None
    device = max(holding, key=lambda m: len(m.mountpoint)).device.removeprefix("/dev/")
    return disk_of(device, parents) or device


def device_knowledge(src: Any) -> tuple[dict[str, dict[str, Any]], dict[str, str], dict[str, tuple[str, ...]], Any]:
    """From a capture's sysfs: per device its scheduler and rotational flag, partitions' disks, the whole
    disks under each stacked device (dm on a partition is on that partition's disk), and vm.dirty_ratio."""
    if src is None:
        return {}, {}, {}, None
    from iosched.observe.blockdevs import read_devices

    devices, _ = read_devices(src)
    facts = {d.name: {k: v for k, v in (("scheduler.now", d.scheduler), ("hw.rotational", d.rotational),
                                        ("hw.multiqueue", d.nr_hw_queues > 1 if d.nr_hw_queues else None))
                      if v is not None} for d in devices}  # fmt: skip
    parents = {d.name: d.parent for d in devices if d.parent}
    slaves = {d.name: tuple(dict.fromkeys(parents.get(x, x) for x in d.slaves)) for d in devices if d.slaves}
    slaves |= {d.name: (disk,) for d in devices if (disk := loop_disk(src, d.name, parents)) and not d.slaves}
    ratio = src.value("proc/sys/vm/dirty_ratio")
    return facts, parents, slaves, float(ratio) if ratio and ratio.isdigit() else None


def plans(kb: Any, diagnoses: list[Any], hw: str | None) -> dict[str, Any]:
    """Each device's plan for the context its causes give: the plan itself with --hw, else the command."""
    from iosched.knowledge.context import Context, ContextError
    from iosched.planning.engine import advise

    out: dict[str, Any] = {}
    for d in diagnoses:
        if not d.plan:
            continue
        context = {"device": d.device, **d.plan}
        if "scheduler.now" in d.facts:
            context["scheduler"] = d.facts["scheduler.now"]
        if hw is None:
            flags = " ".join(f"--{k.replace('_', '-') if k != 'symptoms' else 'symptom'} {v}"
                             for k, v in context.items() if k != "scheduler")  # fmt: skip
            out[d.device] = f"Name the hardware to get the steps: `iosched advise --hw HW {flags}`"
            continue
        try:
            out[d.device] = advise(kb, Context.from_mapping({**context, "hw": hw}))
        except ContextError as exc:
            out[d.device] = f"No plan for {d.device}: {exc}"
    return out


def symptom_context(kb: Any, paths: list[Any], data: dict[str, Any]) -> dict[str, Any]:
    """``advise --symptoms``: the context ``data`` with what the causes found in ``paths`` imply; what the user
    said wins, symptoms add up. The device is the one named, else the only one with a cause."""
    from iosched.symptoms.diagnosis import diagnose
    from iosched.symptoms.observations import observe

    found, _ = readings(argparse.Namespace(files=paths, root=None, probe=False, seconds=None), ExitStack())
    observed = observe(found)
    if not observed.devices:
        raise UsageError(observed.missing[0] if observed.missing else "--symptoms: no device measurements")
    diagnosed = [d for d in diagnose(kb, observed) if d.plan]
    if data.get("device"):
        diagnosed = [d for d in diagnosed if d.device == data["device"]]
    elif len(diagnosed) > 1:
        names = ", ".join(d.device for d in diagnosed)
        raise UsageError(f"--symptoms: causes found on {names}; name one with --device")
    if not diagnosed:
        return data
    out = {"device": diagnosed[0].device, **data}
    for key, value in diagnosed[0].plan.items():
        if key == "symptoms" and out.get("symptoms"):
            out[key] = ",".join(dict.fromkeys((*str(out[key]).split(","), value)))
        out.setdefault(key, value)
    return out


def cmd_diagnose(args: argparse.Namespace) -> int:
    from iosched.knowledge.kbcache import load_checked
    from iosched.symptoms.diagnosis import diagnose
    from iosched.symptoms.observations import observe

    if args.seconds is not None and not args.probe:
        raise UsageError("--seconds goes with --probe")
    kb = load_checked(args.kb)
    if args.hw is not None and kb.get(args.hw) is None:
        raise UsageError(f"unknown hardware {args.hw!r}; valid: {', '.join(h.id for h in kb.section('hardware'))}")
    with ExitStack() as stack:  # a capture's tarball stays unpacked while it is read
        found, src = readings(args, stack)
        facts, parents, slaves, ratio = device_knowledge(src)
    observed = observe(found, parents, slaves)
    if not observed.devices and not observed.host:
        raise UsageError((*observed.missing, *observed.notes, "no measurements in the input")[0])
    diagnoses = diagnose(kb, observed, facts, ratio, kb.get(args.hw) if args.hw else None)
    if args.chart is not None:
        write_charts(args.chart, observed, [d.device for d in diagnoses])
    diagnosed = documents.Diagnosed(observed=observed, diagnoses=diagnoses, plans=plans(kb, diagnoses, args.hw))
    options = formats.Options(site_url=args.site_url)
    write_rendered(formats.DIAGNOSIS.render(kb, diagnosed, args.format, options), args.format)
    return 0
