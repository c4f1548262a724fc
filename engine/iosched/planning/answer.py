"""The answer about a host or a device, between its plans and the renderers a person reads (Markdown, text, the
JSON's ``answer``): one headline (what was found, what to do, the one risk that matters), the device table, the
steps of the devices that change, each warning once with the devices it concerns, and the sources of what is
shown, once, each one a customer can open. The plans keep every detail (``--detail full``, the JSON's plans).

Pure: it takes plans and returns data; the renderers escape.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from iosched.knowledge.base import Kb
from iosched.knowledge.schema import Caveat
from iosched.records.plan import Assumption, Notice, Plan, Step, host_steps
from iosched.struct import Struct
from iosched.vocab import RISKS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.planning.hostplan import HostPlan

VENDOR_FAMILIES: dict[str, frozenset[str]] = {
    "Red Hat": frozenset({"rhel", "fedora"}),
    "Fedora Project": frozenset({"fedora"}),
    "SUSE": frozenset({"sles", "opensuse"}),
    "Canonical": frozenset({"ubuntu"}),
    "Debian": frozenset({"debian", "ubuntu"}),
}
"""The distribution families each distribution vendor's guides are about: an answer about a host of another
family does not cite them (a RHEL guide in an Ubuntu answer), unless a warning would be left without a source."""


class Concern(Struct):
    """A warning or a piece of advice said once, with the devices it concerns (empty: the host)."""

    id: str
    severity: str
    title: str
    """What it is about in one line: a caveat's title, a rule's summary."""
    text: str
    devices: tuple[str, ...]
    risk: str | None = None
    details: tuple[str, ...] = ()
    """What is about one device alone (``sda: the udev rule ... sets deadline``), one entry per device."""
    sources: tuple[str, ...] = ()


class Row(Struct):
    """A device in the answer's table: its scheduler now, the one recommended, why, and how many steps."""

    device: str
    now: str
    recommended: str
    why: str
    changes: int


class Answer(Struct):
    """What a person reads first about a host (or a single device's plan)."""

    title: str
    about: str
    headline: str
    risk: str | None
    reproduce: str
    rows: tuple[Row, ...]
    skipped: tuple[tuple[tuple[str, ...], str], ...]
    """Devices not planned, grouped by reason: (device names, reason)."""
    plans: tuple[Plan, ...]
    """The plans with steps, in table order."""
    steps: tuple[Step, ...]
    """Every step once, in plan order (a host-wide step, a sysctl or a mount option, comes from several plans)."""
    measured: tuple[str, ...]
    """What the user's benchmark results say (``--results``), once."""
    warnings: tuple[Concern, ...]
    advice: tuple[Concern, ...]
    assumptions: tuple[Assumption, ...]
    sources: tuple[str, ...]
    footer: str

    def to_json(self) -> dict[str, Any]:
        from iosched.records.plan import plain

        data: dict[str, Any] = plain(self)
        data["plans"] = [p.device for p in self.plans]
        data["steps"] = [{"device": s.device, "target": s.target, "value": s.value} for s in self.steps]
        data["skipped"] = [{"devices": d, "reason": r} for d, r in self.skipped]
        data["assumptions"] = [{"fact": a.fact, "value": a.value, "text": a.text} for a in self.assumptions]
        return data


def of_host(kb: Kb, host: HostPlan) -> Answer:
    """The answer about an observed host: every planned device and what was skipped."""
    facts = host.host
    name = str(facts.get("hostname") or host.source or "host")
    virt = facts.get("virtualization")
    about = (f"Kernel {facts.get('kernel') or '?'}, distribution {facts.get('distro') or 'not in the KB'}"
             + (f", {virt} guest" if virt and virt != "none" else ""))  # fmt: skip
    answer = _answer(kb, name, about, host.plans, [(s.device, s.reason) for s in host.skipped], host.reproduce)
    if assumed := facts.get("distro_assumed"):  # a release the KB does not list, planned as its nearest
        nearest = Assumption(fact="distro", value=str(facts.get("distro")), text=str(assumed))
        answer = answer.replace(assumptions=(nearest, *answer.assumptions))
    return answer


