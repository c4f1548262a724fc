"""Text from files is escaped for where it is printed: any string in, exactly that text out, nothing else."""

from __future__ import annotations

import html
import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from iosched.escape import markdown_block, markdown_cell, one_line, sh_word, xml_text

BIDI_CONTROLS = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}
# Text as files bring it: any character, with Markdown's and the terminal's special ones well represented.
TEXT = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from("\\`*_{}[]<>()#+-.!|~&$=:\n\r\t\x1b 1"))
MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _shown(text: str) -> str:
    """What a Markdown value must render as: the one-line text."""
    return one_line(text)


def _text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


@settings(max_examples=250)
@given(TEXT)
def test_one_line_has_no_control_or_bidi_character(text: str) -> None:
    out = one_line(text)
    assert not any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS for c in out)
    assert one_line(out) == out


@settings(max_examples=250)
@given(TEXT)
def test_a_markdown_line_renders_as_one_paragraph_of_exactly_the_text(text: str) -> None:
    rendered = MARKDOWN.render(markdown_block(one_line(text)))
    if not _shown(text):
        assert rendered == ""
        return
    assert rendered.startswith("<p>") and rendered.endswith("</p>\n") and rendered.count("<p>") == 1
    body = rendered[3:-5]
    assert "<" not in body  # no element at all: the text's own "<" are entities
    assert _text_of(body) == _shown(text)


@settings(max_examples=200)
@given(TEXT, TEXT)
def test_markdown_cell_stays_in_its_cell(first: str, second: str) -> None:
    table = f"| a | b |\n|---|---|\n| {markdown_cell(first)} | {markdown_cell(second)} |\n"
    cells = re.findall(r"<td>(.*?)</td>", MARKDOWN.render(table), re.DOTALL)
    assert [_text_of(c) for c in cells] == [_shown(first), _shown(second)]


@given(TEXT)
def test_xml_text_parses_back_to_the_text(text: str) -> None:
    import xml.etree.ElementTree as ET

    allowed = "".join(c for c in one_line(text) if c not in "\ufffe\uffff")  # the non-characters XML forbids
    element = ET.fromstring(f'<t a="{xml_text(text)}">{xml_text(text)}</t>')
    assert element.text == (allowed or None) and element.get("a") == allowed


def test_only_the_escape_module_calls_an_escaping_library() -> None:
    """One escaping function per output target: a renderer that quotes or escapes by itself bypasses them."""
    from pathlib import Path

    import iosched

    package = Path(iosched.__file__).parent
    library = re.compile(r"\b(?:shlex\.quote|html\.escape)\(|from (?:html|shlex) import (?:escape|quote)\b")
    found = [p.relative_to(package).as_posix() for p in package.rglob("*.py") if library.search(p.read_text())]
    assert found == ["escape.py"]


@given(st.text())
def test_a_shell_word_is_quoted_as_shlex_quotes_it(text: str) -> None:
    """sh_word spells shlex.quote's rule itself, so a plan's reproduce line needs no shlex import."""
    import shlex

    assert sh_word(text) == shlex.quote(text)
