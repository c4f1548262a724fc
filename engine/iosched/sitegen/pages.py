"""The generated reference pages: a pure function from the KB to ``{docs-relative path: Markdown}``."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from iosched.kernel import KernelVersion
from iosched.knowledge.kinds import BY_SLUG, KINDS, Kind, kind_of
from iosched.render import reference
from iosched.render.links import location, relative
from iosched.render.reference import Style, bullets, code, diagnostic_codes, join, list_table, ref, table
from iosched.sitegen import GENERATED

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb

REFERENCE = "reference"


def _style(page: str, level: int = 1) -> Style:
    return Style(link=lambda entity: relative(page, entity), level=level, site=True)


def _page(title: str, *blocks: str) -> str:
    """A page whose H1 comes first: MkDocs names a page after its first element only when that is the H1."""
    return join(f"# {title}", GENERATED, *blocks)


def page_of(kind: Kind) -> str:
    """The docs-relative page that lists a kind: its own index, or the page that holds every entity."""
    return f"{REFERENCE}/{kind.slug}/index.md" if kind.own_pages else f"{REFERENCE}/{kind.slug}.md"


def shared_page(kb: Kb, kind: Kind) -> str:
    """One page for every entity of a kind, a section each, after the list table."""
    style = _style(page_of(kind), level=2)
    sections = [reference.render(kb, e, style) for e in kb.entities(kind)]
    return _page(kind.title, kind.intro, list_table(kb, kind.slug, style), *sections)


MOVED = frozenset({"tunables", "queue-attributes", "sysctls", "boot-parameters", "distributions"})
"""Kinds that had one shared page with an anchor per entity: their index keeps those anchors."""


def entity_page(kb: Kb, entity: Any, page: str) -> str:
    """An entity's own page: search front matter, title, whether it is current, then its reference text."""
    from iosched.sitegen import advisor, currency, releases

    style = _style(page)
    first, _, rest = reference.render(kb, entity, style).partition("\n")
    extra: tuple[str, ...] = ()
    if kind_of(entity).slug == "distributions":
        rest = releases.release_page(kb, entity, style, posixpath.relpath(advisor.PAGE, posixpath.dirname(page)))
        extra = (releases.short_name(entity),)
    elif kind_of(entity).slug == "tunables":
        rest = join(rest, same_name_table(kb, entity, style))
    notes = join(currency.removed_note(kb, entity, style), currency.replaced_note(kb, entity, style))
    return join(currency.front_matter(kb, entity, extra), first, GENERATED, notes, rest)


def same_name_table(kb: Kb, item: Any, style: Style) -> str:
    """The era table of a tunable's name: every elevator that has a file of that name, on which kernels."""
    from iosched.sitegen.currency import removed_in

    rows = [
        (ref(kb, style, t.id, f"`{t.elevator.name}`"), reference.kernels(t.tunable.since or t.elevator.since,
         removed_in(t)), reference.value_text(t.tunable.default, t.tunable.unit), "removed" if removed_in(t) else
         "current")
        for t in kb.entities("tunables") if t.tunable.name == item.tunable.name
    ]  # fmt: skip
    if len(rows) < 2:
        return ""
    return join(f"## `{item.tunable.name}` in every elevator", table(("elevator", "kernels", "default", "status"),
                rows))  # fmt: skip


def index_body(kb: Kb, kind: Kind, style: Style) -> str:
    """The list of a kind's pages; a kind that had one shared page keeps its anchors in the rows."""
    from iosched.sitegen import releases

    if kind.slug == "distributions":
        return releases.index_body(kb, style)
    header, rows = reference.list_rows(kb, kind.slug, style)
    if kind.slug in MOVED:
        pairs = zip(kb.entities(kind), rows, strict=True)
        rows = [(reference.moved(first, e.id, style), *rest) for e, (first, *rest) in pairs]
    return table(header, rows) if rows else f"_No {kind.title.lower()} in the KB._"


