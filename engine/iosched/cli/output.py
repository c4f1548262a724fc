"""Writing command output: plain strings byte-exact, the text format through rich on a terminal."""

from __future__ import annotations

import os
import sys


def write(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def write_markdown(markdown: str, fmt: str) -> None:
    """Markdown source for ``--format markdown`` or a pipe; rendered by rich on a terminal."""
    if fmt == "text" and sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(markdown, hyperlinks=True))
    else:
        write(markdown)


def terminal_text(markdown: str, width: int = 100) -> str:
    """What the text format shows on a terminal of ``width`` columns, without colour."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(width=width, record=True, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(Markdown(markdown, hyperlinks=False))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def format_option(parser, choices: tuple[str, ...] = ("text", "markdown", "json")) -> None:
    parser.add_argument("--format", choices=choices, default="text", help="output format (default: text)")
