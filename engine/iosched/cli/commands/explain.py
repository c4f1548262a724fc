"""``iosched explain ID``: one KB entry as Markdown or JSON."""

from __future__ import annotations

import argparse

from iosched.cli import format_option, write, write_markdown
from iosched.diagnostics import CODES
from iosched.jsontext import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    explain = sub.add_parser(
        "explain",
        parents=[common],
        help="explain any KB entry: elevator, tunable, sysctl, rule, caveat, source ...",
    )
    explain.add_argument(
        "id",
        help="a KB id (mq-deadline.read_expire, queue.nr_requests, elevator=, IOS101) or a kb check code (KB101)",
    )
    format_option(explain)
    explain.set_defaults(func=cmd_explain)


def style(args: argparse.Namespace, version: str = "") -> Any:
    from iosched.render.reference import cli_style

    return cli_style(args.site_url, version)


def as_json(entity: Any, base: str | None, version: str = "") -> dict[str, Any]:
    from iosched.export import export_entity, plain
    from iosched.kb import TunableRef
    from iosched.render.links import absolute

    if isinstance(entity, TunableRef):
        return {
            "id": entity.id,
            "elevator": entity.elevator.name,
            **plain(entity.tunable),
            "url": absolute(entity, base, version),
        }
    return {**export_entity(entity), "url": absolute(entity, base, version)}


def _explain_code(code: str, fmt: str) -> int:
    """A ``kb check`` diagnostic code: what it reports."""
    from iosched.render.reference import diagnostic_code

    if fmt == "json":
        write(dumps({"id": code, "kind": "kb check code", "summary": CODES[code]}))
    else:
        write_markdown(diagnostic_code(code), fmt)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from iosched.errors import UsageError
    from iosched.kbcache import load_checked
    from iosched.render import find, suggestions
    from iosched.render.reference import render

    if (code := args.id.upper()) in CODES:
        return _explain_code(code, args.format)
    kb = load_checked(args.kb)
    entity = find(kb, args.id)
    if entity is None:
        close = suggestions(kb, args.id)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see 'iosched list KIND'"
        raise UsageError(f"unknown id {args.id!r}{hint}")
    if args.format == "json":
        write(dumps(as_json(entity, args.site_url, kb.version)))
    else:
        write_markdown(render(kb, entity, style(args, kb.version)), args.format)
    return 0
