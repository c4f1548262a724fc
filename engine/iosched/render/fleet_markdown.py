"""A fleet as Markdown: the summary first (how many hosts need what, and why), then the exceptions."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import islice

from iosched.escape import code_span, markdown_cell, markdown_text, one_line
from iosched.fleet import Outcome, PlanSet, Summary
from iosched.system import loops

SHOWN_HOSTS = 8
SHOWN_UNPLANNED = 200


def _hosts(names: Sequence[str]) -> str:
    shown = ", ".join(names[:SHOWN_HOSTS])
    return shown + (f" and {len(names) - SHOWN_HOSTS} more" if len(names) > SHOWN_HOSTS else "")


def render(hosts: Sequence[Outcome], sets: Mapping[Hashable, PlanSet], summary: Summary) -> str:
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
    failed = [h for h in hosts if h.plans is None]
    if failed:
        lines += ["## Hosts that could not be read", ""]
        lines += [f"- {code_span(h.name)}: {markdown_text(one_line(h.error or 'unknown error'))}" for h in failed]
        lines.append("")
    planned = [h for h in hosts if h.plans is not None]
    unplanned = ((h.name, s) for h in planned for s in sets[h.plans].skipped
                 if "partition" not in s.reason and "path of the multipath" not in s.reason
                 and s.reason != loops.UNATTACHED)  # fmt: skip
    shown = list(islice(unplanned, SHOWN_UNPLANNED))
    empty = {h.name: n for h in planned if (n := sum(s.reason == loops.UNATTACHED for s in sets[h.plans].skipped))}
    if shown or empty:
        lines += ["## Devices not planned", ""]
    if empty:
        names = list(empty)
        lines.append(f"- {loops.grouped(sum(empty.values()))}, on {len(names)} host(s): {markdown_text(_hosts(names))}")
    if shown:
        lines += [f"- {code_span(name)} {code_span(s.device)}: {markdown_text(one_line(s.reason))}"
                  for name, s in shown]  # fmt: skip
        if more := sum(1 for _ in unplanned):
            lines.append(f"- and {more} more (see --format json)")
    if shown or empty:
        lines.append("")
    return "\n".join(lines) + "\n"
