"""The advisor page: choose hardware, workload and kernel era or distribution, read the whole plan.

Every plan is computed at build time (:mod:`iosched.sitegen.grid`) and written to a JSON asset beside the
page; ``site/assets/iosched.js`` fetches it from the same site and builds the answer with DOM text nodes, so
nothing from the KB is ever parsed as HTML. Strings, steps, warnings and plans are each stored once.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from iosched.escape import html_text
from iosched.knowledge.kinds import kind_of
from iosched.records.plan import Plan
from iosched.render import plan_json
from iosched.render.links import page_url
from iosched.render.reference import RISK_ADMONITION, RISK_LABEL, join
from iosched.sitegen import GENERATED
from iosched.sitegen.grid import Grid, grid
from iosched.sitegen.markup import choice_select, element, href, setting_select
from iosched.steps import kind_of as step_kind

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb

PAGE = "reference/advisor.md"
DATA = "reference/advisor.json"
TITLE = "Advisor"
FRONT_MATTER = "---\nhide:\n  - toc\n---"
OTHER_RISK = ("", "Other warnings", "warning")


class _Table:
    """Each distinct value once, by its JSON text; the caller keeps the index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, value: Any) -> int:
        return self.index.setdefault(json.dumps(value, ensure_ascii=False, separators=(",", ":")), len(self.index))

    def all(self, values: Iterable[Any]) -> list[int]:
        return [self(v) for v in values]

    def values(self) -> list[Any]:
        return [json.loads(text) for text in self.index]


class _Strings(_Table):
    """Each distinct string once, keyed by itself (as its JSON text would be, without writing that)."""

    def __call__(self, value: str) -> int:
        return self.index.setdefault(value, len(self.index))

    def values(self) -> list[Any]:
        return list(self.index)


PLAN_FIELDS = ("scheduler", "rules", "kernel", "path", "device", "steps", "warnings", "advice", "unchanged")
"""A plan in the JSON is a list in this order; steps and notices are indexes into their own tables."""


@dataclass
class _Tables:
    strings: _Table = field(default_factory=_Strings)
    steps: _Table = field(default_factory=_Table)
    notices: _Table = field(default_factory=_Table)
    plans: _Table = field(default_factory=_Table)

    def plan(self, kb: Kb, plan: Plan) -> int:
        """Store the parts of ``iosched advise --format json`` the page shows (that document is the contract), with
        each step's apply and undo as a person runs them by hand (:meth:`iosched.steps.StepKind.by_hand_pair`,
        as the Markdown plan): where the value now was assumed, the apply keeps what it finds and the undo
        writes that back; and whether the step is expected already (the page then says to check first)."""
        doc = plan_json.document(kb, plan)
        s = self.strings

        def nullable(text: str | None) -> int | None:
            return None if text is None else s(text)

        def notice(n: dict[str, Any]) -> int:
            return self.notices([s(n["id"]), s(n["risk"] or ""), s(n["text"]), s.all(n["sources"])])

        distro = kb.get(str(plan.context["distro"])) if plan.context.get("distro") else None
        steps = []
        for step, st in zip(plan.steps, doc["steps"], strict=True):
            apply, undo, _ = step_kind(step).by_hand_pair(step, distro)
            steps.append(
                self.steps(
                    [
                        s(st["title"]),
                        s(apply),
                        s(st["verify"]),
                        s(st["expect"]),
                        nullable(undo),
                        s.all(st["because"]),
                        s.all(st["sources"]),
                        int(step.expected_already),
                    ]
                )
            )
        unchanged = [[s(u["step"]["target"]), s(u["step"]["value"]), s.all(u["step"]["because"])]
                     for u in doc["unchanged"]]  # fmt: skip
        return self.plans([nullable(doc["scheduler"]), s.all(doc["scheduler_rules"]), s(doc["kernel"]),
                           s(doc["io_path"]), s(doc["device"]), steps, [notice(w) for w in doc["warnings"]],
                           [notice(a) for a in doc["advice"]], unchanged])  # fmt: skip


