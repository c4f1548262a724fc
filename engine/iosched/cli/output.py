"""Writing command output: plain strings byte-exact, the text format through rich on a terminal."""

from __future__ import annotations

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


def format_option(parser, choices: tuple[str, ...] = ("text", "markdown", "json")) -> None:
    parser.add_argument("--format", choices=choices, default="text", help="output format (default: text)")
