"""``iosched advise``: from hardware, kernel and workload to a plan with copy-paste commands."""

from __future__ import annotations

import argparse

from iosched.cli import _observe as observe
from iosched.cli import format_option, path_argument, write, write_rendered
from iosched.errors import UsageError
from iosched.knowledge.normalise import option
from iosched.render import formats
from iosched.render.reproduce import advise_command
from iosched.vocab import CACHES, GOALS, IO_PATHS, SYMPTOMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from iosched.knowledge.base import Kb
    from iosched.knowledge.context import Context
    from iosched.knowledge.schema import Example

CONTEXT_FLAGS = ("hw", "workload", "kernel", "distro", "device", "serial", "wwn", "cache", "fs", "mountpoint",
                 "mount_options", "goal", "io_path", "hw_queues", "symptoms", "scheduler", "cgroup", "persist",
                 "rehearse")  # fmt: skip
PERSIST_HELP = ("how to persist: auto (default: a TuneD profile where the host runs TuneD, else udev rules and "
                "sysctl.d; the boot loader for boot parameters), or udev, tuned, sysctl, grub, zipl, or a list "
                "such as udev,sysctl")  # fmt: skip
REHEARSE_HELP = ("with --device loopN: plan that scratch loop device as if it were hardware HW, to try applying and "
                 "undoing the plan on it; the plan is marked as a rehearsal")  # fmt: skip


def persist_option(text: str) -> str:
    """``--persist``: checked here, so a typo is a usage error before anything is read."""
    from iosched.persist import PersistError, requested

    try:
        requested(text)
    except PersistError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


MAX_CONTEXT_BYTES = 64 * 1024


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "advise", parents=[common], help="the plan for a device: elevator, settings, commands",
        description="Plan the scheduler and settings of one device. Links in the output point to the public "
        "reference site named by --site-url or $IOSCHED_SITE_URL; with neither, the output names ids plainly.",
    )  # fmt: skip
    p.add_argument("--hw", help="hardware preset (iosched list hardware)")
    p.add_argument("--workload", help="workload (iosched list workloads), or what people also call it: postgres ...")
    p.add_argument("--kernel", help="kernel version X.Y[.Z] (default: the distribution's, else assumed)")
    p.add_argument(
        "--distro", help="distribution: an id (iosched list distributions) or as os-release says ('Ubuntu 22.04')"
    )
    p.add_argument("--device", help="kernel device name, e.g. sda (or /dev/sda), vda, nvme0n1, dm-0")
    p.add_argument("--serial", help="ID_SERIAL of the device, to key the udev rule on it")
    p.add_argument("--wwn", help="ID_WWN of the device, to key the udev rule on it")
    p.add_argument("--cache", type=option("cache", CACHES), choices=CACHES, help="write cache protection")
    p.add_argument("--fs", help="file system on the device (ext4, xfs, btrfs ...)")
    p.add_argument("--mountpoint", help="where that file system is mounted (for mount option steps)")
    p.add_argument("--mount-options", dest="mount_options", metavar="OPTS", help="its current mount options")
    p.add_argument("--goal", type=option("goal", GOALS), choices=GOALS, help="objective (default: the workload's)")
    p.add_argument(
        "--io-path", dest="io_path", type=option("I/O path", IO_PATHS), choices=IO_PATHS, help="override the block path"
    )
    queues_help = (
        "its hardware queues (ls /sys/block/DEV/mq), or several; without it, a disk whose queue count "
        "decides its elevator is decided on the machine"
    )
    p.add_argument("--hw-queues", dest="hw_queues", metavar="N", help=queues_help)
    p.add_argument("--cgroup", metavar="LAYOUT",
                   help="the cgroup hierarchy the host mounts: v1, hybrid or v2 (default: the release's)")  # fmt: skip
    p.add_argument(
        "--symptom",
        dest="symptoms",
        type=option("symptom", SYMPTOMS),
        choices=SYMPTOMS,
        help="what you have seen (dirty-stall: writers pause)",
    )
    p.add_argument("--scheduler", metavar="NAME", help="the scheduler the device has now (default: its real default)")
    p.add_argument(
        "--symptoms",
        dest="symptom_files",
        type=path_argument,
        nargs="+",
        metavar="FILE",
        help="iostat, sar or /proc captures: the causes iosched diagnose finds set goal and symptoms",
    )
    p.add_argument("--persist", type=persist_option, metavar="METHOD", help=PERSIST_HELP)
    p.add_argument("--rehearse", metavar="HW", help=REHEARSE_HELP)
    p.add_argument("--context", type=path_argument, metavar="FILE", help="YAML or JSON file with the same fields")
    p.add_argument("--example", metavar="NAME", help="a built-in example context (see --list-examples)")
    p.add_argument("--list-examples", action="store_true", help="list the built-in examples and exit")
    p.add_argument("--results", type=path_argument, nargs="+", metavar="FILE", help="benchmark results to fold in")
    format_option(p, formats.PLAN)
    p.add_argument("--detail", choices=("answer", "full"), default="answer",
                   help="markdown and text: the ticket answer (default) or every device's plan in full")  # fmt: skip
    p.add_argument(
        "--host", metavar="NAME", help="with --format ansible: the inventory hostname to target (default: all)"
    )
    observe.add_arguments(p)
    p.set_defaults(func=cmd_advise)


