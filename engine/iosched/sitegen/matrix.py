"""The recommendation matrix: the elevator the engine picks for every hardware preset x workload, one table
per kernel era or distribution (identical tables are shared), coloured by elevator, each cell linked to the
rule that chose it. ``site/assets/iosched.js`` shows the table the selector names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iosched.escape import html_text
from iosched.render.reference import bullets, join, one_line, ref
from iosched.sitegen import GENERATED
from iosched.sitegen.grid import Grid, Outcome, Setting, grid
from iosched.sitegen.markup import element, link, setting_select

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb
    from iosched.records.plan import Decision, Plan

PAGE = "reference/matrix.md"
TITLE = "Recommendation matrix"
COLOURS = 10  # .ios-c0 ... .ios-c9 in iosched.css
NO_ELEVATOR = "—"
NOT_ADVISED = "n/a"
FRONT_MATTER = "---\nhide:\n  - navigation\n  - toc\n---"
QUEUE_RULE = "decided-on-the-machine"
"""The anchor of the stated rule for cells one answer cannot fill (the disk's queue count decides)."""


def decision(plan: Plan) -> Decision | None:
    """What the machine decides of the elevator when the step runs (a virtual disk's queue count), if it does."""
    return next((s.decide for s in plan.steps if s.kind == "scheduler" and s.decide is not None), None)


def decided_key(found: Decision) -> str:
    """What a decided cell shows, and its legend key: the fact that decides (``by queues``); a matrix column has
    no room for every answer, which the cell's title and the rule stated above the tables give."""
    return f"by {found.fact}"


def cases(found: Decision) -> str:
    """Each case and the value it gets: ``one entry: mq-deadline (IOS119); several: none (IOS105)``."""
    return "; ".join(
        f"{c.seen}: {c.value}" + (f" ({', '.join(c.because)})" if c.because else "") for c in found.choices
    )


def _decided_cell(found: Decision) -> str:
    """The fact that decides, linked to the rule stated above the tables; its title gives each case's value."""
    title = f"decided on the machine by {found.fact} ({found.reader}): {cases(found)}"
    name = element("a", html_text(decided_key(found)), href=f"#{QUEUE_RULE}", title=title)
    return element("td", name, class_="ios-decided")


def _no_elevator(plan: Plan) -> str:
    """Why a cell names no elevator: the device is bio-based on that kernel (it has no scheduler file), or no
    rule picks one."""
    if plan.io_path == "bio":
        return "no elevator: bio-based on these kernels (I/O path bio), the device has no scheduler to set"
    return "no change: no rule picks an elevator"


def _cell(kb: Kb, outcome: Outcome, colour: dict[str, int]) -> str:
    """The name shown comes first in the cell (the script and the legend key on it), then other rules."""
    if isinstance(outcome, str):
        return element("td", element("span", NOT_ADVISED), class_="ios-invalid", title=outcome)
    plan = outcome
    if plan.scheduler is None and (found := decision(plan)) is not None:
        return _decided_cell(found)
    if plan.scheduler is None:
        return element("td", element("span", NO_ELEVATOR), class_="ios-none", title=_no_elevator(plan))
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
    used = {p.scheduler for p in plans if decision(p) is None}
    items = [
        item(e.name, f"ios-c{colour[e.name] % COLOURS}", "", link(PAGE, e, e.name, class_="ios-legend-name")
             + " " + html_text(e.title))
        for e in kb.section("elevators") if e.name in used
    ]  # fmt: skip
    decided = {decided_key(d): d for p in plans if (d := decision(p)) is not None}
    for key, found in sorted(decided.items()):
        rule = element("a", html_text(key), href=f"#{QUEUE_RULE}")
        items.append(item(key, "ios-decided", "", f"{rule} the machine decides: {html_text(cases(found))}"))
    if None in used:
        why = {_no_elevator(p) for p in plans if p.scheduler is None and decision(p) is None}
        items.append(item(NO_ELEVATOR, "ios-none", "", f"{NO_ELEVATOR} {'; '.join(sorted(why))}"))
    if len(plans) < len(g.outcomes):
        items.append(item(NOT_ADVISED, "ios-invalid", "", f"{NOT_ADVISED} the engine refuses it (hover for why)"))
    return element("ul", "".join(items), class_="ios-legend", aria_label="Legend", data_ios_legend=True)


def queue_rule(kb: Kb, g: Grid) -> str:
    """The rule for the cells one answer cannot fill, stated once from the KB: the device classes whose queue
    count is set where they run, what each count gets and by which rule, how to read it, and what the plans
    say only then; '' when no plan leaves the elevator to the machine."""
    from iosched.render.links import relative
    from iosched.render.reference import Style

    style = Style(link=lambda entity: relative(PAGE, entity), site=True)
    plans = [o for o in g.outcomes.values() if not isinstance(o, str) and decision(o) is not None]
    decisions = {decided_key(d): d for p in plans if (d := decision(p)) is not None}
    if not decisions:
        return ""
    classes = [d for d in kb.section("device_classes") if d.queues_vary]
    presets = sorted({h for d in classes for h in d.hardware})
    said = []
    for key, found in sorted(decisions.items()):
        cases = "; ".join(
            f"{c.seen}: `{c.value}`" + (f" ({', '.join(ref(kb, style, r, r) for r in c.because)})" if c.because else "")
            for c in found.choices
        )
        said.append(f"`{key}`: {cases}. Read it with `{found.reader}`.")
    others = {n.id for o in g.outcomes.values() if not isinstance(o, str) and decision(o) is None
              for n in (*o.warnings, *o.advice)}  # fmt: skip
    advice = sorted({n.id for p in plans for n in (*p.warnings, *p.advice) if kb.get(n.id) is not None} - others)
    named = ", ".join(d.title for d in classes)
    planned = f", planned as the preset{'s' if len(presets) > 1 else ''} " if presets else ""
    lines = [
        f"**Where a cell says {' or '.join(f'_{k}_' for k in sorted(decisions))}, one answer cannot fill it**"
        f"{{ #{QUEUE_RULE} }}: the disk's hardware "
        "queue count decides, and it is set where the disk runs (the hypervisor or backend and the kernel), not by "
        f"the hardware preset. Such disks: {named}{planned}"
        + ", ".join(ref(kb, style, h, f"`{h}`") for h in presets)
        + ". The script and playbook `iosched advise` writes count the queues on the machine when they run.",
        *said,
        *(f"{ref(kb, style, a, a)}: {one_line(kb, kb.get(a))}" for a in advice),
    ]
    return join(lines[0], bullets(lines[1:]))


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
    head = join(FRONT_MATTER, f"# {TITLE}", GENERATED, intro, queue_rule(kb, g))
    return head + "\n" + _widget(kb, g) + "\n\n" + join("## Hardware presets", presets, "## Rules that choose", rules)
