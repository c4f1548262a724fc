"""The ``iosched`` command line: parse, call the core, render. No decisions are made here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from iosched import __version__
from iosched.errors import UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--kb", action="append", type=_directory, default=[], metavar="DIR",
        help="layer a directory of local facts and rules over the bundled KB (repeatable)",
    )  # fmt: skip
    common.add_argument(
        "--site-url", metavar="URL",
        help="public URL of the reference site, for links in output (default: $IOSCHED_SITE_URL; none: plain ids)",
    )  # fmt: skip
    parser = _Parser(prog="iosched", description="Linux I/O scheduler and block-device tuning, with sources.")
    parser.add_argument("--version", action="version", version=f"iosched {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in _command_modules():
        module = import_module(f"iosched.cli.{name}")
        if hasattr(module, "register"):
            module.register(sub, common)
    return parser


def _command_modules() -> list[str]:
    """Every module of this package that has ``register(sub, common)``; sorted, so help is stable.

    Listed from the package directory: ``pkgutil.iter_modules`` would import ``inspect``, which costs more
    start-up than every command's own imports."""
    import os

    here = os.path.dirname(__file__)
    return sorted(n[:-3] for n in os.listdir(here) if n.endswith(".py") and not n.startswith("_"))


def _directory(text: str):
    from pathlib import Path

    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {text}")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    from iosched.diagnostics import KbInvalid
    from iosched.render.links import SiteUrlError

    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args) or 0)
    except (UsageError, SiteUrlError) as exc:
        print(f"iosched: error: {exc}", file=sys.stderr)
        return 2
    except KbInvalid as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic, file=sys.stderr)
        print(f"iosched: the KB has {len(exc.diagnostics)} problem(s); see 'iosched kb check'", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("iosched: interrupted", file=sys.stderr)
        return 130
