"""Parsing the built site's HTML with the standard library: ids, links, table rows, text."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass
class Page:
    """What the tests need from one built HTML page."""

    ids: set[str] = field(default_factory=set)
    refs: list[tuple[str, str, str, dict[str, str]]] = field(default_factory=list)  # (tag, attr, value, attrs)
    rows: list[list[str]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.page.ids.add(values[key])
        for attr in ("href", "src"):
            if attr in values:
                self.page.refs.append((tag, attr, values[attr], values))
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.page.rows.append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        self.page.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(path: Path) -> Page:
    parser = _Parser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.page


def html_path(url_path: str) -> str:
    """The file a directory URL is served from: ``reference/sysctls/`` -> ``reference/sysctls/index.html``."""
    return url_path + "index.html" if url_path.endswith("/") or not url_path else url_path


def local_target(page: str, value: str) -> tuple[str, str] | None:
    """The built file and fragment a link on ``page`` leads to; None for a link off the site."""
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or value.startswith(("mailto:", "data:", "javascript:")):
        return None
    if not parts.path:
        return page, unquote(parts.fragment)
    base = "" if parts.path.startswith("/") else posixpath.dirname(page)  # site_url's path is /
    path = posixpath.normpath(posixpath.join(base, unquote(parts.path).lstrip("/")) or ".")
    if parts.path.endswith("/") or parts.path in (".", ".."):
        path = html_path("" if path == "." else path + "/")
    return path, unquote(parts.fragment)
