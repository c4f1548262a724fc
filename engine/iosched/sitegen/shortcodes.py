"""KB shortcodes in hand-written pages: ``<!-- kb:ID -->`` becomes a one-line summary with a link."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from iosched.render import find
from iosched.render.links import relative
from iosched.render.reference import one_line

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb

SHORTCODE = re.compile(r"<!--\s*kb:([^\s>]+)\s*-->")


class UnknownId(ValueError):
    """A shortcode names an id the KB does not have."""


def expand(markdown: str, kb: Kb, page: str) -> str:
    """Replace every shortcode; raise :class:`UnknownId` naming the first id the KB lacks."""

    def replace(match: re.Match[str]) -> str:
        ident = match[1]
        entity = find(kb, ident)
        if entity is None:
            raise UnknownId(f"{page}: unknown KB id {ident!r} in shortcode {match[0]!r}")
        return f"[`{entity.id}`]({relative(page, entity)}): {one_line(kb, entity)}"

    return SHORTCODE.sub(replace, markdown)
