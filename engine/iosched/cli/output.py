"""Writing command output: plain strings byte-exact, the text format through rich on a terminal.

On a terminal, code blocks (every command a plan shows) are printed as they are: never wrapped or cut by
rich at the terminal width, never padded, so a command copied from the screen is the command.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any, ClassVar

    from iosched.render.formats import Rendered


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
    """A document from :mod:`iosched.render.formats`: Markdown through :func:`write_markdown`, the rest as is."""
    if rendered.markdown:
        write_markdown(rendered.text, fmt)
    else:
        write(rendered.text)


def terminal_text(markdown: str, width: int = 100) -> str:
    """What the text format shows on a terminal of ``width`` columns, without colour."""
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(_markdown(markdown, hyperlinks=False), crop=False)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def format_option(parser: argparse.ArgumentParser, choices: tuple[str, ...] = ("text", "markdown", "json")) -> None:
    parser.add_argument("--format", choices=choices, default="text", help="output format (default: text)")
