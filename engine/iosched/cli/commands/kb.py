"""``iosched kb check`` and ``iosched kb export``."""

from __future__ import annotations

import argparse
import json

from iosched.cli import path_argument, write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.diagnostics import Diagnostic


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    kb = sub.add_parser("kb", help="check or export the knowledge base")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="SUBCOMMAND")
    check = kb_sub.add_parser("check", parents=[common], help="validate a KB directory (default: the bundled KB)")
    check.add_argument("directory", nargs="?", type=path_argument, help="a KB directory to check on its own")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.set_defaults(func=cmd_check)
    export = kb_sub.add_parser("export", parents=[common], help="print the whole KB as one JSON document")
    export.add_argument("--format", choices=("json",), default="json")
    export.set_defaults(func=cmd_export)
    schema = kb_sub.add_parser("schema", parents=[common], help="print the JSON Schema of a KB YAML file")
    schema.set_defaults(func=cmd_schema)


def cmd_check(args: argparse.Namespace) -> int:
    from iosched import kbcache, kbcompile
    from iosched.errors import UsageError
    from iosched.kbfiles import display

    if args.directory is not None and not args.directory.is_dir():
        raise UsageError(f"not a directory: {args.directory}")
    directories = [args.directory] if args.directory is not None else kbcache.layers(args.kb)
    path = kbcache.path_for(directories)  # the KB's content hash, computed once
    kb = kbcache.read(path, lambda: kbcache.rebuild(directories, path))  # only a checked KB is ever cached
    diagnostics: list[Diagnostic] = []
    if kb is None:
        from iosched.kbload import load

        kb, diagnostics = load(directories)
        if not diagnostics:
            kbcompile.write(path, kb)
    if args.format == "json":
        write(json.dumps([_as_dict(d) for d in diagnostics], indent=2))
    else:
        for d in diagnostics:
            write(str(d))
        where = ", ".join(display(d) for d in directories)
        counts = sum(len(v) for v in kb.sections.values())
        status = "ok" if not diagnostics else f"{len(diagnostics)} problem(s)"
        write(f"{where}: {counts} entries, {status}")
    return 1 if diagnostics else 0


def _as_dict(d: Diagnostic) -> dict[str, str | int]:
    return {"code": d.code, "file": d.file, "line": d.line, "message": d.message}


def cmd_export(args: argparse.Namespace) -> int:
    from iosched.export import export_kb
    from iosched.kbcache import load_checked

    write(json.dumps(export_kb(load_checked(args.kb)), indent=2, ensure_ascii=False))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from iosched.validate import kb_file_schema

    write(json.dumps(kb_file_schema(), indent=2))
    return 0
