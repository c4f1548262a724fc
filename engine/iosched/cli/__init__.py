"""The ``iosched`` command line: parse, call the core, write what it rendered. No decisions are made here."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

from iosched import __version__
from iosched.errors import KbInvalid, SiteUrlError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, ClassVar, NoReturn, TextIO

    from iosched.render.formats import Formats, Rendered


def _untranslated(message: str) -> str:
    return message


def _untranslated_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _import_argparse() -> None:
    """Import argparse without gettext, which argparse binds its message functions from at import and which
    costs a tenth of a bare interpreter's start-up (it compiles its plural-forms pattern): a stand-in lends
    argparse untranslated functions (what gettext gives where no catalogue exists) and is taken away again, and
    :func:`_translate_once` binds the real ones before any parser is built."""
    if "argparse" in sys.modules or "gettext" in sys.modules:
        return
    from types import ModuleType  # already imported by the interpreter's own start-up (enum, re)

    stand_in = ModuleType("gettext")
    stand_in.gettext = _untranslated  # type: ignore[attr-defined]
    stand_in.ngettext = _untranslated_plural  # type: ignore[attr-defined]
    sys.modules["gettext"] = stand_in
    try:
        import argparse  # noqa: F401 - in sys.modules for every importer after this one
    finally:
        del sys.modules["gettext"]


_import_argparse()
import argparse  # noqa: E402 - after the stand-in above

HELP_WIDTH: list[int] = []
"""A fixed help width (the reference site's CLI page sets one, so its page does not depend on a terminal)."""


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's formatter at the terminal's width."""
    return argparse.HelpFormatter(prog, width=HELP_WIDTH[0] if HELP_WIDTH else _terminal_width())


_TERMINAL_WIDTH: list[int] = []


def _terminal_width() -> int:
    """The width of the terminal on stderr, asked once (argparse builds a formatter per added argument), and
    without importing shutil, which costs start-up time."""
    if not _TERMINAL_WIDTH:
        try:
            width = os.get_terminal_size(sys.stderr.fileno()).columns - 2
        except (OSError, ValueError):
            width = 78
        _TERMINAL_WIDTH.append(max(width, 40))
    return _TERMINAL_WIDTH[0]


class _Commands:
    """What ``add_subparsers`` returns to the command modules: it adds each command's parser and remembers it
    on the parent, so the CLI reference can list commands without argparse's internals."""

    def __init__(self, parent: _Parser, action: Any) -> None:
        self._parent = parent
        self._action = action

    def add_parser(self, name: str, **kwargs: Any) -> _Parser:
        parser: _Parser = self._action.add_parser(name, **kwargs)
        self._parent.commands.append((name, kwargs.get("help"), parser))
        return parser


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _formatter)
        super().__init__(*args, **kwargs)
        self.commands: list[tuple[str, str | None, _Parser]] = []
        """(name, help, parser) of each subcommand, in the order they were added."""

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", _Parser)
        return _Commands(self, super().add_subparsers(required=True, **kwargs))

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser(command: str | None = None) -> _Parser:
    """The whole command line, or only ``command``'s part of it when that names a command: a run needs just
    its own command, and every command module imported costs start-up time."""
    _translate_once()
    common = _Parser(add_help=False)
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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = command_names()
    for name in [command] if command in names else names:
        __import__(f"iosched.cli.commands.{name}", fromlist=["register"]).register(sub, common)
    return parser


def _translate_once() -> None:
    """argparse translates each of its messages with ``gettext.gettext``, which looks for the message
    catalogue on disk again at every call (some forty calls build one command's parser). Look once and keep
    what was found: the same translations, without the repeated search, and without importing gettext at all
    where no catalogue exists (gettext's own defaults: the domain ``messages`` under the interpreter's
    ``share/locale``, unless something in the process already told gettext otherwise)."""
    told = sys.modules.get("gettext")
    domain = told.textdomain() if told else "messages"
    localedir = told.bindtextdomain(domain) if told else os.path.join(sys.base_prefix, "share", "locale")
    if _any_catalogue(localedir, domain):
        import gettext

        catalogue = gettext.translation(domain, localedir, fallback=True)
        argparse._ = catalogue.gettext  # type: ignore[attr-defined]
        argparse.ngettext = catalogue.ngettext  # type: ignore[attr-defined]
    else:
        argparse._ = _untranslated  # type: ignore[attr-defined]
        argparse.ngettext = _untranslated_plural  # type: ignore[attr-defined]


