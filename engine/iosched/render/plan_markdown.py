"""A plan as Markdown: the answer a support desk pastes into a ticket, summary first.

Order: the checks to run first where the plan assumed a value it did not read (what the machine should show, and
which step to follow if it shows something else), what changes and why (a table), warnings by risk, the steps with
commands to apply, persist, verify and undo, the files that persist them, then what was considered and not done,
assumptions and sources by title. Links go to the configured public site only; with none configured, ids stay
plain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from iosched.escape import code_block, code_span, markdown_cell, markdown_text, one_line
from iosched.knowledge.base import Kb
from iosched.knowledge.schema import Caveat
from iosched.mechanisms import fstab
from iosched.persist import commands, files, kept_by, split
from iosched.planning.answer import public
from iosched.records.plan import Decision, Notice, Plan, Step
from iosched.records.runtime import KEEP
from iosched.render.reference import Style, cli_style, ref
from iosched.render.reproduce import advise_command
from iosched.steps import kind_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.planning.hostplan import HostPlan

PERSISTED_BY_FILE = ("udev-rule", "sysctl-d", "tuned-profile")


def _notice(kb: Kb, style: Style, notice: Notice) -> str:
    risk = f" ({notice.risk})" if notice.risk else ""
    caveat = kb.get(notice.id)
    text = notice.text
    if isinstance(caveat, Caveat) and caveat.summary and text == f"{caveat.title}: {caveat.text}":
        text = f"{caveat.title}: {caveat.summary}"  # the caveat's page has the rest
    return f"- **{notice.severity}** {ref(kb, style, notice.id)}{risk}: {markdown_text(one_line(text))}"


def source_line(kb: Kb, ident: str) -> str:
    """A source by its title, with its public URL when it has one (never a repository path)."""
    source = kb.get(ident)
    if source is None:
        return code_span(ident)
    title = markdown_text(one_line(source.title))
    return f"[{title}]({source.url})" if source.url else title


def _cases(decision: Decision) -> str:
    """``one entry: `mq-deadline` (IOS119); several: `none` (IOS105)``."""
    return "; ".join(f"{markdown_text(c.seen)}: "
                     + (f"{code_span(c.value)} ({markdown_text(', '.join(c.because))})" if c.value != KEEP
                        else "leave it as it is") for c in decision.choices)  # fmt: skip


def _decided_commands(step: Step, decision: Decision, distro: Any) -> list[str]:
    """The commands of each case of a step decided on the machine, after the check that tells them apart."""
    lines = [f"Check first: {code_span(decision.reader)} — {_cases(decision)}.", ""]
    for choice in decision.choices:
        if choice.value != KEEP:
            lines += [f"**{markdown_text(choice.seen.capitalize())}:**", ""]
            lines += _commands(step.replace(value=choice.value, decide=None), distro)
    return lines


def _commands(step: Step, distro: Any) -> list[str]:
    if step.decide is not None:
        return _decided_commands(step, step.decide, distro)
    kind = kind_of(step)
    apply, undo, found = kind.by_hand_pair(step, distro)
    lines = ["Apply now:" if kind.runtime else "Apply (takes effect as noted below):", "", code_block(apply, "sh"), ""]
    if step.persist_method in PERSISTED_BY_FILE:
        lines += [f"Persist: the file under *Persistent files* below ({step.persist_method}).", ""]
    elif step.persist_method == "fstab" and step.previous:
        edit = fstab.replace(step, step.previous, step.value)
        lines += [f"Persist in {code_span(fstab.FILE)}:", "", code_block(edit, "sh"), ""]
    lines += [f"Verify (expect {code_span(kind.expect(step))}):", "", code_block(kind.verify(step), "sh"), ""]
    if undo is not None:
        if found:
            previous = ": back to the value the apply found (`$was`)"
        else:
            previous = f" (back to {code_span(step.previous)})" if step.previous else ""
        lines += [f"Undo{previous}:", "", code_block(undo, "sh"), ""]
    return lines


def _with_value(step: Step, value: str) -> Step:
    return Step.build({**dict(step.fields()), "value": value})


def _only_expected(steps: Sequence[Step]) -> bool:
    """Whether a persistent file keeps ``steps`` and each is one the devices are expected to have already."""
    return bool(steps) and all(s.expected_already for s in steps)


def _files_section(plans: Sequence[Plan], persisted: Mapping[str, str]) -> list[str]:
    """Each file (path: content) that ``plans`` persist in: its content, how to install it, check it is in effect
    and remove it."""
    lines = []
    kept = kept_by(plans)
    for path, content in persisted.items():
        install, check, remove = commands(plans, path, content)
        lines += [f"{code_span(path)}:", "", code_block(content, "text"), ""]
        if _only_expected(kept.get(path, [])):
            lines += ["Needed only where a check above showed something else: it keeps what the device "
                      "is expected to have already.", ""]  # fmt: skip
        lines += ["Install it:", "", code_block(install, "sh"), ""]
        if check is not None:
            lines += ["Check it is in effect:", "", code_block(check, "sh"), ""]
        lines += ["Remove it (undo):", "", code_block(remove, "sh"), ""]
    return lines


def check_first(plan: Plan) -> list[str]:
    """The section a ticket leads with when the plan assumed values it did not read: each check the customer
    runs, what it should show, and which step to follow if it shows something else."""
    checks = check_lines(list(enumerate(plan.steps, 1)))
    if not checks:
        return []
    return ["## Check first", "",
            "These values were assumed, not read from the machine. Run each check first: it says which steps "
            "below are needed.",
            "", *checks, ""]  # fmt: skip


def check_lines(numbered: list[tuple[int, Step]]) -> list[str]:
    """One line per numbered step whose current value was assumed: the check, what it should show, and when to
    follow the step."""
    lines = []
    for n, step in numbered:
        kind = kind_of(step)
        if step.current_from != "assumed" or step.previous is None or not kind.runtime:
            continue
        check = code_span(kind.verify(step))
        if step.decide is not None:
            lines.append(f"- {code_span(step.decide.reader)} — {_cases(step.decide)}: then follow step {n} with that "
                         f"elevator ({check} shows the one in place)")  # fmt: skip
        elif step.expected_already:
            lines.append(f"- {check}: expect {code_span(kind.expect(step))}: then nothing needs to change; "
                         f"if it shows something else, follow step {n} ({markdown_text(step.title)})")  # fmt: skip
        else:
            was = code_span(kind.expect(_with_value(step, step.previous or "")))
            lines.append(f"- {check}: assumed {was}; if it already shows {code_span(kind.expect(step))}, step {n} is "
                         "not needed; else follow step "
                         f"{n} ({markdown_text(step.title)}): its apply keeps what it finds for its undo")  # fmt: skip
    return lines


def _step(kb: Kb, style: Style, n: int, step: Step, distro: Any) -> list[str]:
    label = "" if step.severity == "recommend" else " (consider: apply only after checking)"
    if step.expected_already:
        label += " (only if the check above shows otherwise)"
    lines = [f"### {n}. {markdown_text(step.title)}{label}", ""]
    for rule, reason in zip(step.because, step.reasons, strict=True):
        lines.append(f"- {ref(kb, style, rule)}: {markdown_text(one_line(reason))}")
    if step.confirm:
        lines.append(f"- Confirm it helps: {markdown_text(one_line(step.confirm))}")
    lines.append("")
    lines += _commands(step, distro)
    for alternative in step.alternatives:
        label, _, command = alternative.partition(": ")
        lines += [f"Alternative, {markdown_text(label)}:", "", code_block(command, "sh"), ""]
    return lines


def _now(step: Step) -> str:
    if step.previous is None:
        return "?"
    return f"{step.previous} (assumed)" if step.current_from == "assumed" else step.previous


def _recommended(step: Step) -> str:
    return f"{step.value} (check)" if step.expected_already else step.shown


def summary(plan: Plan) -> list[str]:
    """The table a reader sees first: every setting the plan touches, now and recommended."""
    rows = [(s.device or "host", s.target, _now(s), _recommended(s), ", ".join(s.because)) for s in plan.steps]
    rows += [(u.step.device or "host", u.step.target, u.step.value, f"{u.step.value} (already)",
              ", ".join(u.step.because)) for u in plan.unchanged]  # fmt: skip
    if not rows:
        return ["No change: no rule applies to this device.", ""]
    lines = ["| device | setting | now | recommended | why |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(markdown_cell(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def _kept_why(plan: Plan) -> str:
    """Why the device has the scheduler it keeps: read from it, or the assumption the plan made."""
    said = next((a.text for a in plan.assumptions if a.fact == "scheduler.now"), None)
    return one_line(said) if said else "read from the machine; no rule changes it"


def render(kb: Kb, plan: Plan, style: Style | None = None, reproduce: str | None = None,
           persisted: Mapping[str, str] | None = None) -> str:  # fmt: skip
    """One device's plan; ``reproduce`` is the command that gives it again (default: from its context; "" for
    none, as in a host's sections, which the host's command reproduces); ``persisted``: the files it shows (default:
    every file of the plan; a host's section shows its own, the host the files its devices share)."""
    style = style or cli_style()
    reproduce = advise_command(plan.context) if reproduce is None else reproduce
    distro = kb.get(str(plan.context.get("distro"))) if plan.context.get("distro") else None
    given = ", ".join(f"{k}={v}" for k, v in plan.context.items())
    expected = any(s.kind == "scheduler" and s.expected_already for s in plan.steps)
    if plan.scheduler and plan.scheduler == plan.previous_scheduler and expected:
        headline = f"{code_span(plan.scheduler)}, expected already (assumed, not read from the machine: check first)"
    elif plan.scheduler and plan.scheduler == plan.previous_scheduler:
        headline = f"already {code_span(plan.scheduler)}, nothing to change"
    elif plan.scheduler:
        assumed = any(s.kind == "scheduler" and s.current_from == "assumed" for s in plan.steps)
        now = "assumed now" if assumed else "now"
        was = f" ({now} {code_span(plan.previous_scheduler)})" if plan.previous_scheduler else ""
        headline = f"{code_span(plan.scheduler)}{was}"
    elif decided := next((s.decide for s in plan.steps if s.decide is not None), None):
        headline = f"decided on the machine by {code_span(decided.reader)}: {_cases(decided)}"
    elif plan.previous_scheduler:
        headline = f"no change: {code_span(plan.previous_scheduler)} stays ({markdown_text(_kept_why(plan))})"
    else:
        headline = "no change (no rule applies)"
    lines = [
        f"## iosched plan for {code_span(plan.device)}",
        "",
        f"**Scheduler:** {headline}. Kernel {markdown_text(plan.kernel)}, {plan.io_path} path.",
        "",
        f"Context: {markdown_text(given) if given else 'none given'}",
        "",
        *([f"Reproduce: {code_span(reproduce)}", ""] if reproduce else []),
        *check_first(plan),
        *summary(plan),
    ]
    if plan.measured:
        lines += ["**Measured**", "", *(f"- {markdown_text(one_line(m))}" for m in plan.measured), ""]
    if plan.warnings:
        lines += ["## Warnings", "", *(_notice(kb, style, w) for w in plan.warnings), ""]
    if plan.steps:
        lines += ["## Steps", ""]
        for n, step in enumerate(plan.steps, 1):
            lines += _step(kb, style, n, step, distro)
    if persisted := files([plan]) if persisted is None else persisted:
        lines += ["## Persistent files", "", *_files_section([plan], persisted)]
    if plan.advice:
        lines += ["## Also consider", "", *(_notice(kb, style, a) for a in plan.advice), ""]
    if plan.overridden:
        lines += ["## Rules that did not apply", ""]
        lines += [f"- {code_span(o.rule)} wanted {code_span(o.target)} = {code_span(o.value)}: "
                  f"{markdown_text(o.why)}" for o in plan.overridden] + [""]  # fmt: skip
    if plan.assumptions:
        lines += ["## Assumptions", ""]
        lines += [f"- {code_span(a.fact)} = {code_span(a.value)}: {markdown_text(one_line(a.text))}"
                  for a in plan.assumptions] + [""]  # fmt: skip
    cited = dict.fromkeys(s for s in [*plan.sources, *(s for w in plan.warnings for s in w.sources)] if public(kb, s))
    if cited:
        lines += ["## Sources", "", *(f"- {source_line(kb, s)}" for s in cited), ""]
    lines.append(
        f"_iosched {plan.iosched_version}, KB {plan.kb_version}. Rules fired: {', '.join(plan.fired) or 'none'}._"
    )
    return "\n".join(lines) + "\n"


def render_host(kb: Kb, host: HostPlan, style: Style | None = None) -> str:
    """Every device of a host: one summary table (device, now, recommended, why), the skipped devices, then
    each device's plan."""
    style = style or cli_style()
    facts = host.host
    name = facts.get("hostname") or host.source or "host"
    lines = [f"# iosched plan for {code_span(str(name))}", "",
             f"Kernel {markdown_text(str(facts.get('kernel') or '?'))}, distribution "
             f"{markdown_text(str(facts.get('distro') or 'not in the KB'))}, virtualization "
             f"{markdown_text(str(facts.get('virtualization') or '?'))}.", ""]  # fmt: skip
    lines += [f"Assumed: {markdown_text(str(facts['distro_assumed']))}.", ""] if facts.get("distro_assumed") else []
    lines += [f"Reproduce: {code_span(host.reproduce)}", ""] if host.reproduce else []
    rows = []
    for plan in host.plans:
        now = plan.previous_scheduler or "none"
        decided = next((s.shown for s in plan.steps if s.decide is not None), None)
        wanted = decided or plan.scheduler or now
        why = ", ".join(plan.scheduler_rules) or "no rule applies"
        changes = len(plan.steps)
        expected = any(s.kind == "scheduler" and s.expected_already for s in plan.steps)
        same = "(check: assumed)" if expected else "(already)"
        rows.append((plan.device, now, wanted if wanted != now else f"{wanted} {same}", why, str(changes)))
    if rows:
        lines += ["| device | now | recommended | why | changes |", "|---|---|---|---|---|"]
        lines += ["| " + " | ".join(markdown_cell(c) for c in row) + " |" for row in rows]
        lines.append("")
    if host.skipped:
        lines += ["**Skipped:**", "", *(f"- {code_span(s.device)}: {markdown_text(one_line(s.reason))}"
                                      for s in host.skipped), ""]  # fmt: skip
    own, shared = split(host.plans)
    for plan, persisted in zip(host.plans, own, strict=True):
        lines.append(render(kb, plan, style, "", persisted).replace("## iosched plan for", "## Plan for", 1))
    if shared:
        lines += ["## Persistent files of every device", "", "One file keeps the steps of every device above:", "",
                  *_files_section(host.plans, shared)]  # fmt: skip
    return "\n".join(lines) + "\n"
