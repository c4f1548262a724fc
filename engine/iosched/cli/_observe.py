"""Reading the host a command plans for: ``--probe`` (this machine) or ``--root DIR`` (a capture), classified
with the loaded KB. Shared by ``advise`` and ``verify``."""

from __future__ import annotations

import argparse
import functools

from iosched.cli import path_argument
from iosched.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from iosched.knowledge.base import Kb
    from iosched.knowledge.context import Context
    from iosched.planning.hostplan import HostPlan
    from iosched.records.evidence import Evidence
    from iosched.records.system import System


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--probe", action="store_true", help="plan every device of this machine, as read from /")
    where.add_argument(
        "--root",
        type=path_argument,
        metavar="DIR",
        help="plan every device of a captured host (tree, sosreport, supportconfig)",
    )


PROBE_DOCUMENT_BYTES = 16 * 1024 * 1024


@functools.cache
def context_file(path: str | Path) -> tuple[Any, int]:
    """The data and size in bytes of a ``--context`` file (a context or a probe document), read and parsed
    once however many times a command asks; YamlError when it cannot be read."""
    from iosched.yamlsrc import parse, read_bytes

    text = read_bytes(path, PROBE_DOCUMENT_BYTES)
    return parse(text, PROBE_DOCUMENT_BYTES).data, len(text)


def probe_document(path: str | Path | None) -> System | None:
    """The System in a context file that is an ``iosched probe --format json`` document, else None."""
    if path is None:
        return None
    from iosched.observe.probejson import ProbeDocumentError, from_document, looks_like
    from iosched.yamlsrc import YamlError

    try:
        data, _ = context_file(path)
    except YamlError:
        return None
    if not looks_like(data):
        return None
    try:
        return from_document(data)
    except ProbeDocumentError as exc:
        raise UsageError(f"probe document {path}: {exc}") from None


def wanted(args: argparse.Namespace) -> bool:
    """Whether the arguments name a host to read (this machine, a capture, or a probe document)."""
    return bool(args.probe or args.root or probe_document(getattr(args, "context", None)))


def read(args: argparse.Namespace, kb: Kb) -> System | None:
    """The classified System the arguments name, or None when they name none."""
    from iosched.observe.classify import classified
    from iosched.observe.reader import ProbeError, read_root

    system = probe_document(getattr(args, "context", None))
    if system is None and not (args.probe or args.root):
        return None
    try:
        system = system or read_root(path_argument("/") if args.probe else args.root)
    except ProbeError as exc:
        raise UsageError(" ".join(str(exc).split())) from None
    distros = {d.id for d in kb.section("distributions")}
    return classified(system, distros, {h.id for h in kb.section("hardware")})


def plan(args: argparse.Namespace, kb: Kb, ctx: Context, evidence: Evidence | None = None) -> tuple[System, HostPlan]:
    """The host plan of the observed system; ``--device`` narrows it to one device, and ``--hw`` with it names
    that device's preset when classification could not place it (an unusual controller, a test rig)."""
    from iosched.planning.hostplan import plan_host

    system = read(args, kb)
    assert system is not None, "asked only when the arguments name a host (wanted)"
    names = [d.name for d in system.devices]
    if ctx.device is not None and ctx.device not in names:
        from iosched.knowledge.normalise import unknown

        where = system.host.hostname or system.source
        raise UsageError(unknown("device", ctx.device, names).replace("unknown device", f"no device on {where}:", 1))
    if ctx.hw is not None and ctx.device is not None:
        devices = tuple(d.replace(hw=ctx.hw) if d.name == ctx.device else d for d in system.devices)
        system = system.replace(devices=devices)
    only = [ctx.device] if ctx.device else []
    return system, plan_host(kb, system, ctx, evidence, only=only)


def reproduce(args: argparse.Namespace, ctx: Context) -> str:
    """The command that reads the same host again and plans it as the user asked."""
    from iosched.render.reproduce import host_command

    if args.probe:
        where = ["--probe"]
    elif args.root:
        where = ["--root", str(args.root.resolve())]
    else:
        where = ["--context", str(args.context.resolve())]
    return host_command(where, ctx.given(), results(args))


def results(args: argparse.Namespace) -> list[str]:
    """``--results FILE...`` as the command gave them (absolute), for the reproduce line; [] without."""
    files = getattr(args, "results", None) or []
    return ["--results", *(str(f.resolve()) for f in files)] if files else []
