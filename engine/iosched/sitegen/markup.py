"""Raw HTML for the interactive pages: escaped elements, links between built pages, the setting selector."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import Any

from iosched.escape import html_text
from iosched.render.links import location, page_url
from iosched.sitegen.grid import Grid


def attrs(**values: object) -> str:
    """`` name="value"`` pairs, escaped; ``data_x`` becomes ``data-x``; None and False are left out."""
    out = []
    for name, value in values.items():
        name = name.rstrip("_").replace("_", "-")
        if value is True:
            out.append(f" {name}")
        elif value is not None and value is not False:
            out.append(f' {name}="{html_text(str(value))}"')
    return "".join(out)


def element(tag: str, content: str = "", **values: object) -> str:
    """``<tag ...>content</tag>``; ``content`` is HTML already (escape text with ``escape.html_text``)."""
    return f"<{tag}{attrs(**values)}>{content}</{tag}>"


def href(from_page: str, entity: Any) -> str:
    """The URL of an entity relative to a built page (directory URLs), e.g. ``../rules/IOS101/``."""
    page, frag = location(entity)
    here, there = page_url(from_page) or ".", page_url(page) or "."
    target = posixpath.relpath(there, here) + "/"
    return ("" if target == "./" and frag else target) + (f"#{frag}" if frag else "")


def link(from_page: str, entity: Any, text: str, **values: object) -> str:
    """An ``<a>`` to an entity with escaped text."""
    return element("a", html_text(text), href=href(from_page, entity), **values)


def setting_select(grid: Grid, ident: str, data: dict[str, dict[str, str]] | None = None) -> str:
    """A labelled ``<select>`` of the grid's settings, grouped, the default selected.

    Each option carries ``data-kernel`` or ``data-distro`` (what the engine was asked) and ``data-note``;
    ``data`` adds more attributes per setting key.
    """
    groups: dict[str, list[str]] = {}
    for s in grid.settings:
        extra = (data or {}).get(s.key, {})
        option = element("option", html_text(s.label), value=s.key, selected=s is grid.default, data_kernel=s.kernel,
                         data_distro=s.distro, data_note=s.note, **extra)  # fmt: skip
        groups.setdefault(s.group, []).append(option)
    body = "".join(element("optgroup", "".join(options), label=group) for group, options in groups.items())
    label = element("label", "Kernel or distribution", for_=ident)
    return element("span", label + element("select", body, id=ident, data_ios_setting=True), class_="ios-control")


def choice_select(ident: str, label: str, choices: Iterable[tuple[str, str]]) -> str:
    """A labelled ``<select>`` of ``(value, text)`` pairs, the first selected; label and select stay on one line."""
    options = "".join(element("option", html_text(text), value=value) for value, text in choices)
    pair = element("label", html_text(label), for_=ident) + element("select", options, id=ident)
    return element("span", pair, class_="ios-control")