def of_plan(kb: Kb, plan: Plan, reproduce: str) -> Answer:
    """The answer about one device's plan (from flags, a context file or an example)."""
    distro = plan.context.get("distro")
    assumed = {a.fact for a in plan.assumptions}
    about = ", ".join(f"{text} (assumed)" if fact in assumed else text for fact, text in (
        ("kernel", f"kernel {plan.kernel}"), ("io_path", f"{plan.io_path} path"),
        ("distro", f"distribution {distro or 'not given'}"), ("device", "device name")) if fact != "device"
        or fact in assumed)  # fmt: skip
    return _answer(kb, plan.device, about[0].upper() + about[1:], (plan,), [], reproduce)


def _answer(kb: Kb, title: str, about: str, plans: Sequence[Plan], skipped: Iterable[tuple[str, str]],
            reproduce: str) -> Answer:  # fmt: skip
    warnings = _concerns(kb, [(p.device, w) for p in plans for w in p.warnings])
    advice = _concerns(kb, [(p.device, a) for p in plans for a in p.advice])
    if len(plans) == 1:  # one device: naming it beside every warning says nothing
        warnings = tuple(w.replace(devices=()) for w in warnings)
        advice = tuple(a.replace(devices=()) for a in advice)
    family = _family(kb, plans)
    cited = [s for p in plans for step in p.steps for s in _customer_sources(kb, step.sources, family)]
    for concern in (*warnings, *advice):
        cited += _customer_sources(kb, concern.sources, family)
    return Answer(
        title=title, about=about, headline=_headline(plans), risk=_risk(warnings), reproduce=reproduce,
        rows=tuple(_row(p) for p in plans), skipped=_grouped(skipped),
        plans=tuple(p for p in plans if p.steps), steps=_ordered(host_steps(plans)),
        measured=tuple(dict.fromkeys(m for p in plans for m in p.measured)), warnings=warnings, advice=advice,
        assumptions=_assumptions(plans), sources=tuple(dict.fromkeys(s for s in cited if public(kb, s))),
        footer=_footer(plans),
    )  # fmt: skip


def _ordered(steps: Sequence[Step]) -> tuple[Step, ...]:
    """Each device's steps, in the order of its plan, then the host's."""
    return (*(s for s in steps if s.device is not None), *(s for s in steps if s.device is None))


def public(kb: Kb, ident: str) -> bool:
    """Whether a customer can open a source: it has a public address (the project's own observations, kept in
    the KB and on the site's evidence pages, have none)."""
    source = kb.get(ident)
    return source is not None and bool(getattr(source, "url", None))


def _family(kb: Kb, plans: Sequence[Plan]) -> str | None:
    distro = next((p.context.get("distro") for p in plans if p.context.get("distro")), None)
    found = kb.get(str(distro)) if distro else None
    return getattr(found, "family", None)


def _customer_sources(kb: Kb, sources: Sequence[str], family: str | None) -> list[str]:
    """A warning's sources that concern this host: public ones, without another family's vendor guides (all of
    them where that would leave none)."""
    shown = [s for s in sources if public(kb, s)]
    if family is None:
        return shown
    ours = [s for s in shown if family in VENDOR_FAMILIES.get(str(getattr(kb.get(s), "publisher", "")), {family})]
    return ours or shown


def _concerns(kb: Kb, notices: Sequence[tuple[str, Notice]]) -> tuple[Concern, ...]:
    """Each notice once, in the order first met (data-loss first: the plans are ordered so), with its devices."""
    found: dict[str, Concern] = {}
    for device, notice in notices:
        seen = found.get(notice.id)
        detail = (notice.detail,) if notice.detail else ()
        if seen is None:
            entity = kb.get(notice.id)
            title = str(getattr(entity, "title", None) or getattr(entity, "summary", None) or notice.text)
            found[notice.id] = Concern(id=notice.id, severity=notice.severity, title=title, text=_short(kb, notice),
                                       devices=(device,), risk=notice.risk, details=detail,
                                       sources=notice.sources)  # fmt: skip
        else:
            found[notice.id] = seen.replace(devices=(*seen.devices, device), details=(*seen.details, *detail),
                                            sources=tuple(dict.fromkeys((*seen.sources, *notice.sources))))  # fmt: skip
    order: dict[str, int] = {risk: n for n, risk in enumerate(RISKS)}
    return tuple(sorted(found.values(), key=lambda c: order.get(c.risk or "", len(order))))