def _any_catalogue(localedir: str, domain: str) -> bool:
    """Whether some language has a catalogue of ``domain``. When none has, gettext would find none either;
    asking it costs the import of ``locale``, which it needs to choose among the user's languages."""
    try:
        languages = os.listdir(localedir or ".")
    except OSError:
        return False
    return any(
        os.path.exists(os.path.join(localedir or ".", lang, "LC_MESSAGES", f"{domain}.mo")) for lang in languages
    )


def command_names() -> list[str]:
    """The commands: the modules of :mod:`iosched.cli.commands`, each named after its command, sorted, so
    help is stable.

    Listed from the package directory: ``pkgutil.iter_modules`` would import ``inspect``, which costs more
    start-up than every command's own imports."""
    here = os.path.join(os.path.dirname(__file__), "commands")
    return sorted(n[:-3] for n in os.listdir(here) if n.endswith(".py") and not n.startswith("_"))


def path_argument(text: str) -> Path:
    """argparse ``type`` of a file or directory argument: pathlib is imported only when one is given."""
    from pathlib import Path

    return Path(text)


def _directory(text: str) -> Path:
    path = path_argument(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {text}")
    return path


class _WatchedStdout:
    """Standard output that remembers whether writing to it failed, to tell that failure from any other."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.failed = stream, False
        self._watch = _Watch(self)

    def write(self, text: str) -> int:
        with self._watch:
            return self.stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        with self._watch:
            self.stream.writelines(lines)

    def flush(self) -> None:
        with self._watch:
            self.stream.flush()

    def write_bytes(self, chunks: Iterable[bytes]) -> None:
        """Text already encoded (in the stream's encoding), after what was written before it."""
        with self._watch:
            self.stream.flush()
            self.stream.buffer.writelines(chunks)
            self.stream.buffer.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _Watch:
    """A ``with`` block of writes to a :class:`_WatchedStdout`: an OSError marks it failed and goes on."""

    def __init__(self, watched: _WatchedStdout) -> None:
        self.watched = watched

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: object, trace: object) -> None:
        if kind is not None and issubclass(kind, OSError):
            self.watched.failed = True


def main(argv: Sequence[str] | None = None) -> int:
    stdout = _WatchedStdout(sys.stdout)
    sys.stdout = stdout
    try:
        return _run(argv, stdout)
    finally:
        sys.stdout = stdout.stream


def _run(argv: Sequence[str] | None, stdout: _WatchedStdout) -> int:
    try:
        words = sys.argv[1:] if argv is None else [*argv]
        args = build_parser(words[0] if words else None).parse_args(words)
        code = int(args.func(args) or 0)
        stdout.flush()
        return code
    except (UsageError, SiteUrlError) as exc:
        return _error(exc)
    except ValueError as exc:
        from iosched.measure.failure import MeasureError
        from iosched.mechanisms.tuned import TunedProfileError
        from iosched.persist import PersistError
        from iosched.render.plan_ansible import PlaybookError

        if not isinstance(exc, MeasureError | PersistError | TunedProfileError | PlaybookError):
            raise
        return _error(exc)
    except KbInvalid as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic, file=sys.stderr)
        print(f"iosched: the KB has {len(exc.diagnostics)} problem(s); see 'iosched kb check'", file=sys.stderr)
        return 1
    except BrokenPipeError:
        _discard(stdout.stream)
        return 0
    except OSError as exc:
        if not stdout.failed:
            raise
        _discard(stdout.stream)
        return _error(f"cannot write the output: {exc.strerror or exc}")
    except KeyboardInterrupt:
        print("iosched: interrupted", file=sys.stderr)
        return 130


