"""``iosched collect``: this host as iosched reads it, to attach to a ticket, and the hooks that make sos and
supportconfig keep the same in their own archives."""

from __future__ import annotations

import argparse
from pathlib import Path

from iosched.cli import path_argument, write
from iosched.errors import UsageError

FORMATS = ("tar", "supportconfig")
HOOKS = {
    "sos": ("sos_extras", Path("/etc/sos/extras.d/iosched"), 0o644),
    "supportconfig": ("supportconfig", Path("/usr/lib/supportconfig/plugins/iosched"), 0o755),
}
"""Each hook: its file in :mod:`iosched.hooks`, where its tool reads it, and its mode."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "collect", parents=[common], help="this host's probe and the files iosched reads, as one tarball",
        description="Read this host as 'iosched probe' does and write iosched's probe document with every file "
        "the read went through as one tarball, which 'iosched advise --root' reads back (the tarball or its "
        "unpacked directory). --install-hook makes sos report or supportconfig keep the same in their archives.",
    )  # fmt: skip
    p.add_argument("--out", type=path_argument, default=Path("."), metavar="DIR",
                   help="directory for the tarball (default: the current one)")  # fmt: skip
    p.add_argument("--format", choices=FORMATS, default="tar",
                   help="tar (default), or supportconfig: the sections of iosched's supportconfig plugin, on "
                   "standard output")  # fmt: skip
    p.add_argument("--install-hook", choices=tuple(HOOKS), metavar="TOOL",
                   help="install the hook of TOOL instead: sos (/etc/sos/extras.d/iosched) or supportconfig "
                   "(/usr/lib/supportconfig/plugins/iosched)")  # fmt: skip
    p.set_defaults(func=cmd_collect)


def cmd_collect(args: argparse.Namespace) -> int:
    if args.install_hook:
        write(str(install_hook(args.install_hook)))
        return 0
    from iosched.jsontext import dumps
    from iosched.knowledge.kbcache import load_checked
    from iosched.observe import bundle as capture
    from iosched.observe.classify import classified
    from iosched.observe.probejson import to_document

    system, recorder = capture.record(Path("/"))
    kb = load_checked(args.kb)
    system = classified(system, {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")})
    probe = dumps(to_document(system)) + "\n"
    if args.format == "supportconfig":
        write(capture.supportconfig_sections(recorder, probe))
        return 0
    if not args.out.is_dir():
        raise UsageError(f"--out: not a directory: {args.out}")
    try:
        path = capture.tarball(recorder, probe, archive_name(system.host.hostname), args.out)
    except OSError as exc:
        raise UsageError(f"cannot write the tarball in {args.out}: {exc.strerror or exc}") from None
    write(str(path))
    return 0


def archive_name(hostname: str | None) -> str:
    """``iosched-HOST-YYYYMMDDTHHMMSSZ``; a host name outside ``[A-Za-z0-9.-]`` becomes ``host``."""
    import re
    import time

    host = hostname if hostname and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]{0,62}", hostname) else "host"
    return f"iosched-{host}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"


def hook_text(tool: str) -> str:
    """The hook of ``tool`` as shipped, running iosched by this interpreter."""
    import sys
    from importlib.resources import files

    from iosched.escape import sh_word

    name = HOOKS[tool][0]
    return files("iosched.hooks").joinpath(name).read_text().replace("@PYTHON@", sh_word(sys.executable))


def install_hook(tool: str) -> Path:
    """Write the hook where its tool reads it (its directory created owned by the caller, mode 0755)."""
    _, path, mode = HOOKS[tool]
    try:
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        path.write_text(hook_text(tool))
        path.chmod(mode)
    except OSError as exc:
        raise UsageError(f"cannot install the {tool} hook as {path}: {exc.strerror or exc} (run as root)") from None
    return path
