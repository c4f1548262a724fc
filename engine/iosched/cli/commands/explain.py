"""``iosched explain ID``: one KB entry as Markdown or JSON."""

from __future__ import annotations

import argparse

from iosched.cli import format_option, write_rendered
from iosched.diagnostics import CODES
from iosched.render import formats


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
    format_option(explain, formats.ENTRY)
    explain.set_defaults(func=cmd_explain)


def cmd_explain(args: argparse.Namespace) -> int:
    from iosched.errors import UsageError
    from iosched.knowledge.kbcache import load_checked
    from iosched.render import find, suggestions

    options = formats.Options(site_url=args.site_url)
    if (code := args.id.upper()) in CODES:
        write_rendered(formats.CODE.render(None, code, args.format, options), args.format)
        return 0
    kb = load_checked(args.kb)
    entity = find(kb, args.id)
    if entity is None:
        close = suggestions(kb, args.id)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see 'iosched list KIND'"
        raise UsageError(f"unknown id {args.id!r}{hint}")
    write_rendered(formats.ENTRY.render(kb, entity, args.format, options), args.format)
    return 0
