"""``iosched kb check`` and ``iosched kb export``."""

from __future__ import annotations

import argparse
import json

from iosched.cli import format_option, path_argument, write, write_rendered
from iosched.render import documents, formats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.diagnostics import Diagnostic


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    kb = sub.add_parser("kb", help="check or export the knowledge base")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="SUBCOMMAND")
    check = kb_sub.add_parser("check", parents=[common], help="validate a KB directory (default: the bundled KB)")
    check.add_argument("directory", nargs="?", type=path_argument, help="a KB directory to check on its own")
    format_option(check, formats.KB_CHECK)
    check.set_defaults(func=cmd_check)
    export = kb_sub.add_parser("export", parents=[common], help="print the whole KB as one JSON document")
    format_option(export, formats.KB_EXPORT)
    export.set_defaults(func=cmd_export)
    schema = kb_sub.add_parser("schema", parents=[common], help="print the JSON Schema of a KB YAML file")
    schema.set_defaults(func=cmd_schema)


def cmd_check(args: argparse.Namespace) -> int:
    from iosched.errors import UsageError
    from iosched.kbfiles import display
    from iosched.knowledge import kbcache, kbcompile

    if args.directory is not None and not args.directory.is_dir():
        raise UsageError(f"not a directory: {args.directory}")
    directories = [args.directory] if args.directory is not None else kbcache.layers(args.kb)
    path = kbcache.path_for(directories)  # the KB's content hash, computed once
    kb = kbcache.read(path, lambda: kbcache.rebuild(directories, path))  # only a checked KB is ever cached
    diagnostics: list[Diagnostic] = []
    if kb is None:
        from iosched.knowledge.kbload import load

        kb, diagnostics = load(directories)
        if not diagnostics:
            kbcompile.write(path, kb)
    where = ", ".join(display(d) for d in directories)
    checked = documents.Checked(diagnostics=diagnostics, where=where, entries=sum(len(v) for v in kb.sections.values()))
    write_rendered(formats.KB_CHECK.render(kb, checked, args.format, formats.Options()), args.format)
    return 1 if diagnostics else 0


def cmd_export(args: argparse.Namespace) -> int:
    from iosched.knowledge.kbcache import load_checked

    write_rendered(formats.KB_EXPORT.render(load_checked(args.kb), None, args.format, formats.Options()), args.format)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from iosched.knowledge.validate import kb_file_schema

    write(json.dumps(kb_file_schema(), indent=2))
    return 0
