"""The output formats of every kind of document a command writes, registered in one place.

A command names the document (one device's plan, a host's plans, a diagnosis, a fleet ...) and the format the
user asked for; the registry gives the text, and its names are the command's ``--format`` choices. Each
renderer module is imported only when its format is asked for, so a command pays for the one format it writes.
A ``markdown`` format is Markdown source, which the command line shows through rich on a terminal (``text``)
and writes as it is elsewhere; every other format is written byte-exact, or as the :class:`Rendered` says
(encoded pieces, a tree of files).

Every format names the command that gives a plan again, and it runs as written (:mod:`iosched.render.reproduce`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from iosched.hints import Generic, TypeVar
from iosched.render.reproduce import advise_command
from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.knowledge.base import Kb
    from iosched.planning.hostplan import HostPlan, Verification
    from iosched.records.plan import Plan
    from iosched.render.documents import Checked, Compared, Diagnosed, FleetPlans, Probed

K = TypeVar("K")
D = TypeVar("D")


class Options(Struct):
    """What a command says about its output beyond the format."""

    site_url: str | None = None
    """The public site that links point to (``--site-url``, ``$IOSCHED_SITE_URL``); None: plain ids."""
    host: str | None = None
    """The inventory host a playbook targets; None: every host."""
    reproduce: str | None = None
    """The command that gives a plan again (None: from its context); a host's plans carry their own."""
    detail: str = "answer"
    """Markdown and text: ``answer`` (the ticket answer, :mod:`iosched.planning.answer`) or ``full`` (every device's
    plan with its context, rules that did not apply and every file whole)."""
    terminal: int | None = None
    """The columns of the terminal the output goes to; None: a pipe or a file."""
    encoding: str = "utf-8"
    """The encoding (and its ``errors``) of the output, for a format written as encoded pieces."""
    errors: str = "strict"


class Rendered(Struct):
    text: str = ""
    markdown: bool = False
    """Markdown source, shown through rich on a terminal by the ``text`` format."""
    pieces: Iterable[bytes] | None = None
    """Text already encoded in :attr:`Options.encoding`, written as it comes (a fleet's JSON): not ``text``."""
    files: Iterable[tuple[str, str]] | None = None
    """``(path, text)`` of a tree of files (a fleet's playbook), not ``text``; every name and value is checked
    before the first is given."""
    notes: tuple[str, ...] = ()
    """What the user is told beside the output (on standard error): what it leaves out, each a line with
    every value from an input escaped (:func:`iosched.escape.untrusted`)."""


Renderer = Callable[[K, D, Options], "str | Rendered"]


class Formats(Generic[K, D]):
    """The formats of one kind of document, in the order ``--format`` lists them. A renderer is given the KB
    the document is read against (``K``; None for a document that needs none), the document and the options."""

    def __init__(self, document: str) -> None:
        self.document = document
        self._by_name: dict[str, tuple[Renderer[K, D], bool]] = {}

    def register(self, name: str, *, markdown: bool = False) -> Callable[[Renderer[K, D]], Renderer[K, D]]:
        def add(render: Renderer[K, D]) -> Renderer[K, D]:
            self._by_name[name] = (render, markdown)
            return render

        return add

    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def render(self, kb: K, document: D, fmt: str, options: Options) -> Rendered:
        """``document`` in format ``fmt``; KeyError for a format this kind of document does not have."""
        render, markdown = self._by_name[fmt]
        text = render(kb, document, options)
        return Rendered(text=text, markdown=markdown) if isinstance(text, str) else text


