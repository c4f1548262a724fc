"""Where each KB entity lives on the reference site: page, anchor, relative and absolute links."""

from __future__ import annotations

import os
import posixpath
import re

from iosched.errors import SiteUrlError
from iosched.grammar import URL, matches
from iosched.knowledge.kinds import kind_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SITE_URL_ENV = "IOSCHED_SITE_URL"


def anchor(ident: str) -> str:
    """An HTML id for a KB id: lower case, runs of characters other than ``a-z0-9_-`` become ``-``."""
    return re.sub(r"[^a-z0-9_-]+", "-", ident.lower()).strip("-") or "id"


def location(entity: Any) -> tuple[str, str]:
    """The Markdown page (relative to the docs dir) and the anchor ('' for a whole page) of an entity."""
    kind = kind_of(entity)
    if kind.own_pages:
        return f"reference/{kind.slug}/{entity.id}.md", ""
    return f"reference/{kind.slug}.md", anchor(entity.id)


def page_url(page: str) -> str:
    """The URL path of a page with directory URLs: ``a/b.md`` -> ``a/b/``, ``a/index.md`` -> ``a/``."""
    stem = page.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return stem + "/"


def relative(from_page: str, entity: Any) -> str:
    """A Markdown link from one docs page to an entity (MkDocs checks and rewrites it)."""
    page, frag = location(entity)
    target = posixpath.relpath(page, posixpath.dirname(from_page) or ".")
    return target + (f"#{frag}" if frag else "")


def site_base(base: str | None = None) -> str | None:
    """The published site's base URL: ``base`` (``--site-url``), else ``$IOSCHED_SITE_URL``, else None."""
    chosen = base or os.environ.get(SITE_URL_ENV) or None
    if chosen is None:
        return None
    if not matches(URL, chosen):
        raise SiteUrlError(f"site URL {chosen!r} is not a plain http(s) URL (from --site-url or ${SITE_URL_ENV})")
    return chosen if chosen.endswith("/") else chosen + "/"


KB_QUERY = "kb"
"""The query parameter that names the KB a link was made from; the page warns when it reflects another."""


def absolute(entity: Any, base: str | None = None, version: str = "") -> str | None:
    """The absolute URL of an entity on the published site, naming the KB ``version`` the link was made from
    (``?kb=3b3831d1a7e0fe8a``); None when no site is configured."""
    root = site_base(base)
    if root is None:
        return None
    page, frag = location(entity)
    return root + page_url(page) + (f"?{KB_QUERY}={version}" if version else "") + (f"#{frag}" if frag else "")
