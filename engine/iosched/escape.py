"""One escaping function per output target. Everything a renderer takes from outside its own code goes
through the function of its target: the KB's grammars (:mod:`iosched.grammar`) keep values plain, and these
make sure that whatever is left is shown, never interpreted."""

from __future__ import annotations

import re
from functools import cache

from iosched.grammar import UNSEEN_RANGES

_MARKDOWN_SPECIAL = r"([\\`*\[\]<>|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))"
_LINE_START = r"(?m)^(\s*\d*)([-+=>#.)])"  # the mark after digits: "1\." not "\1."


@cache
def _unseen(spelled: bool) -> dict[int, str]:
    """``str.translate`` table of the unseen characters (a regular expression of them costs every command
    start-up time to compile): each to ``?``, or, ``spelled``, tab, newline and each below U+0100 to ``\\xNN``."""
    codes = [c for first, last in UNSEEN_RANGES for c in range(first, last + 1)]
    if not spelled:
        return dict.fromkeys(codes, "?")
    return {c: f"\\x{c:02x}" if c < 0x100 else "?" for c in (ord("\t"), ord("\n"), *codes)}


def terminal(text: str) -> str:
    """Text for a terminal: control characters (ESC, CR, BEL ...) and invisible marks become ``?``."""
    return text.translate(_unseen(False))


def untrusted(value: object, limit: int = 200) -> str:
    """A value from an untrusted file, shown in a message on one line: every unseen character, tabs and
    newlines as ``\\xNN`` (``?`` above U+00FF), and long text cut with an ellipsis."""
    text = (value if isinstance(value, str) else repr(value)).translate(_unseen(True))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(text: str) -> str:
    """Text on one line: every run of white space, newlines included, becomes one space."""
    return " ".join(terminal(text).split())


_SH_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def sh_word(text: str) -> str:
    """One shell word, quoted when it needs to be: as ``shlex.quote`` (which every plan format would otherwise
    import for its reproduce line alone), single quotes around anything but plain ASCII word characters."""
    if text and _SH_SAFE.issuperset(text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def sh_lines(text: str) -> str:
    """``text`` as the words of ``printf '%s\\n' WORDS``, one word per line, so that the command stays on one line
    and prints ``text`` with a final newline."""
    return " ".join(sh_word(line) for line in text.split("\n"))


def sh_comment(text: str) -> str:
    """The body of a ``#`` comment: one line, no control characters (a newline would end the comment)."""
    return one_line(text)


def udev_value(text: str) -> str:
    """A udev value between double quotes: udev has no escape for ``"``, so quotes and backslashes go."""
    return one_line(text).replace('"', "").replace("\\", "")


def markdown_text(text: str) -> str:
    """Prose inside a Markdown line: characters that would start inline markup (code, emphasis, links, HTML,
    tables) are backslash-escaped, so text stays text. Underscores inside words are left alone."""
    return re.sub(_MARKDOWN_SPECIAL, r"\\\1", terminal(text))


def markdown_block(text: str) -> str:
    """Prose that may start a line: also escapes what would start a list, a heading or a quote."""
    return re.sub(_LINE_START, lambda m: m[1] + "\\" + m[2], markdown_text(text))


def markdown_cell(text: str) -> str:
    """Text in a Markdown table cell: one line, escaped."""
    return markdown_text(one_line(text))


def code_span(text: str) -> str:
    """Inline code: the fence is longer than any run of backticks inside, so nothing can close it early."""
    body = one_line(text)
    if not body:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def code_block(text: str, lang: str = "") -> str:
    """A fenced code block whose fence no line inside can close."""
    runs = re.findall(r"^\s*(`{3,}|~{3,})", text, re.MULTILINE)
    fence = "`" * max(3, *(len(r) + 1 for r in runs)) if runs else "```"
    return f"{fence}{lang}\n{terminal(text).rstrip()}\n{fence}"


def html_text(text: str) -> str:
    """Text or a quoted attribute value in HTML (the site's pages): exactly the text, markup and quotes
    escaped."""
    import html  # here, not at the top: html loads its table of entities

    return html.escape(text, quote=True)


def xml_text(text: str) -> str:
    """Character data or a quoted attribute in XML (SVG): one line, markup escaped, and no character that
    XML forbids (the non-characters U+FFFE and U+FFFF are dropped)."""
    return html_text(one_line(text).replace("\ufffe", "").replace("\uffff", ""))