PLAN: Formats[Kb, Plan] = Formats("plan")
"""One device's plan (``iosched advise``)."""
HOST: Formats[Kb, HostPlan] = Formats("host")
"""The plans for every device of an observed host (``iosched advise --probe/--root``)."""
VERIFY: Formats[Kb, Verification] = Formats("verify")
"""What a host has against what its plans want (``iosched verify``)."""
FLEET: Formats[Kb, FleetPlans] = Formats("fleet")
"""The plans of many hosts (``iosched fleet``)."""
DIAGNOSIS: Formats[Kb, Diagnosed] = Formats("diagnosis")
"""Causes with their evidence and plans (``iosched diagnose``)."""
PROBE: Formats[Kb, Probed] = Formats("probe")
"""A host as read (``iosched probe``)."""
LISTING: Formats[Kb, str] = Formats("listing")
"""The KB entries of one kind, named by its slug (``iosched list``)."""
ENTRY: Formats[Kb, Any] = Formats("entry")
"""One KB entry (``iosched explain ID``)."""
CODE: Formats[None, str] = Formats("code")
"""A ``kb check`` diagnostic code (``iosched explain KB101``): read without the KB, which may be the broken one."""
COMPARISON: Formats[Kb, Compared] = Formats("comparison")
"""Schedulers judged from benchmark results (``iosched compare``)."""
KB_CHECK: Formats[Kb, Checked] = Formats("kb check")
"""The problems of a KB (``iosched kb check``)."""
KB_EXPORT: Formats[Kb, None] = Formats("kb export")
"""The whole KB as one document (``iosched kb export``)."""


def _reproduce(plan: Plan, options: Options) -> str:
    """The command the output names to give ``plan`` again: the caller's, else ``advise`` with its context."""
    return options.reproduce if options.reproduce is not None else advise_command(plan.context)