def _read_context(path: str | Path) -> dict[str, object]:
    from iosched.knowledge.context import Context, ContextError
    from iosched.yamlsrc import YamlError, too_large

    try:
        data, size = observe.context_file(path)
    except YamlError as exc:
        raise UsageError(f"context file {path}:{exc.line}: {exc}") from None
    if observe.probe_document(path) is not None:
        return {}  # a probe document: the host is read from it (see _observe), not its fields
    if size > MAX_CONTEXT_BYTES:
        raise UsageError(f"context file {path}:0: {too_large(MAX_CONTEXT_BYTES)}")
    try:
        Context.from_mapping(data)
    except ContextError as exc:
        raise UsageError(f"context file {path}: {exc}") from None
    return dict(data)


def context_of(args: argparse.Namespace, kb: Kb) -> Context:
    """The context the arguments give: ``--example`` (from ``kb``), then ``--context``, then the flags; a
    command that has only some of these options (verify) gets the same context from those it has."""
    from iosched.knowledge.context import Context, ContextError

    data: dict[str, object] = {}
    if getattr(args, "example", None):
        data.update(example(kb, args.example).context)
    if args.context:
        data.update(_read_context(args.context))
    data.update({k: value for k in CONTEXT_FLAGS if (value := getattr(args, k, None)) is not None})
    if getattr(args, "symptom_files", None):
        from iosched.cli.commands.diagnose import symptom_context

        data = symptom_context(kb, args.symptom_files, data)
    try:
        return Context.from_mapping(data)
    except ContextError as exc:
        raise UsageError(str(exc)) from None


def example(kb: Kb, name: str) -> Example:
    """The KB's example ``name``; a usage error naming the examples when there is none."""
    from iosched.knowledge.schema import Example

    found = kb.get(name)
    if not isinstance(found, Example):
        raise UsageError(f"unknown example {name!r}; valid: {', '.join(e.id for e in kb.section('examples'))}")
    return found


def cmd_advise(args: argparse.Namespace) -> int:
    from iosched.knowledge.context import ContextError, resolve
    from iosched.knowledge.kbcache import load_checked
    from iosched.planning.engine import plan_resolved

    kb = load_checked(args.kb)
    if args.list_examples:
        write("\n".join(f"{e.id:24} {e.summary}" for e in kb.section("examples")))
        return 0
    if args.host is not None and args.format != "ansible":
        raise UsageError("--host goes with --format ansible")
    ctx = context_of(args, kb)
    options = formats.Options(site_url=args.site_url, host=args.host, detail=args.detail)
    if observe.wanted(args):
        _, host = observe.plan(args, kb, ctx)
        host = host.replace(reproduce=observe.reproduce(args, ctx))
        write_rendered(formats.HOST.render(kb, host, args.format, options), args.format)
        return 0
    try:
        resolved = resolve(kb, ctx)
        plan = plan_resolved(kb, resolved)
        if args.results:  # judged against the scheduler the rules pick, for the goal the context resolves to
            from iosched.cli._results import evidence

            found = evidence(kb, args.results, goal=plan.facts["goal"], baseline=plan.scheduler)
            plan = plan_resolved(kb, resolved, found)
    except ContextError as exc:
        raise UsageError(str(exc)) from None
    options = options.replace(reproduce=advise_command(plan.context, observe.results(args)))
    write_rendered(formats.PLAN.render(kb, plan, args.format, options), args.format)
    return 0
