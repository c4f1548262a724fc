"""``iosched probe``: what a live host or a capture shows: kernel, distribution, devices, other tuners."""

from __future__ import annotations

import argparse

from iosched.cli import format_option, path_argument, stdout_columns, write_rendered
from iosched.errors import UsageError
from iosched.render import documents, formats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("probe", parents=[common], help="read a host (/ or a capture): devices, kernel, tuners")
    p.add_argument("--root", type=path_argument, default="/", metavar="DIR",
                   help="/ (default), a copied tree, an extracted sosreport or a supportconfig directory")  # fmt: skip
    format_option(p, formats.PROBE)
    p.set_defaults(func=cmd_probe)


def cmd_probe(args: argparse.Namespace) -> int:
    from iosched.knowledge.kbcache import load_checked
    from iosched.observe.classify import classified
    from iosched.observe.reader import ProbeError, layout, read_root
    from iosched.render.probe_text import printable

    try:
        system = read_root(args.root)
    except ProbeError as exc:
        raise UsageError(printable(str(exc))) from None
    kb = load_checked(args.kb)
    system = classified(
        system,
        {d.id for d in kb.section("distributions")},
        {h.id for h in kb.section("hardware")},
    )
    options = formats.Options(terminal=stdout_columns())
    write_rendered(formats.PROBE.render(kb, documents.Probed(system=system, layout=layout(args.root)), args.format,
                                        options), args.format)  # fmt: skip
    return 0
