"""The advisor page: choose hardware, workload and kernel era or distribution, read the whole plan.

Every plan is computed at build time (:mod:`iosched.sitegen.grid`) and written to a JSON asset beside the
page; ``site/assets/iosched.js`` fetches it from the same site and builds the answer with DOM text nodes, so
nothing from the KB is ever parsed as HTML. Strings and identical plans are stored once.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable
from html import escape
from typing import Any

from iosched.kinds import kind_of
from iosched.plan import Plan
from iosched.render import plan_json
from iosched.render.links import page_url
from iosched.render.reference import RISK_ADMONITION, RISK_LABEL, join
from iosched.sitegen.grid import Grid, grid
from iosched.sitegen.markup import choice_select, element, href, setting_select

PAGE = "reference/advisor.md"
DATA = "reference/advisor.json"
TITLE = "Advisor"
FRONT_MATTER = "---\nhide:\n  - toc\n---"
OTHER_RISK = ("", "Other warnings", "warning")


class _Strings:
    """Each distinct string once; the plans hold indexes into the list."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        return self.index.setdefault(text, len(self.index))

    def all(self, texts: Iterable[str]) -> list[int]:
        return [self(t) for t in texts]


def _plan(kb: Any, plan: Plan, s: _Strings) -> dict[str, Any]:
    """The parts of ``iosched advise --format json`` the page shows (that document's schema is the contract)."""
    doc = plan_json.document(kb, plan)

    def nullable(text: str | None) -> int | None:
        return None if text is None else s(text)

    return {
        "scheduler": nullable(doc["scheduler"]),
        "rules": s.all(doc["scheduler_rules"]),
        "kernel": s(doc["kernel"]),
        "path": s(doc["io_path"]),
        "device": s(doc["device"]),
        "steps": [[s(st["title"]), s(st["command"]), s(st["verify"]), s(st["expect"]), nullable(st["undo"]),
                   s.all(st["because"]), s.all(st["sources"])] for st in doc["steps"]],
        "warnings": [[s(w["id"]), s(w["risk"] or ""), s(w["text"]), s.all(w["sources"])] for w in doc["warnings"]],
        "advice": [[s(a["id"]), s(a["text"])] for a in doc["advice"]],
        "unchanged": [[s(u["step"]["target"]), s(u["step"]["value"]), s.all(u["step"]["because"])]
                      for u in doc["unchanged"]],
    }  # fmt: skip


LINKED = ("rules", "caveats", "sources", "elevators")
"""The kinds of id a plan names that the page links to."""


def _label(entity: Any) -> str:
    """How a linked id reads: a rule with its name, an elevator by name, a source or caveat by its title."""
    slug = kind_of(entity).slug
    if slug == "rules":
        return f"{entity.id} {entity.name}"
    return entity.name if slug == "elevators" else getattr(entity, "title", None) or entity.id


def data(kb: Any, g: Grid) -> dict[str, Any]:
    """The advisor's JSON: string table, distinct plans, which plan each choice shows, links to the KB pages."""
    strings, plans, shown = _Strings(), {}, {}
    for setting in g.settings:
        rows = []
        for hw in g.hardware:
            row = []
            for wl in g.workloads:
                outcome = g.outcome(setting, hw.id, wl.id)
                if isinstance(outcome, str):
                    row.append(-1 - strings(outcome))
                    continue
                encoded = json.dumps(_plan(kb, outcome, strings), separators=(",", ":"))
                row.append(plans.setdefault(encoded, len(plans)))
            rows.append(row)
        shown[setting.key] = rows
    linked = {}
    for ident in strings.index:
        entity = kb.get(ident)
        if entity is not None and kind_of(entity).slug in LINKED:
            linked[ident] = [href(PAGE, entity), _label(entity)]
    risks = [[risk, label, RISK_ADMONITION[risk]] for risk, label in RISK_LABEL.items()]
    return {
        "strings": list(strings.index),
        "hardware": [h.id for h in g.hardware],
        "workloads": [w.id for w in g.workloads],
        "plans": [json.loads(p) for p in plans],
        "shown": shown,
        "links": linked,
        "risks": [*risks, list(OTHER_RISK)],
    }


def data_json(kb: Any) -> str:
    return json.dumps(data(kb, grid(kb)), ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def _form(g: Grid) -> str:
    hardware = choice_select("ios-advisor-hw", "Hardware", ((h.id, f"{h.title} ({h.id})") for h in g.hardware))
    workloads = choice_select("ios-advisor-workload", "Workload", ((w.id, w.title) for w in g.workloads))
    controls = element("div", hardware + workloads + setting_select(g, "ios-advisor-setting"), class_="ios-controls")
    note = element("p", escape(g.default.note if g.default else ""), class_="ios-note", data_ios_note=True)
    waiting = element("p", "Loading the plans…")
    result = element("div", waiting, class_="ios-result", data_ios_result=True, aria_live="polite")
    source = posixpath.relpath(DATA, page_url(PAGE))
    return element("div", controls + note + result, class_="ios-advisor", data_ios_advisor=True, data_src=source)


def page(kb: Any) -> str:
    from iosched.sitegen.pages import GENERATED

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


def pages(kb: Any) -> dict[str, str]:
    """The page and its JSON asset, keyed by path relative to the docs directory."""
    return {PAGE: page(kb), DATA: data_json(kb)}
