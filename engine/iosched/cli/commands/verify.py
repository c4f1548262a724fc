"""``iosched verify``: compare what the plan for a host wants with what the host has, setting by setting."""

from __future__ import annotations

import argparse

from iosched.cli import _observe as observe
from iosched.cli import format_option, path_argument, write_rendered
from iosched.cli.commands.advise import context_of, persist_option
from iosched.errors import UsageError
from iosched.render import formats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "verify", parents=[common], help="does this host (or a capture) have what its plan wants? exit 1 if not",
        description="Plan the host as 'iosched advise --probe' would, then compare every setting of the plan and "
        "its persistence with what the host has: ok, differs, or n/a (nothing to compare; never a failure).",
    )  # fmt: skip
    for flag in ("workload", "goal", "cache", "device", "hw"):
        p.add_argument(f"--{flag}", help=f"as for iosched advise --{flag}")
    p.add_argument("--persist", type=persist_option, metavar="METHOD", help="as for iosched advise --persist")
    p.add_argument("--rehearse", metavar="HW", help="as for iosched advise --rehearse")
    p.add_argument("--context", type=path_argument, metavar="FILE", help="YAML or JSON file with the context fields")
    observe.add_arguments(p)
    format_option(p, formats.VERIFY)
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    from iosched.knowledge.kbcache import load_checked
    from iosched.planning.hostplan import Verification, verify

    if not observe.wanted(args):
        raise UsageError(
            "verify compares a host with its plan and flags describe no host: use --probe (this "
            "machine) or --root DIR (a capture), or --context with a probe document"
        )
    kb = load_checked(args.kb)
    system, host = observe.plan(args, kb, context_of(args, kb))
    rows = verify(system, host.summarised())
    report = Verification(host=host, rows=tuple(rows), asked=(args.device,) if args.device else ())
    write_rendered(formats.VERIFY.render(kb, report, args.format, formats.Options()), args.format)
    return 0 if report.compliant() else 1
