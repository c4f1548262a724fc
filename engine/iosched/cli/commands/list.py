"""``iosched list KIND``: the KB entries of one kind as a table or JSON."""

from __future__ import annotations

import argparse

from iosched.cli import format_option, write_rendered
from iosched.knowledge.kinds import BY_SLUG
from iosched.render import formats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    listing = sub.add_parser("list", parents=[common], help="list the KB entries of one kind")
    listing.add_argument("kind", choices=tuple(BY_SLUG), metavar="KIND", help=f"one of: {', '.join(BY_SLUG)}")
    format_option(listing, formats.LISTING)
    listing.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    from iosched.knowledge.kbcache import load_checked

    kb = load_checked(args.kb)
    options = formats.Options(site_url=args.site_url)
    write_rendered(formats.LISTING.render(kb, args.kind, args.format, options), args.format)
    return 0
