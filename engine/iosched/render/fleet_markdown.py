"""A fleet as Markdown: the summary first (how many hosts need what, and why), then the exceptions."""

from __future__ import annotations

from collections.abc import Sequence

from iosched.fleet import FleetHost, Summary
from iosched.render.escape import code_span, markdown_cell, markdown_text, one_line
from iosched.system import loops

SHOWN_HOSTS = 8


def _hosts(names: Sequence[str]) -> str:
    shown = ", ".join(names[:SHOWN_HOSTS])
    return shown + (f" and {len(names) - SHOWN_HOSTS} more" if len(names) > SHOWN_HOSTS else "")


def render(hosts: Sequence[FleetHost], summary: Summary) -> str:
    lines = [
        "# iosched fleet plan",
        "",
        f"{summary.hosts} host(s) planned, {summary.devices} device(s), {summary.changes} change(s); "
        f"{summary.errors} host(s) could not be read.",
        "",
    ]
    if summary.groups:
        lines += ["## What the hosts need", "", "| hosts | changes | examples |", "|--:|---|---|"]
        for group in summary.groups:
            changes = "; ".join(group.changes) or "nothing: already as the rules want"
            lines.append(f"| {group.count} | {markdown_cell(changes)} | {markdown_cell(_hosts(group.hosts))} |")
        lines.append("")
    failed = [h for h in hosts if h.plan is None]
    if failed:
        lines += ["## Hosts that could not be read", ""]
        lines += [f"- {code_span(h.name)}: {markdown_text(one_line(h.error or 'unknown error'))}" for h in failed]
        lines.append("")
    unplanned = [(h.name, s) for h in hosts if h.plan is not None for s in h.plan.skipped
                 if "partition" not in s.reason and "path of the multipath" not in s.reason
                 and s.reason != loops.UNATTACHED]  # fmt: skip
    empty = [h.name for h in hosts if h.plan is not None and any(s.reason == loops.UNATTACHED for s in h.plan.skipped)]
    if unplanned or empty:
        lines += ["## Devices not planned", ""]
    if empty:
        count = sum(s.reason == loops.UNATTACHED for h in hosts if h.plan is not None for s in h.plan.skipped)
        lines.append(f"- {loops.grouped(count)}, on {len(empty)} host(s): {markdown_text(_hosts(empty))}")
    if unplanned:
        lines += [f"- {code_span(name)} {code_span(s.device)}: {markdown_text(one_line(s.reason))}"
                  for name, s in unplanned[:200]]  # fmt: skip
        if len(unplanned) > 200:
            lines.append(f"- and {len(unplanned) - 200} more (see --format json)")
        lines.append("")
    return "\n".join(lines) + "\n"
