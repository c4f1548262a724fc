"""The recommendation matrix: the elevator the engine picks for every hardware preset x workload, one table
per kernel era or distribution (identical tables are shared), coloured by elevator, each cell linked to the
rule that chose it. ``site/assets/iosched.js`` shows the table the selector names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iosched.escape import html_text
from iosched.render.reference import bullets, join, one_line, ref
from iosched.sitegen.grid import Grid, Outcome, Setting, grid
from iosched.sitegen.markup import element, link, setting_select

if TYPE_CHECKING:
    from iosched.kb import Kb

PAGE = "reference/matrix.md"
TITLE = "Recommendation matrix"
COLOURS = 10  # .ios-c0 ... .ios-c9 in iosched.css
NO_ELEVATOR = "—"
NOT_ADVISED = "n/a"
FRONT_MATTER = "---\nhide:\n  - navigation\n  - toc\n---"


def _cell(kb: Kb, outcome: Outcome, colour: dict[str, int]) -> str:
    """The name shown comes first in the cell (the script and the legend key on it), then other rules."""
    if isinstance(outcome, str):
        return element("td", element("span", NOT_ADVISED), class_="ios-invalid", title=outcome)
    plan = outcome
    if plan.scheduler is None:
        return element("td", element("span", NO_ELEVATOR), class_="ios-none", title="no rule picks an elevator")
    rules = [r for r in (kb.get(i) for i in plan.scheduler_rules) if r is not None]
    why = ", ".join(f"{r.id} {r.name}" for r in rules) or "no rule chose it"
    if not any(step.kind == "scheduler" and not step.expected_already for step in plan.steps):
        why += "; already the default"
    name = link(PAGE, rules[0], plan.scheduler, title=why) if rules else element("span", html_text(plan.scheduler))
    more = "".join(element("sup", link(PAGE, r, r.id, title=f"{r.id} {r.name}")) for r in rules[1:])
    return element("td", name + more, class_=f"ios-c{colour.get(plan.scheduler, 0) % COLOURS}")


def _table(kb: Kb, g: Grid, setting: Setting, colour: dict[str, int]) -> str:
    """The table body for one setting (without the ``<table>`` tag, so identical tables can be shared)."""
    heads = [element("th", "workload", scope="col")]
    paths = [element("th", "I/O path", scope="row")]
    for hw in g.hardware:
        heads.append(element("th", link(PAGE, hw, hw.id, title=hw.title), scope="col", data_hw=hw.id))
        found = {o.io_path for w in g.workloads if not isinstance(o := g.outcome(setting, hw.id, w.id), str)}
        paths.append(element("td", html_text(" / ".join(sorted(found)) or NOT_ADVISED)))
    head = element("thead", element("tr", "".join(heads)) + element("tr", "".join(paths), class_="ios-path"))
    rows = []
    for wl in g.workloads:
        cells = [_cell(kb, g.outcome(setting, hw.id, wl.id), colour) for hw in g.hardware]
        label = element("th", link(PAGE, wl, wl.title), scope="row", data_workload=wl.id)
        rows.append(element("tr", label + "".join(cells)))
    return head + element("tbody", "".join(rows))


def _legend(kb: Kb, g: Grid, colour: dict[str, int]) -> str:
    """Swatch, name and title of each elevator the tables show; ``data-key`` (what such a cell shows) lets the
    script hide the ones the shown table lacks."""

    def item(key: str, swatch_class: str, swatch: str, text: str) -> str:
        return element("li", element("span", swatch, class_=f"ios-swatch {swatch_class}") + text, data_key=key)

    plans = [o for o in g.outcomes.values() if not isinstance(o, str)]
    used = {p.scheduler for p in plans}
    items = [
        item(e.name, f"ios-c{colour[e.name] % COLOURS}", "", link(PAGE, e, e.name, class_="ios-legend-name")
             + " " + html_text(e.title))
        for e in kb.section("elevators") if e.name in used
    ]  # fmt: skip
    if None in used:
        items.append(item(NO_ELEVATOR, "ios-none", "", f"{NO_ELEVATOR} no change: no rule picks an elevator"))
    if len(plans) < len(g.outcomes):
        items.append(item(NOT_ADVISED, "ios-invalid", "", f"{NOT_ADVISED} the engine refuses it (hover for why)"))
    return element("ul", "".join(items), class_="ios-legend", aria_label="Legend", data_ios_legend=True)


def _widget(kb: Kb, g: Grid) -> str:
    colour = {e.name: i for i, e in enumerate(kb.section("elevators"))}
    shared: dict[str, str] = {}
    table_of = {s.key: shared.setdefault(_table(kb, g, s, colour), f"ios-matrix-{len(shared)}") for s in g.settings}
    default = table_of[g.default.key] if g.default else None
    tables = "".join(
        element("table", body, id=ident, class_="ios-matrix-table", data_ios_table=True, hidden=ident != default)
        for body, ident in shared.items()
    )
    select = setting_select(g, "ios-matrix-setting", {k: {"data_table": t} for k, t in table_of.items()})
    note = element("p", html_text(g.default.note if g.default else ""), class_="ios-note", data_ios_note=True)
    controls = element("div", select, class_="ios-controls")
    return element("div", controls + note + _legend(kb, g, colour) + tables, class_="ios-matrix", data_ios_matrix=True)


def page(kb: Kb) -> str:
    """The whole Markdown page: front matter (no side bars, room for every column), text and the widget."""
    from iosched.render.links import relative
    from iosched.render.reference import Style
    from iosched.sitegen.pages import GENERATED

    style = Style(link=lambda entity: relative(PAGE, entity), site=True)
    g = grid(kb)
    intro = (
        "The elevator `iosched advise --hw HW --workload WORKLOAD` picks for each hardware preset (columns) and "
        "workload (rows), computed when this site was built, for a kernel era (upstream defaults) or a "
        "distribution (its kernel and defaults): the legacy block layer and blk-mq offer different elevators. "
        "An era groups the kernels the distributions ship, and the default one, where every answer is the same; "
        "other facts follow the [assumptions](assumptions.md). Each name links to the rule that chose it, a "
        "small link after it to another rule that agrees. The [advisor](advisor.md) shows the whole plan."
    )
    if not g.settings:
        return join(FRONT_MATTER, f"# {TITLE}", GENERATED, intro, "_The KB has no hardware presets or workloads._")
    used = sorted({r for o in g.outcomes.values() if not isinstance(o, str) for r in o.scheduler_rules})
    rules = bullets(f"{ref(kb, style, r, r)}: {one_line(kb, kb.get(r))}" for r in used if kb.get(r) is not None)
    presets = bullets(f"{ref(kb, style, h.id, f'`{h.id}`')}: {h.title}" for h in g.hardware)
    head = join(FRONT_MATTER, f"# {TITLE}", GENERATED, intro)
    return head + "\n" + _widget(kb, g) + "\n\n" + join("## Hardware presets", presets, "## Rules that choose", rules)
