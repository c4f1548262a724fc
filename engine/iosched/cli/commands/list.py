"""``iosched list KIND``: the KB entries of one kind as a table or JSON."""

from __future__ import annotations

import argparse

from iosched.cli import format_option, write, write_markdown
from iosched.jsontext import dumps
from iosched.kinds import BY_SLUG


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    listing = sub.add_parser("list", parents=[common], help="list the KB entries of one kind")
    listing.add_argument("kind", choices=tuple(BY_SLUG), metavar="KIND", help=f"one of: {', '.join(BY_SLUG)}")
    format_option(listing)
    listing.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    from iosched.kbcache import load_checked
    from iosched.render.reference import cli_style, list_table

    kb = load_checked(args.kb)
    if args.format == "json":
        from iosched.cli.commands.explain import as_json  # an entry as explain --format json shows it

        write(dumps([as_json(e, args.site_url, kb.version) for e in kb.entities(args.kind)]))
    else:
        write_markdown(list_table(kb, args.kind, cli_style(args.site_url, kb.version)), args.format)
    return 0
