"""``iosched verify``: compare what the plan for a host wants with what the host has, setting by setting."""

from __future__ import annotations

import argparse
import json

from iosched.cli import _observe as observe
from iosched.cli.commands.advise import CONTEXT_FLAGS, _context, persist_option
from iosched.cli.output import format_option, write, write_markdown
from iosched.errors import UsageError


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "verify", parents=[common], help="does this host (or a capture) have what its plan wants? exit 1 if not",
        description="Plan the host as 'iosched advise --probe' would, then compare every setting of the plan and "
        "its persistence with what the host has: ok, differs, or n/a (nothing to compare; never a failure).",
    )  # fmt: skip
    for flag in ("workload", "goal", "cache", "device", "hw"):
        p.add_argument(f"--{flag}", help=f"as for iosched advise --{flag}")
    p.add_argument("--persist", type=persist_option, metavar="METHOD", help="as for iosched advise --persist")
    p.add_argument("--rehearse", metavar="HW", help="as for iosched advise --rehearse")
    p.add_argument("--context", type=None, metavar="FILE", help="YAML or JSON file with the context fields")
    observe.add_arguments(p)
    format_option(p, ("text", "markdown", "json"))
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    from pathlib import Path

    from iosched.host import verdict, verify
    from iosched.kbcache import load_checked
    from iosched.render.escape import markdown_cell

    for flag in CONTEXT_FLAGS:
        if not hasattr(args, flag):
            setattr(args, flag, None)
    args.example = None
    args.context = Path(args.context) if args.context else None
    if not observe.wanted(args):
        raise UsageError("verify reads a host: give --probe (this machine), --root DIR (a capture) or a probe document")
    kb = load_checked(args.kb)
    system, host = observe.plan(args, kb, _context(args))
    rows = verify(system, host.summarised())
    result = verdict(rows, [args.device] if args.device else [])
    if args.format == "json":
        document = {"host": host.host, "rows": [dict(r.fields()) for r in rows], "compliant": result.compliant,
                    "verdict": result.text, "compared": result.compared, "differs": result.differs,
                    "unchecked": list(result.unchecked),
                    "skipped": [dict(s.fields()) for s in host.skipped]}  # fmt: skip
        write(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        head = "| device | setting | expected | actual | status | because |\n|---|---|---|---|---|---|"
        body = [
            "| " + " | ".join(markdown_cell(str(c if c is not None else "-")) for c in
                              (r.device, r.setting, r.expected, r.actual, r.status, r.because)) + " |"
            for r in rows
        ]  # fmt: skip
        name = host.host.get("hostname") or host.source
        text = f"## iosched verify: {markdown_cell(str(name))}\n\n{head}\n" + "\n".join(body)
        write_markdown(text + f"\n\n**{markdown_cell(result.text)}**\n", args.format)
    return 0 if result.compliant else 1
