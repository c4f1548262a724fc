"""Where each KB entity lives on the reference site: page, anchor, relative and absolute links."""

from __future__ import annotations

import os
import posixpath
import re
from typing import Any

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"

# One page per entity of these kinds; the others share one page per kind, one anchor per entity.
_OWN_PAGE = {"elevator": "reference/elevators/{}.md", "rule": "reference/rules/{}.md"}
_SHARED_PAGE = {
    "queue attribute": "reference/queue-attributes.md",
    "sysctl": "reference/sysctls.md",
    "boot parameter": "reference/boot-parameters.md",
    "mount option": "reference/mount-options.md",
    "distribution": "reference/distributions.md",
    "persistence method": "reference/persistence.md",
    "caveat": "reference/caveats.md",
    "evidence": "reference/evidence.md",
    "disagreement": "reference/disagreements.md",
    "source": "reference/sources.md",
    "hardware preset": "reference/hardware.md",
    "workload": "reference/workloads.md",
    "assumption": "reference/assumptions.md",
}


def anchor(ident: str) -> str:
    """An HTML id for a KB id: lower case, runs of characters other than ``a-z0-9_-`` become ``-``."""
    return re.sub(r"[^a-z0-9_-]+", "-", ident.lower()).strip("-") or "id"


def location(entity: Any) -> tuple[str, str]:
    """The Markdown page (relative to the docs dir) and the anchor ('' for a whole page) of an entity."""
    kind = entity.kind
    if kind == "tunable":
        return _OWN_PAGE["elevator"].format(entity.elevator.name), anchor(entity.tunable.name)
    if kind in _OWN_PAGE:
        return _OWN_PAGE[kind].format(entity.id), ""
    return _SHARED_PAGE[kind], anchor(entity.id)


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


def site_base() -> str:
    """The site's base URL: ``$IOSCHED_SITE_URL`` or what ``make serve`` serves."""
    base = os.environ.get("IOSCHED_SITE_URL") or DEFAULT_SITE_URL
    return base if base.endswith("/") else base + "/"


def absolute(entity: Any, base: str | None = None) -> str:
    """The absolute URL of an entity on the published site, for CLI output."""
    page, frag = location(entity)
    return (base or site_base()) + page_url(page) + (f"#{frag}" if frag else "")
