"""An answer (:mod:`iosched.planning.answer`) as Markdown: what a support desk pastes into a ticket.

The headline, the device table, the checks to run first where values were assumed, each changing device's steps
as one block of commands (apply, persist, verify, undo), each warning once with the devices it concerns, the
assumptions once, and the sources a customer can open, once. Everything else is in ``--detail full`` and the
JSON.
"""

from __future__ import annotations

from collections.abc import Sequence

from iosched.escape import code_block, code_span, markdown_cell, markdown_text, one_line, sh_comment
from iosched.knowledge.base import Kb
from iosched.mechanisms import fstab
from iosched.persist import commands, split
from iosched.planning.answer import Answer, Concern
from iosched.records.plan import Plan, Step
from iosched.records.runtime import KEEP
from iosched.render.plan_markdown import check_lines, source_line
from iosched.render.reference import Style, cli_style, ref
from iosched.steps import kind_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def render(kb: Kb, answer: Answer, style: Style | None = None, level: int = 1) -> str:
    """``level``: of the title heading (a diagnosis puts the answer under a heading of its own)."""
    style = style or cli_style()
    lines = [f"{'#' * level} iosched: {code_span(answer.title)} ({markdown_text(answer.about)})", "",
             f"**{markdown_text(answer.headline)}**"]  # fmt: skip
    if answer.risk:
        lines.append(f"Main risk: {markdown_text(answer.risk)}.")
    lines.append("")
    if answer.rows:
        lines += ["| device | now | recommended | why | changes |", "|---|---|---|---|---|"]
        lines += ["| " + " | ".join(markdown_cell(str(c)) for c in (r.device, r.now, r.recommended, r.why, r.changes))
                  + " |" for r in answer.rows]  # fmt: skip
        lines.append("")
    if answer.skipped:
        parts = [f"{', '.join(code_span(d) for d in devices)} ({markdown_text(one_line(reason))})"
                 for devices, reason in answer.skipped]  # fmt: skip
        lines += [f"Not planned: {'; '.join(parts)}.", ""]
    lines += _section("Measured", [f"- {markdown_text(one_line(m))}" for m in answer.measured])
    numbered = list(enumerate(answer.steps, 1))
    lines += _section("Check first (these values were assumed, not read)", check_lines(numbered))
    if answer.plans:
        lines.append("**Steps**")
        own, shared = split(answer.plans)
        for plan, kept in zip(answer.plans, own, strict=True):
            lines += _plan_block(kb, style, plan, [(n, s) for n, s in numbered if s.device == plan.device], kept)
        if host := [(n, s) for n, s in numbered if s.device is None]:
            lines += _plan_block(kb, style, answer.plans[0], host, {})
        if shared:
            lines += ["Persist every device above, in one file for all of them:",
                      code_block("\n".join(_persist_commands(answer.plans, shared)), "sh")]  # fmt: skip
        lines.append("")
    label = "Warnings and advice" if answer.warnings and answer.advice else "Warnings" if answer.warnings else "Advice"
    lines += _section(label, [_concern(kb, style, c) for c in (*answer.warnings, *answer.advice)])
    lines += _section("Assumptions", [f"- {code_span(a.fact)} = {code_span(a.value)}: {markdown_text(one_line(a.text))}"
                                      for a in answer.assumptions])  # fmt: skip
    if answer.sources:  # one paragraph of links: a ticket shows it wrapped
        lines += [f"**Sources:** {' · '.join(source_line(kb, s) for s in answer.sources)}", ""]
    lines.append(f"_{markdown_text(answer.footer)} Every detail: `--detail full` or `--format json`._")
    if answer.reproduce:
        lines.append(f"Reproduce: {code_span(answer.reproduce)}")
    return "\n".join(lines) + "\n"


def _section(label: str, items: list[str]) -> list[str]:
    """A bold label and its list (a list may follow a paragraph line directly), or nothing; a lone item without
    details follows its label on one line."""
    if len(items) == 1 and "\n" not in items[0]:
        return [f"**{label}:** {items[0].removeprefix('- ')}", ""]
    return [f"**{label}**", *items, ""] if items else []