def _short(kb: Kb, notice: Notice) -> str:
    """A notice as a ticket says it: a KB caveat by its title and summary (its page has the rest), else its text."""
    caveat = kb.get(notice.id)
    if isinstance(caveat, Caveat):
        return f"{caveat.title}: {caveat.summary or caveat.text}"
    return notice.text


def _risk(warnings: Sequence[Concern]) -> str | None:
    """The one risk that matters: the most severe warning's (data-loss, then availability), if any is beyond
    performance."""
    worst = next((w for w in warnings if w.risk in RISKS[:-1]), None)  # beyond performance
    return f"{worst.risk}: {worst.title} ({worst.id})" if worst else None


def changing(step: Step) -> bool:
    """A step that changes what was read or assumed (not one that only checks a value expected already)."""
    return not step.expected_already


def _headline(plans: Sequence[Plan]) -> str:
    steps = host_steps(plans)
    changes = [s for s in steps if changing(s)]
    checks = [s for s in steps if not changing(s)]
    count = f"{len(plans)} device{'s' if len(plans) != 1 else ''} planned"
    if not plans:
        return "No device to plan."
    if not changes and not checks:
        return f"Nothing to change: {count}, each already as recommended."
    if not changes:
        return (f"Nothing to change if the checks below show the values expected ({count}; the current values "
                "were assumed, not read).")  # fmt: skip
    shown = [f"{s.device or 'host'} {s.target} {s.previous or '?'} -> {s.shown}" for s in changes[:3]]
    more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
    devices = len({p.device for p in plans if any(changing(s) for s in p.steps)})
    return f"Change {devices} of {len(plans)} device{'s' if len(plans) != 1 else ''}: {'; '.join(shown)}{more}."


def _row(plan: Plan) -> Row:
    now = plan.previous_scheduler or "none"
    decided = next((s.shown for s in plan.steps if s.decide is not None), None)
    wanted = decided or plan.scheduler or now
    expected = any(s.kind == "scheduler" and s.expected_already for s in plan.steps)
    same = "(check: assumed)" if expected else "(already)"
    return Row(device=plan.device, now=now, recommended=wanted if wanted != now else f"{wanted} {same}",
               why=", ".join(plan.scheduler_rules) or "no rule applies", changes=len(plan.steps))  # fmt: skip


def _grouped(skipped: Iterable[tuple[str, str]]) -> tuple[tuple[tuple[str, ...], str], ...]:
    by_reason: dict[str, list[str]] = {}
    for device, reason in skipped:
        by_reason.setdefault(reason, []).append(device)
    return tuple((tuple(devices), reason) for reason, devices in by_reason.items())


SHOWN_ELSEWHERE = frozenset({"kernel", "io_path", "device"})
"""Assumptions the answer's title shows (marked assumed there); a current value assumed (``*.now``) is what
its check first says."""


def _assumptions(plans: Sequence[Plan]) -> tuple[Assumption, ...]:
    """Each assumption once (host-wide ones, workload and cache, are the same in every plan), but for those the
    title and the checks show."""
    found: dict[tuple[str, str], Assumption] = {}
    for plan in plans:
        for a in plan.assumptions:
            if a.fact not in SHOWN_ELSEWHERE and not a.fact.endswith(".now"):
                found.setdefault((a.fact, a.value), a)
    return tuple(found.values())


def _footer(plans: Sequence[Plan]) -> str:
    first = plans[0] if plans else None
    fired = dict.fromkeys(r for p in plans for r in p.fired)
    version = f"iosched {first.iosched_version}, KB {first.kb_version}" if first else "iosched"
    return f"{version}. Rules fired: {', '.join(fired) or 'none'}."
