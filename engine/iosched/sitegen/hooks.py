"""MkDocs hooks: write the generated reference pages before the build, expand KB shortcodes in pages.

``mkdocs.yml`` lists this file under ``hooks:``. Pages are written only when their content changed, so
``mkdocs serve`` does not rebuild in a loop. ``$IOSCHED_KB_LAYERS`` (paths separated by ``os.pathsep``)
layers local KB directories over the bundled one, like ``--kb``.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from iosched.sitegen.pages import REFERENCE

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb

_kb: Kb | None = None
_command = "build"
log = logging.getLogger("mkdocs.plugins.iosched")
GENERATED_LOG = "iosched: %d reference pages generated from the KB in %.0f ms"
"""The build's INFO line on the page generator (bench/site_build.py reads its time from it)."""


def load_kb() -> Kb:
    from iosched.knowledge.kbcache import load_checked

    layers = [Path(p) for p in os.environ.get("IOSCHED_KB_LAYERS", "").split(os.pathsep) if p]
    return load_checked(layers)


def write_changed(root: Path, pages: dict[str, str]) -> list[str]:
    """Write each page whose content differs, delete generated pages that are gone; return what changed."""
    changed = []
    for rel, text in pages.items():
        path = root / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(rel)
    generated = root / REFERENCE
    for path in sorted(generated.rglob("*.md")) if generated.is_dir() else ():
        if path.relative_to(root).as_posix() not in pages:
            path.unlink()
            changed.append(path.relative_to(root).as_posix())
    return changed


def _refused_type() -> type[Exception]:
    from mkdocs.exceptions import Abort

    class Refused(Abort):
        """A build mkdocs stops with one line and exit 2 (bad input, as the command line says it)."""

        exit_code = 2

    return Refused


def on_startup(command: str, dirty: bool) -> None:
    global _command
    _command = command


def on_config(config: Any) -> Any:
    """Decide what the build is (public or a local preview: :mod:`iosched.sitegen.publish`), which sets the
    canonical URL; fill the Reference section of the navigation from the kinds of KB entity."""
    from iosched.errors import SiteUrlError
    from iosched.sitegen.pages import nav
    from iosched.sitegen.publish import this_build

    try:
        build = this_build(_command)
    except SiteUrlError as exc:
        raise _refused_type()(str(exc)) from exc
    config["site_url"] = build.url
    config["extra"]["iosched"] = {"kb": "", "date": build.date, "preview": build.preview}
    config["nav"] = [
        {"Reference": nav()} if isinstance(entry, dict) and "Reference" in entry else entry for entry in config["nav"]
    ]
    return config


def on_pre_build(config: Any) -> None:
    from mkdocs.exceptions import PluginError

    from iosched.errors import KbInvalid
    from iosched.sitegen.pages import render_all

    global _kb
    try:
        _kb = load_kb()
    except KbInvalid as exc:
        shown = "\n".join(str(d) for d in exc.diagnostics[:10])
        raise PluginError(f"{shown}\nthe KB has {len(exc.diagnostics)} problem(s); see 'iosched kb check'") from exc
    config["extra"]["iosched"]["kb"] = _kb.version
    start = time.perf_counter()
    pages = render_all(_kb)
    log.info(GENERATED_LOG, len(pages), (time.perf_counter() - start) * 1000)
    write_changed(Path(config["docs_dir"]), pages)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    from mkdocs.exceptions import PluginError

    from iosched.sitegen.shortcodes import UnknownId, expand

    if page.file.src_uri.startswith(f"{REFERENCE}/"):
        return markdown
    try:
        return expand(markdown, _kb if _kb is not None else load_kb(), page.file.src_uri)
    except UnknownId as exc:
        raise PluginError(str(exc)) from exc


_LINK_ATTRIBUTE = r"""\s(?:href|src|xlink:href|action|formaction)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))"""


_EVENT_ATTRIBUTE = r"""\son[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+)"""
"""An event handler attribute (``onmouseover="..."``), which no page of the site has."""


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Every page's HTML without a link or source whose scheme is not http(s) or mailto (``javascript:``,
    ``data:`` ...) and without event handler attributes: the KB's grammar refuses both in its prose, rendered
    (:func:`iosched.grammar.link_problem`), and this keeps any that came another way off the site."""
    return safe_links(html)


def safe_links(html: str) -> str:
    """``html`` with each link attribute whose target :func:`iosched.grammar.link_allowed` refuses removed, and
    every event handler attribute."""
    import re

    from iosched.grammar import link_allowed

    def kept(match: re.Match[str]) -> str:
        target = next(group for group in match.groups() if group is not None)
        return match[0] if link_allowed(target) else ""

    return re.sub(_EVENT_ATTRIBUTE, "", re.sub(_LINK_ATTRIBUTE, kept, html, flags=re.IGNORECASE), flags=re.IGNORECASE)