def _concern(kb: Kb, style: Style, concern: Concern) -> str:
    risk = f" ({concern.risk})" if concern.risk else ""
    devices = f" [{', '.join(concern.devices)}]" if concern.devices else ""
    details = "".join(f"\n  - {markdown_text(one_line(d))}" for d in concern.details)
    text = markdown_text(one_line(concern.text))
    return f"- **{concern.severity}** {ref(kb, style, concern.id)}{risk}{markdown_text(devices)}: {text}{details}"


def _plan_block(kb: Kb, style: Style, plan: Plan, numbered: list[tuple[int, Step]],
                kept: dict[str, str]) -> list[str]:  # fmt: skip
    """One device's steps (or the host's), each with its rules, then one block of commands with the files
    ``kept`` (path: content) that only they need."""
    distro = kb.get(str(plan.context.get("distro"))) if plan.context.get("distro") else None
    lines = []
    for n, step in numbered:
        why = "; ".join(f"{ref(kb, style, r)} {markdown_text(one_line(reason))}"
                        for r, reason in zip(step.because, step.reasons, strict=True))  # fmt: skip
        label = " (consider: apply only after checking)" if step.severity == "consider" else ""
        lines.append(f"{n}. {markdown_text(step.title)}{label}: {why}")
    commands_ = [line for n, step in numbered for line in _step_commands(step, distro, f"was{n}")]
    if kept and any(step.decide is not None for _, step in numbered):
        commands_.append("# in every case, persist:")
    return [*lines, code_block("\n".join([*commands_, *_persist_commands([plan], kept)]), "sh")]


def _persist_commands(plans: Sequence[Plan], kept: dict[str, str]) -> list[str]:
    """Install and remove each file of ``kept`` (path: content) that ``plans`` persist in."""
    lines = []
    for path, content in kept.items():
        install, _, remove = commands(plans, path, content)
        lines += [*_commented(install, f"persist in {path}"), *_commented(remove, f"undo: remove {path}")]
    return lines


def _commented(command: str, comment: str) -> list[str]:
    *first, last = command.splitlines()
    return [*first, f"{last}  # {sh_comment(comment)}"]


def _step_commands(step: Step, distro: Any, variable: str) -> list[str]:
    """Apply, verify and undo of one step. Where the value now was assumed, the apply first keeps what it finds
    in ``variable`` (one per step: the block is pasted whole) and the undo writes that back. A step decided on the
    machine gives each case's commands under the check that tells the cases apart."""
    if (decision := step.decide) is not None:
        lines = [f"# check first: {sh_comment(decision.reader)}"]
        for choice in decision.choices:
            in_place = choice.value == step.previous and step.current_from == "observed"
            if choice.value == KEEP or in_place:
                what = "leave it as it is" if choice.value == KEEP else f"{choice.value}, in place"
                lines.append(f"# {sh_comment(choice.seen)}: {sh_comment(what)}")
            else:
                lines.append(f"# {sh_comment(choice.seen)}: {sh_comment(choice.value)}")
                lines += _step_commands(step.replace(value=choice.value, decide=None), distro, variable)
        return lines
    kind = kind_of(step)
    apply, undo, found = kind.by_hand_pair(step, distro, variable)
    lines = [*_commented(apply, "apply" if kind.runtime else f"apply (scripts leave it to you: {kind.by_hand})")]
    if step.persist_method == "fstab" and step.previous:
        lines += _commented(fstab.replace(step, step.previous, step.value), f"persist in {fstab.FILE}")
    if not step.expected_already:  # else the check first is the verify
        lines += _commented(kind.verify(step), f"verify: expect {kind.expect(step)}")
    if undo:
        what = "back to the value found before the apply" if found else f"back to {step.previous}"
        lines += _commented(undo, f"undo: {what}")
    return lines
