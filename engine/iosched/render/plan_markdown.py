"""A plan as Markdown: the answer a support desk pastes into a ticket (no ANSI codes)."""

from __future__ import annotations

from iosched import commands as cmd
from iosched.kb import Kb
from iosched.plan import Plan, Step, Warning
from iosched.render.reference import CLI_STYLE, code, ref

_RELOAD = {cmd.UDEV_FILE: cmd.UDEV_RELOAD, cmd.SYSCTL_FILE: f"sudo sysctl -p {cmd.SYSCTL_FILE}"}


def _site(kb: Kb, ident: str) -> str:
    """``ident`` linked to its page on the reference site."""
    return ref(kb, CLI_STYLE, ident)


def _notice(kb: Kb, notice: Warning) -> str:
    risk = f" ({notice.risk})" if notice.risk else ""
    return f"- **{notice.severity}** {_site(kb, notice.id)}{risk}: {' '.join(notice.text.split())}"


def _source_link(kb: Kb, ident: str) -> str:
    source = kb.get(ident)
    if source is None:
        return f"`{ident}`"
    title = f"[{source.title}]({source.url})" if source.url else f"{source.title} ({source.path})"
    return f"{title}, {_site(kb, ident)}"


def _step(kb: Kb, n: int, step: Step) -> list[str]:
    lines = [f"### {n}. {step.title}", ""]
    for rule, reason in zip(step.because, step.reasons, strict=True):
        lines.append(f"- {_site(kb, rule)}: {reason}")
    lines += ["", "Apply now:", "", code(step.command), ""]
    where = {"udev-rule": f" in `{cmd.UDEV_FILE}`", "sysctl-d": f" in `{cmd.SYSCTL_FILE}`"}
    lines += [f"Persist ({step.persist_method}{where.get(step.persist_method, '')}):", "",
              code(step.persist, "text"), ""]  # fmt: skip
    lines += [f"Verify (expect `{step.expect}`):", "", code(step.verify), ""]
    lines += [f"Undo{f' (previous: `{step.previous}`)' if step.previous else ''}:", "", code(step.undo), ""]
    for alternative in step.alternatives:
        lines += [f"Alternative: {alternative}", ""]
    return lines


def render(kb: Kb, plan: Plan) -> str:
    ctx = ", ".join(f"{k}={v}" for k, v in plan.context.items())
    chosen = f"`{plan.scheduler}`" if plan.scheduler else "no change (no rule applies)"
    lines = [
        "## iosched plan",
        "",
        f"**Scheduler for `{plan.device}`:** {chosen} (kernel {plan.kernel}, {plan.io_path} path)",
        "",
        f"Context: {ctx}",
        "",
    ]
    if plan.steps:
        lines += ["**Summary**", ""] + [f"{n}. {s.title} ({', '.join(s.because)})" for n, s in
                                         enumerate(plan.steps, 1)] + [""]  # fmt: skip
    if plan.measured:
        lines += ["**Measured**", ""] + [f"- {m}" for m in plan.measured] + [""]
    if plan.warnings:
        lines += ["## Warnings", ""]
        lines += [_notice(kb, w) for w in plan.warnings]
        lines.append("")
    if plan.steps:
        lines += ["## Steps", ""]
        for n, step in enumerate(plan.steps, 1):
            lines += _step(kb, n, step)
    if plan.files:
        lines += ["## Persistent files", ""]
        for path, content in plan.files.items():
            lines += [f"`{path}`:", "", code(content, "text"), "", "Install it:", "",
                      code(f"{cmd.file_install(path, content)}\n{_RELOAD[path]}"), ""]  # fmt: skip
    if plan.advice:
        lines += ["## Also consider", "", *(_notice(kb, a) for a in plan.advice), ""]
    if plan.overridden:
        lines += ["## Rules that did not apply", ""]
        lines += [f"- `{o.rule}` wanted {o.target} = `{o.value}`: {o.why}" for o in plan.overridden] + [""]
    if plan.assumptions:
        lines += ["## Assumptions", ""] + [f"- {a.fact} = `{a.value}`: {a.text}" for a in plan.assumptions] + [""]
    cited = dict.fromkeys([*plan.sources, *(s for w in plan.warnings for s in w.sources)])
    if cited:
        lines += ["## Sources", ""] + [f"- {_source_link(kb, s)}" for s in cited] + [""]
    lines.append(f"_iosched {plan.iosched_version}, KB {plan.kb_version}. Rules fired: {', '.join(plan.fired)}._")
    return "\n".join(lines) + "\n"
