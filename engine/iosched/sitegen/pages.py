"""The generated reference pages: a pure function from the KB to ``{docs-relative path: Markdown}``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from iosched.kernel import KernelVersion
from iosched.kinds import BY_SLUG, KINDS, Kind, kind_of
from iosched.render import reference
from iosched.render.links import location, relative
from iosched.render.reference import Style, bullets, code, diagnostic_codes, join, list_table, ref, table

if TYPE_CHECKING:
    from iosched.kb import Kb
    from iosched.model import Distribution

REFERENCE = "reference"
GENERATED = "<!-- Generated from the KB by iosched.sitegen; edit kb/*.yaml, not this file. -->"


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


def own_pages(kb: Kb, kind: Kind) -> dict[str, str]:
    """One page per entity of a kind, plus an index page with the list table."""
    pages = {}
    for entity in kb.entities(kind):
        page, _ = location(entity)
        first, _, rest = reference.render(kb, entity, _style(page)).partition("\n")
        pages[page] = join(first, GENERATED, rest)  # the title first: MkDocs takes it only from a leading H1
    index = page_of(kind)
    pages[index] = _page(kind.title, kind.intro, list_table(kb, kind.slug, _style(index)))
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


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line else "" for line in text.splitlines())


def distribution_tab(kb: Kb, distro: Distribution, style: Style) -> str:
    """Runtime and persistent commands for one distribution, built by the same step kind as ``iosched advise``."""
    from iosched.plan import Step
    from iosched.steps import STEP_KINDS
    from iosched.system import udev

    elevator = next((d.elevator for d in distro.default_schedulers), "mq-deadline")
    methods = [m for m in (kb.get(i) for i in distro.persistence) if m is not None]
    example = Step(kind="scheduler", target="scheduler", value=elevator, title="", because=(), reasons=(),
                   sources=(), device="sda")  # fmt: skip
    scheduler = STEP_KINDS["scheduler"]
    rule = udev.content("sda: an example", udev.match("sda"), [example])
    return join(
        f"**Runtime** (until the next reboot; `sda` and `{elevator}` are examples):",
        code(f"{scheduler.verify(example)}\n{scheduler.apply(example)}"),
        f"**Persistent** with a udev rule in `{udev.FILE}`, one file per device:",
        code(udev.install(udev.path("sda"), rule)),
        reference.boot_loader_block(distro),
        "**Methods for this distribution:**" if methods else "",
        bullets(f"{ref(kb, style, m.id, m.title)}: {m.summary}" for m in methods),
    )


def persistence_page(kb: Kb) -> str:
    style = _style(f"{REFERENCE}/persistence.md", level=2)
    tabs = [f'=== "{d.name}"\n\n{_indent(distribution_tab(kb, d, style))}' for d in kb.section("distributions")]
    per_distro = "\n\n".join(tabs) if tabs else "_No distributions in the KB yet._"
    methods = [reference.persistence_method(kb, m, style) for m in kb.section("persistence")]
    return _page(BY_SLUG["persistence"].title, "How to change a setting now, and how to keep it across reboots.",
                 "## Per distribution", per_distro, "## Methods", list_table(kb, "persistence", style),
                 *methods)  # fmt: skip


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


def nav() -> list[Any]:
    """The Reference section of the site navigation: one entry per kind with a page, then the extra pages."""
    entries: list[Any] = [f"{REFERENCE}/index.md"]
    entries += [{k.title: page_of(k)} for k in KINDS if k.section]
    entries += [{title: f"{REFERENCE}/{name}"} for name, title in EXTRA]
    return entries


def index_page(kb: Kb) -> str:
    links = [(page_of(k).removeprefix(f"{REFERENCE}/"), k.title) for k in KINDS if k.section]
    links += list(EXTRA)
    counts = ", ".join(f"{len(kb.entities(k))} {k.title.lower()}" for k in KINDS if kb.entities(k))
    listing = bullets(f"[{title}]({name})" for name, title in sorted(links, key=lambda x: x[1]))
    return _page("Reference", f"Generated from KB {kb.version or '(unversioned)'}: {counts}.", listing)


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
