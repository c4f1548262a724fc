"""A fleet as Markdown: the summary first (how many hosts need what, and why), then one section per distinct
set of changes listing every host that needs it, then the exceptions. Hosts that need the same changes share a
section, so the report grows with the distinct plans, not with the hosts."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence

from iosched.escape import code_span, markdown_cell, markdown_text, one_line
from iosched.observe import loops
from iosched.planning.fleetplan import Outcome, PlanSet, Summary

SHOWN_HOSTS = 8
SHOWN_UNPLANNED = 200
NOTHING = "nothing: already as the rules want"


def _hosts(names: Sequence[str]) -> str:
    shown = ", ".join(names[:SHOWN_HOSTS])
    return shown + (f" and {len(names) - SHOWN_HOSTS} more" if len(names) > SHOWN_HOSTS else "")


def _by_change(lines: Sequence[str]) -> dict[str, list[str]]:
    """A plan set's changes, each with the devices it is made on: lines that differ only in their first word,
    the device (:func:`~iosched.planning.fleetplan.change_lines`), are one change, said once."""
    found: dict[str, list[str]] = {}
    for line in lines:
        device, _, change = line.partition(" ")
        found.setdefault(change, []).append(device)
    return found


def _plans(summary: Summary) -> list[str]:
    """The table of change sets, then a section for each: its changes (each once, with its devices) and all of
    its hosts."""
    lines = ["## What the hosts need", "", "| plan | hosts | changes |", "|--:|--:|---|"]
    changes = [_by_change(group.changes) for group in summary.groups]
    for n, (group, made) in enumerate(zip(summary.groups, changes, strict=True), 1):
        shown = [f"{on[0]} {c}" if len(on) == 1 else f"{c} on {len(on)} devices: {_hosts(on)}"
                 for c, on in made.items()]  # fmt: skip
        lines.append(f"| {n} | {group.count} | {markdown_cell('; '.join(shown) or NOTHING)} |")
    lines.append("")
    for n, (group, made) in enumerate(zip(summary.groups, changes, strict=True), 1):
        lines += [f"### Plan {n}: {group.count} host(s)", ""]
        lines += [f"- {code_span(f'{on[0]} {c}')}" if len(on) == 1 else
                  f"- {code_span(c)} on {len(on)} devices: {markdown_text(', '.join(on))}"
                  for c, on in made.items()] or ["Nothing to change: already as the rules want."]  # fmt: skip
        lines += ["", f"Hosts: {markdown_text(', '.join(sorted(group.hosts)))}", ""]
    return lines


def _unplanned(planned: Sequence[Outcome], sets: Mapping[Hashable, PlanSet]) -> list[str]:
    """Devices not planned, each device and reason once with the hosts it is on (partitions, multipath
    paths and unattached loop devices, which every host has, only counted)."""
    on: dict[tuple[str, str], list[str]] = defaultdict(list)
    empty: dict[str, int] = {}
    for host in planned:
        skipped = sets[host.plans].skipped
        if count := sum(s.reason == loops.UNATTACHED for s in skipped):
            empty[host.name] = count
        for s in skipped:
            if "partition" not in s.reason and "path of the multipath" not in s.reason and s.reason != loops.UNATTACHED:
                on[s.device, s.reason].append(host.name)
    if not on and not empty:
        return []
    lines = ["## Devices not planned", ""]
    if empty:
        names = list(empty)
        lines.append(f"- {loops.grouped(sum(empty.values()))}, on {len(names)} host(s): {markdown_text(_hosts(names))}")
    shown = sorted(on.items(), key=lambda item: (-len(item[1]), item[0]))
    for (device, reason), names in shown[:SHOWN_UNPLANNED]:
        lines.append(f"- {code_span(device)} on {len(names)} host(s) ({markdown_text(_hosts(names))}): "
                     f"{markdown_text(one_line(reason))}")  # fmt: skip
    if len(shown) > SHOWN_UNPLANNED:
        lines.append(f"- and {len(shown) - SHOWN_UNPLANNED} more (see --format json)")
    return [*lines, ""]


def render(hosts: Sequence[Outcome], sets: Mapping[Hashable, PlanSet], summary: Summary) -> str:
    lines = [
        "# iosched fleet plan",
        "",
        f"{summary.hosts} host(s) planned, {summary.devices} device(s), {summary.changes} change(s); "
        f"{summary.errors} host(s) could not be read.",
        "",
    ]
    if summary.groups:
        lines += _plans(summary)
    failed = [h for h in hosts if h.plans is None]
    if failed:
        lines += ["## Hosts that could not be read", ""]
        lines += [f"- {code_span(h.name)}: {markdown_text(one_line(h.error or 'unknown error'))}" for h in failed]
        lines.append("")
    lines += _unplanned([h for h in hosts if h.plans is not None], sets)
    return "\n".join(lines) + "\n"