LINKED = ("rules", "caveats", "sources", "elevators")
"""The kinds of id a plan names that the page links to."""


def _label(entity: Any) -> str:
    """How a linked id reads: a rule with its name, an elevator by name, a source or caveat by its title."""
    slug = kind_of(entity).slug
    if slug == "rules":
        return f"{entity.id} {entity.name}"
    return str(entity.name if slug == "elevators" else getattr(entity, "title", None) or entity.id)


def data(kb: Kb, g: Grid) -> dict[str, Any]:
    """The advisor's JSON: tables of distinct strings, steps, notices and plans, which plan each choice shows
    (a negative number ``-1 - i``: the engine refused it, ``strings[i]`` says why), links to the KB pages."""
    tables = _Tables()
    shown = {
        setting.key: [
            [-1 - tables.strings(o) if isinstance(o := g.outcome(setting, hw.id, wl.id), str) else tables.plan(kb, o)
             for wl in g.workloads]
            for hw in g.hardware
        ]
        for setting in g.settings
    }  # fmt: skip
    strings = tables.strings.values()
    linked = {}
    for ident in strings:
        entity = kb.get(ident)
        if entity is not None and kind_of(entity).slug in LINKED:
            linked[ident] = [href(PAGE, entity), _label(entity)]
    risks = [[risk, label, RISK_ADMONITION[risk]] for risk, label in RISK_LABEL.items()]
    return {
        "strings": strings,
        "steps": tables.steps.values(),
        "notices": tables.notices.values(),
        "fields": list(PLAN_FIELDS),
        "plans": tables.plans.values(),
        "hardware": [h.id for h in g.hardware],
        "workloads": [w.id for w in g.workloads],
        "shown": shown,
        "links": linked,
        "risks": [*risks, list(OTHER_RISK)],
    }


def data_json(kb: Kb) -> str:
    return json.dumps(data(kb, grid(kb)), ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def _form(g: Grid) -> str:
    hardware = choice_select("ios-advisor-hw", "Hardware", ((h.id, f"{h.title} ({h.id})") for h in g.hardware))
    workloads = choice_select("ios-advisor-workload", "Workload", ((w.id, w.title) for w in g.workloads))
    controls = element("div", hardware + workloads + setting_select(g, "ios-advisor-setting"), class_="ios-controls")
    note = element("p", html_text(g.default.note if g.default else ""), class_="ios-note", data_ios_note=True)
    waiting = element("p", "Loading the plans…")
    result = element("div", waiting, class_="ios-result", data_ios_result=True, aria_live="polite")
    source = posixpath.relpath(DATA, page_url(PAGE))
    return element("div", controls + note + result, class_="ios-advisor", data_ios_advisor=True, data_src=source)


def page(kb: Kb) -> str:

    g = grid(kb)
    intro = (
        "Choose the hardware, the workload and a kernel era or distribution to read the plan `iosched advise` "
        "gives: the elevator, each step with the commands to apply, verify and undo it, and the warnings, by "
        "risk. Every plan was computed when this site was built; nothing is sent anywhere. For your own device "
        "run `iosched advise` itself: it also persists the settings and checks what it can. Links lead to the "
        "[rules](rules/index.md), [caveats](caveats.md) and [sources](sources.md); the "
        "[matrix](matrix.md) compares every combination at once."
    )
    head = join(FRONT_MATTER, f"# {TITLE}", GENERATED, intro)
    if not g.settings:
        return head + "\n_The KB has no hardware presets or workloads._\n"
    noscript = element("noscript", element("p", "The advisor needs JavaScript; the matrix does not."))
    return head + "\n" + _form(g) + "\n\n" + noscript + "\n"


def pages(kb: Kb) -> dict[str, str]:
    """The page and its JSON asset, keyed by path relative to the docs directory."""
    return {PAGE: page(kb), DATA: data_json(kb)}