def _error(message: object) -> int:
    """One line on stderr, without the control characters a file name or file content may carry; exit 2."""
    from iosched.escape import one_line

    print(f"iosched: error: {one_line(str(message))}", file=sys.stderr)
    return 2


def _discard(stream: Any) -> None:
    """Point ``stream``'s descriptor at /dev/null, so that the interpreter's last flush of what could not be
    written does not fail again."""
    import contextlib

    with contextlib.suppress(OSError, ValueError):  # ValueError: no descriptor behind it (captured output)
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


# ------------------------------------------------------------------------------------------ output
# Writing command output: plain strings byte-exact, the text format through rich on a terminal.
#
# On a terminal, code blocks (every command a plan shows) are printed as they are: never wrapped or cut by
# rich at the terminal width, never padded, so a command copied from the screen is the command.


def write(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def write_bytes(chunks: Iterable[bytes]) -> None:
    """Text already encoded in standard output's encoding, after what was written before it: what a command
    writes by the hundred megabytes, encoding once what repeats. A failure to write is reported as any other."""
    stdout: Any = sys.stdout  # the watched standard output of iosched.cli.main
    stdout.write_bytes(chunks)


def _markdown(markdown: str, hyperlinks: bool) -> Any:
    """rich Markdown whose code blocks keep every line whole."""
    from rich.markdown import CodeBlock, Markdown, TableElement
    from rich.table import Table
    from rich.text import Text

    class WholeLines(CodeBlock):
        def __rich_console__(self, console: Any, options: Any) -> Any:
            yield Text(str(self.text).rstrip(), style="bold", no_wrap=True, overflow="ignore", end="\n")

    class WholeIds(TableElement):
        """A table whose first column (the ids that explain takes) is never wrapped or cut; the others wrap."""

        def __rich_console__(self, console: Any, options: Any) -> Any:
            for table in super().__rich_console__(console, options):
                assert isinstance(table, Table)
                rows = [self.header.row] if self.header and self.header.row else []
                rows += self.body.rows if self.body else []
                first = table.columns[0]
                first.no_wrap = True
                first.min_width = max((row.cells[0].content.cell_len for row in rows if row.cells), default=0)
                yield table

    class Plain(Markdown):
        elements: ClassVar = {**Markdown.elements, "fence": WholeLines, "code_block": WholeLines,
                              "table_open": WholeIds}  # fmt: skip

    return Plain(markdown, hyperlinks=hyperlinks)


def write_markdown(markdown: str, fmt: str) -> None:
    """Markdown source for ``--format markdown`` or a pipe; rendered by rich on a terminal."""
    if fmt == "text" and sys.stdout.isatty():
        from rich.console import Console

        Console().print(_markdown(markdown, hyperlinks=True), crop=False)
    else:
        write(markdown)


def write_rendered(rendered: Rendered, fmt: str) -> None:
    """A document from :mod:`iosched.render.formats`: what it leaves out on standard error, Markdown through
    :func:`write_markdown`, encoded pieces through :func:`write_bytes`, the rest as is. (A tree of files is
    written where its command says.)"""
    for note in rendered.notes:
        print(f"iosched: {note}", file=sys.stderr)
    if rendered.pieces is not None:
        write_bytes(rendered.pieces)
    elif rendered.markdown:
        write_markdown(rendered.text, fmt)
    else:
        write(rendered.text)


def terminal_text(markdown: str, width: int = 100) -> str:
    """What the text format shows on a terminal of ``width`` columns, without colour."""
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(_markdown(markdown, hyperlinks=False), crop=False)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def format_option(parser: argparse.ArgumentParser, registry: Formats[Any, Any], help: str = "") -> None:
    """``--format``: the formats of the command's kind of document (:mod:`iosched.render.formats`); the
    default is ``text`` where there is one, else the first."""
    names = registry.names()
    default = "text" if "text" in names else names[0]
    parser.add_argument("--format", choices=names, default=default, help=help or f"output format (default: {default})")


def stdout_columns() -> int | None:
    """The width of the terminal standard output goes to; None on a pipe or file (lines stay whole)."""
    return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else None