def own_pages(kb: Kb, kind: Kind) -> dict[str, str]:
    """One page per entity of a kind, plus an index page that lists them."""
    from iosched.sitegen import currency

    pages = {location(entity)[0]: entity_page(kb, entity, location(entity)[0]) for entity in kb.entities(kind)}
    index = page_of(kind)
    listing = _page(kind.title, kind.intro, index_body(kb, kind, _style(index)))
    pages[index] = join(currency.index_front_matter(kind), listing)
    return pages


def caveats_page(kb: Kb) -> str:
    style = _style(f"{REFERENCE}/caveats.md", level=3)
    blocks = []
    for risk, label in reference.RISK_LABEL.items():
        found = [c for c in kb.section("caveats") if c.risk == risk]
        if found:
            blocks.append(f"## {label.removeprefix('Risk: ').capitalize()}")
            blocks += [reference.caveat(kb, c, style) for c in found]
    return _page(BY_SLUG["caveats"].title, "What can go wrong, grouped by what is at risk.",
                 list_table(kb, "caveats", _style(f"{REFERENCE}/caveats.md")), *blocks)  # fmt: skip


def persistence_page(kb: Kb) -> str:
    style = _style(f"{REFERENCE}/persistence.md", level=2)
    releases = page_of(BY_SLUG["distributions"]).removeprefix(f"{REFERENCE}/")
    per_release = (
        f"Each [distribution release]({releases}) has a page with its commands, its methods in the "
        "order that wins, and its shipped rules."
    )
    methods = [reference.persistence_method(kb, m, style) for m in kb.section("persistence")]
    return _page(BY_SLUG["persistence"].title, "How to change a setting now, and how to keep it across reboots.",
                 per_release, "## Methods", list_table(kb, "persistence", style), *methods)  # fmt: skip


Event = tuple[KernelVersion, str, Any, str, str]


def _events(kb: Kb) -> list[Event]:
    """(kernel, change, entity, what, detail) from every since/until/added_in/removed_in and effect in the KB."""
    out: list[Event] = []

    def span(entity: Any, since: Any, until: Any, what: str) -> None:
        if since:
            out.append((since, "appeared", entity, what, ""))
        if until:
            out.append((until, "vanished", entity, what, ""))

    for e in kb.section("elevators"):
        span(e, e.since, e.until, f"elevator {e.name}")
        for t in e.tunables:
            span(kb.get(f"{e.name}.{t.name}"), t.since, t.until, f"tunable {e.name}/{t.name}")
            for d in t.defaults:
                if d.scope.since and not d.scope.distributions and not d.scope.condition:
                    detail = f"default {reference.value_text(d.value, t.unit)}"
                    out.append((d.scope.since, "default changed", kb.get(f"{e.name}.{t.name}"), t.name, detail))
    for kind in (BY_SLUG["queue-attributes"], BY_SLUG["sysctls"], BY_SLUG["cgroup-files"], BY_SLUG["topics"]):
        for s in kb.entities(kind):
            span(s, s.since, s.until, f"{kind.name} {s.id}")
    for p in kb.section("persistence"):
        span(p, p.since, p.until, f"persistence: {p.title}")
    for b in (*kb.section("boot_parameters"), *kb.section("mount_options")):
        for effect in b.effects:
            if effect.since:
                out.append((effect.since, effect.effect, b, f"{kind_of(b).name} {b.id}", effect.text))
    return out


def timeline_page(kb: Kb) -> str:
    style = _style(f"{REFERENCE}/timeline.md")
    rows = [
        (str(kernel), change, f"[{what}]({style.link(entity)})", detail)
        for kernel, change, entity, what, detail in sorted(_events(kb), key=lambda e: (e[0], e[3], e[1]))
    ]
    intro = (
        "What appeared, changed and vanished in which kernel release, from every kernel range in the KB. "
        "A range's end is the first kernel without the thing."
    )
    return _page("Kernel timeline", intro, table(("kernel", "change", "what", "detail"), rows))


def matrix_page(kb: Kb) -> str:
    from iosched.sitegen import matrix

    return matrix.page(kb)