@PLAN.register("markdown", markdown=True)
@PLAN.register("text", markdown=True)
def _plan_markdown(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.reference import cli_style

    if options.detail == "full":
        from iosched.render.plan_markdown import render

        return render(kb, plan, cli_style(options.site_url, kb.version), options.reproduce)
    from iosched.planning import answer
    from iosched.render import answer_markdown

    found = answer.of_plan(kb, plan, _reproduce(plan, options))
    return answer_markdown.render(kb, found, cli_style(options.site_url, kb.version))


@PLAN.register("json")
def _plan_json(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.plan_json import render

    return render(kb, plan, options.reproduce)


@PLAN.register("sh")
def _plan_sh(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.plan_shell import render

    return render(kb, plan, reproduce=options.reproduce)


@PLAN.register("ansible")
def _plan_ansible(kb: Kb, plan: Plan, options: Options) -> str:
    from iosched.render.plan_ansible import EVERY_HOST, render

    return render(kb, [(options.host or EVERY_HOST, [plan])], _reproduce(plan, options))


@HOST.register("markdown", markdown=True)
@HOST.register("text", markdown=True)
def _host_markdown(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.reference import cli_style

    if options.detail == "full":
        from iosched.render.plan_markdown import render_host

        return render_host(kb, host.summarised(), cli_style(options.site_url, kb.version))
    from iosched.planning import answer
    from iosched.render import answer_markdown

    return answer_markdown.render(kb, answer.of_host(kb, host.summarised()), cli_style(options.site_url, kb.version))


@HOST.register("json")
def _host_json(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.plan_json import render_host

    return render_host(kb, host)


@HOST.register("sh")
def _host_sh(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.plan_shell import render

    host = host.summarised()
    return render(kb, host.plans, [(s.device, s.reason) for s in host.skipped], host.reproduce)


@HOST.register("ansible")
def _host_ansible(kb: Kb, host: HostPlan, options: Options) -> str:
    from iosched.render.plan_ansible import EVERY_HOST, render

    return render(kb, [(options.host or EVERY_HOST, host.plans)], host.reproduce)


@VERIFY.register("markdown", markdown=True)
@VERIFY.register("text", markdown=True)
def _verify_markdown(kb: Kb, report: Verification, options: Options) -> str:
    from iosched.render.verify_report import render_markdown

    return render_markdown(report)


@VERIFY.register("json")
def _verify_json(kb: Kb, report: Verification, options: Options) -> str:
    from iosched.render.verify_report import render_json

    return render_json(report)


@FLEET.register("text", markdown=True)
@FLEET.register("markdown", markdown=True)
def _fleet_markdown(kb: Kb, fleet: FleetPlans, options: Options) -> str:
    from iosched.render.fleet_markdown import render

    return render(fleet.hosts, fleet.sets, fleet.summary)


@FLEET.register("json")
def _fleet_json(kb: Kb, fleet: FleetPlans, options: Options) -> Rendered:
    from iosched.render.fleet_json import lines

    return Rendered(pieces=lines(fleet.hosts, fleet.sets, fleet.summary, options.encoding, options.errors))


@FLEET.register("jsonl")
def _fleet_jsonl(kb: Kb, fleet: FleetPlans, options: Options) -> Rendered:
    from iosched.render.fleet_json import records

    return Rendered(pieces=records(fleet.hosts, fleet.sets, fleet.summary, options.encoding, options.errors))


@FLEET.register("ansible")
def _fleet_ansible(kb: Kb, fleet: FleetPlans, options: Options) -> Rendered:
    from iosched.escape import untrusted
    from iosched.planning.fleetplan import targetable
    from iosched.render.ansible_role import tree

    hosts = [targetable(h) for h in fleet.hosts]
    left = tuple(
        f"{untrusted(h.name, 80)}: not in the playbook: {untrusted(h.error)}" for h in hosts if h.plans is None
    )
    files = tree(kb, ((h.name, h.plans, fleet.sets[h.plans].plans, h.ids) for h in hosts if h.plans is not None))
    return Rendered(files=files, notes=left)


def _diagnosis_markdown(kb: Kb, found: Diagnosed, options: Options, charts: bool) -> str:
    from iosched.planning import answer
    from iosched.render import answer_markdown
    from iosched.render.diagnosis_markdown import render_markdown
    from iosched.render.reference import cli_style

    style = cli_style(options.site_url, kb.version)
    plans = {device: plan if isinstance(plan, str) else answer_markdown.render(
        kb, answer.of_plan(kb, plan, advise_command(plan.context)), style, level=4)
        for device, plan in found.plans.items()}  # fmt: skip
    return render_markdown(kb, found.observed, found.diagnoses, plans, charts, style)


@DIAGNOSIS.register("text", markdown=True)
def _diagnosis_text(kb: Kb, found: Diagnosed, options: Options) -> str:
    return _diagnosis_markdown(kb, found, options, charts=False)  # a terminal shows the numbers


@DIAGNOSIS.register("markdown", markdown=True)
def _diagnosis_charted(kb: Kb, found: Diagnosed, options: Options) -> str:
    return _diagnosis_markdown(kb, found, options, charts=True)  # a ticket and the site show the chart


@DIAGNOSIS.register("json")
def _diagnosis_json(kb: Kb, found: Diagnosed, options: Options) -> str:
    from iosched.render.diagnosis_markdown import render_json
    from iosched.render.plan_json import document

    plans = {device: plan if isinstance(plan, str) else document(kb, plan) for device, plan in found.plans.items()}
    return render_json(found.observed, found.diagnoses, plans)


@PROBE.register("text")
def _probe_text(kb: Kb, probed: Probed, options: Options) -> str:
    from iosched.render.probe_text import render

    return render(probed.system, probed.layout, options.terminal)


@PROBE.register("json")
def _probe_json(kb: Kb, probed: Probed, options: Options) -> str:
    import json

    from iosched.observe.probejson import to_document

    return json.dumps(to_document(probed.system), indent=2, ensure_ascii=True)


@PROBE.register("yaml")
def _probe_yaml(kb: Kb, probed: Probed, options: Options) -> str:
    import json

    import yaml

    from iosched.observe.probejson import to_document

    plain = json.loads(json.dumps(to_document(probed.system)))
    text: str = yaml.safe_dump(plain, sort_keys=False, allow_unicode=False, width=120)
    return text


@LISTING.register("text", markdown=True)
@LISTING.register("markdown", markdown=True)
def _listing_markdown(kb: Kb, kind: str, options: Options) -> str:
    from iosched.render.reference import cli_style, list_table

    return list_table(kb, kind, cli_style(options.site_url, kb.version))


@LISTING.register("json")
def _listing_json(kb: Kb, kind: str, options: Options) -> str:
    from iosched.jsontext import dumps

    return dumps([entry_document(e, options.site_url, kb.version) for e in kb.entities(kind)])


def entry_document(entity: Any, base: str | None, version: str = "") -> dict[str, Any]:
    """One KB entry as ``explain --format json`` shows it (and ``list`` each of its entries), with its address
    on the site at ``base``."""
    from iosched.knowledge.base import TunableRef
    from iosched.knowledge.export import export_entity, plain
    from iosched.render.links import absolute

    if isinstance(entity, TunableRef):
        return {
            "id": entity.id,
            "elevator": entity.elevator.name,
            **plain(entity.tunable),
            "url": absolute(entity, base, version),
        }
    return {**export_entity(entity), "url": absolute(entity, base, version)}


@ENTRY.register("text", markdown=True)
@ENTRY.register("markdown", markdown=True)
def _entry_markdown(kb: Kb, entity: Any, options: Options) -> str:
    from iosched.render.reference import cli_style, render

    return render(kb, entity, cli_style(options.site_url, kb.version))


@ENTRY.register("json")
def _entry_json(kb: Kb, entity: Any, options: Options) -> str:
    from iosched.jsontext import dumps

    return dumps(entry_document(entity, options.site_url, kb.version))


@CODE.register("text", markdown=True)
@CODE.register("markdown", markdown=True)
def _code_markdown(kb: None, code: str, options: Options) -> str:
    from iosched.render.reference import diagnostic_code

    return diagnostic_code(code)


@CODE.register("json")
def _code_json(kb: None, code: str, options: Options) -> str:
    from iosched.diagnostics import CODES
    from iosched.jsontext import dumps

    return dumps({"id": code, "kind": "kb check code", "summary": CODES[code]})


@COMPARISON.register("text")
def _comparison_text(kb: Kb, compared: Compared, options: Options) -> Rendered:
    from iosched.render import verdict

    if options.terminal is not None:  # on a terminal, the Markdown is shown
        return Rendered(text=verdict.markdown(compared.judgement, compared.tally, everything=compared.everything),
                        markdown=True)  # fmt: skip
    return Rendered(text=verdict.text(compared.judgement, compared.tally, everything=compared.everything))


@COMPARISON.register("markdown", markdown=True)
def _comparison_markdown(kb: Kb, compared: Compared, options: Options) -> str:
    from iosched.render import verdict

    return verdict.markdown(compared.judgement, compared.tally, everything=compared.everything)


@COMPARISON.register("json")
def _comparison_json(kb: Kb, compared: Compared, options: Options) -> str:
    import json

    doc = compared.judgement.to_json()
    if (tally := compared.tally) is not None:
        doc["points"] = {"totals": tally.totals, "winner": tally.winner, "awards": tally.awards,
                         "inside_noise": tally.inside_noise}  # fmt: skip
    return json.dumps(doc, indent=2)


@KB_CHECK.register("text")
def _check_text(kb: Kb, checked: Checked, options: Options) -> str:
    status = "ok" if not checked.diagnostics else f"{len(checked.diagnostics)} problem(s)"
    return "\n".join([*map(str, checked.diagnostics), f"{checked.where}: {checked.entries} entries, {status}"])


@KB_CHECK.register("json")
def _check_json(kb: Kb, checked: Checked, options: Options) -> str:
    import json

    return json.dumps([{"code": d.code, "file": d.file, "line": d.line, "message": d.message}
                       for d in checked.diagnostics], indent=2)  # fmt: skip


@KB_EXPORT.register("json")
def _export_json(kb: Kb, document: None, options: Options) -> str:
    import json

    from iosched.knowledge.export import export_kb

    return json.dumps(export_kb(kb), indent=2, ensure_ascii=False)