def cli_page() -> str:
    """The CLI reference: every command's own --help, walked through the commands the parser remembers."""
    from iosched.cli import HELP_WIDTH, build_parser

    blocks: list[str] = []
    HELP_WIDTH[:] = [100]

    def walk(parser: Any, name: str, helptext: str | None, level: int) -> None:
        blocks.append(f"{'#' * level} `{name}`")
        blocks.append(join(helptext or parser.description or "", code(parser.format_help().strip(), "text")))
        for command, command_help, child in parser.commands:
            walk(child, f"{name} {command}", command_help, min(level + 1, 4))

    try:
        walk(build_parser(), "iosched", None, 2)
    finally:
        HELP_WIDTH.clear()
    codes = join("## `kb check` codes", "Each problem `iosched kb check` reports carries one of these stable codes "
                 "(`iosched explain KB101` says what one means).", diagnostic_codes())  # fmt: skip
    return _page("Command line", "Generated from the `iosched` argument parser.", *blocks, codes)


EXTRA: tuple[tuple[str, str], ...] = (
    ("matrix.md", "Recommendation matrix"),
    ("timeline.md", "Kernel timeline"),
    ("cli.md", "Command line"),
)
"""Generated pages that are not one kind's: (page under reference/, title)."""

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Settings",
        (
            "elevators",
            "tunables",
            "queue-attributes",
            "sysctls",
            "cgroup-files",
            "boot-parameters",
            "mount-options",
            "timeline.md",
            "disagreements",
        ),
    ),
    (
        "Distributions and persistence",
        ("distributions", "persistence", "tuned-profiles", "vendor-rules", "device-classes", "caveats"),
    ),
    ("Advice", ("rules", "matrix.md", "hardware", "workloads", "assumptions", "examples", "evidence")),
    ("Diagnosis", ("causes",)),
    ("Background", ("topics", "cli.md", "sources")),
)
"""The Reference section by kind of page: each kind's slug or an :data:`EXTRA` page, the pages that annotate
others (disagreements, caveats, evidence) beside what they annotate, the bibliography last."""


def _entry(name: str) -> tuple[str, str]:
    """(title, docs-relative page) of a kind's slug or an extra page's file name."""
    if name in BY_SLUG:
        return BY_SLUG[name].title, page_of(BY_SLUG[name])
    return dict(EXTRA)[name], f"{REFERENCE}/{name}"


def nav() -> list[Any]:
    """The Reference section of the site navigation: an overview, then the pages in :data:`GROUPS`."""
    entries: list[Any] = [{"Overview": f"{REFERENCE}/index.md"}]
    for group, names in GROUPS:
        entries.append({group: [dict([_entry(name)]) for name in names]})
    return entries


def index_page(kb: Kb) -> str:
    counts = ", ".join(f"{len(kb.entities(k))} {k.title.lower()}" for k in KINDS if kb.entities(k))
    blocks = []
    for group, names in GROUPS:
        links = [(title, page.removeprefix(f"{REFERENCE}/")) for title, page in map(_entry, names)]
        blocks += [f"## {group}", bullets(f"[{title}]({page})" for title, page in links)]
    return _page("Reference", f"Generated from KB {kb.version or '(unversioned)'}: {counts}.", *blocks)


def render_all(kb: Kb) -> dict[str, str]:
    """Every generated page (and the advisor's data), keyed by its path relative to the docs directory."""
    from iosched.sitegen import advisor

    special: dict[str, Callable[[Any], str]] = {"caveats": caveats_page, "persistence": persistence_page}
    pages: dict[str, str] = {}
    for kind in KINDS:
        if kind.own_pages:
            pages.update(own_pages(kb, kind))
        elif kind.section:
            pages[page_of(kind)] = special.get(kind.slug, lambda kb, kind=kind: shared_page(kb, kind))(kb)
    builders: dict[str, Callable[[], str]] = {
        "timeline.md": lambda: timeline_page(kb),
        "matrix.md": lambda: matrix_page(kb),
        "cli.md": cli_page,
        "index.md": lambda: index_page(kb),
    }
    pages.update({f"{REFERENCE}/{name}": build() for name, build in builders.items()})
    pages.update(advisor.pages(kb))
    return pages
