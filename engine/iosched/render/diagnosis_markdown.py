"""A diagnosis as Markdown for a ticket (evidence first, then the cause, then the plan, then a chart per
device) and as JSON (the contract in README.md, "iosched diagnose --format json")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from iosched.escape import code_block, markdown_cell, markdown_text, one_line
from iosched.render.chart import Number, bar_chart, sparklines
from iosched.symptoms.clock import shown
from iosched.symptoms.diagnosis import DeviceDiagnosis
from iosched.symptoms.observations import Observed

SCHEMA_VERSION = 1
CHART_ROWS = 24
NO_CAUSE = "no cause in the KB fits these numbers"
CAPTURE_NEXT = (
    "while the slowness lasts, `iostat -x -y -t 1 60` (r_await and w_await per direction), `/proc/pressure/io` "
    "and `/proc/meminfo` each second after `date +%s.%N`, and the slow process's `/proc/PID/stack` five times a "
    "second; with `--root`, the capture's sysfs so the device's queues and scheduler are known."
)


def headline(d: DeviceDiagnosis) -> str:
    if not d.findings:
        return NO_CAUSE
    if d.healthy:
        return "no I/O problem here"
    also = [f.cause.id for f in d.findings[1:]]
    return str(d.findings[0].cause.summary).rstrip(".") + (f" (also {', '.join(also)})" if also else "")


def _evidence_table(d: DeviceDiagnosis) -> str:
    rows = {e.fact: e for f in d.findings for e in f.evidence} or {e.fact: e for e in d.shown}
    lines = ["| observed | value | window | source |", "|---|---|---|---|"]
    shown_facts = rows or dict.fromkeys(d.facts)
    for fact in shown_facts:
        e = rows.get(fact)
        value = e.value if e else d.facts[fact]
        value = round(value, 2) if isinstance(value, float) else value
        window, source = (e.window, e.source) if e else ("", "")
        lines.append(f"| `{fact}` | {markdown_cell(str(value))} | {markdown_cell(window)} | {markdown_cell(source)} |")
    return "\n".join(lines)


Series = tuple[list[str], list[tuple[str, list[Number]]], str]


def chart(observed: Observed, device: str) -> str | None:
    """%util, r_await and w_await over time as an SVG (for a file or a page; a ticket gets :func:`timeline`)."""
    found = _series(observed, device)
    return bar_chart(*found) if found else None


def timeline(observed: Observed, device: str) -> str | None:
    """The same series as text sparklines, one line per metric, in a code block: what a ticket shows as it is."""
    found = _series(observed, device)
    if found is None:
        return None
    columns, rows, caption = found
    return f"{markdown_text(one_line(caption))}:\n\n{code_block(chr(10).join(sparklines(columns, rows)), 'text')}"


def _series(observed: Observed, device: str) -> Series | None:
    """%util, r_await and w_await over time (the highest value in each of up to 24 slices of the window)."""
    samples = observed.series.get(device, [])
    if len(samples) < 2:
        return None
    metrics = [m for m in ("util", "r_await", "w_await", "await") if any(m in s.values for s in samples)]
    size = -(-len(samples) // CHART_ROWS)
    rows: list[tuple[str, list[Number]]] = []
    clock = observed.devices[device]["util"].clock
    for k in range(0, len(samples), size):
        part = samples[k : k + size]
        label = shown(part[-1].t)[11:] if clock else f"#{int(part[-1].t)}"
        rows.append((label, [max((s.values[m] for s in part if m in s.values), default=None) for m in metrics]))
    names = {"util": "%util", "r_await": "r_await (ms)", "w_await": "w_await (ms)", "await": "await (ms)"}
    return [names[m] for m in metrics], rows, f"{device}: the highest value in each slice of the window"


def _sources(kb: Any, idents: Sequence[str]) -> str:
    """Each source a customer can open, by its title linked to its URL (the project's own observations have no
    public address and stay on the site's evidence pages)."""
    shown = [source for ident in idents if (source := kb.get(ident)) is not None and source.url]
    return "; ".join(f"[{markdown_text(source.title)}](<{source.url}>)" for source in shown)


def render_markdown(kb: Any, observed: Observed, diagnoses: Sequence[DeviceDiagnosis],
                    plans: dict[str, str], charts: bool = True, style: Any = None) -> str:  # fmt: skip
    """``plans``: device -> the plan's Markdown, or a line saying how to get it; ``style`` links each cause to
    its page on the published site (when one is configured)."""
    parts = ["# Diagnosis", ""]
    if not diagnoses:
        parts += ["No device measurements were read, so there is no diagnosis.", ""]
    for d in diagnoses:
        on = f" (on {', '.join(observed.stacked[d.device])})" if d.device in observed.stacked else ""
        parts += [f"## {markdown_text(d.device + on)}: {markdown_text(headline(d))}", ""]
        if d.stacking:
            parts += [f"**Stacked:** {markdown_text(d.stacking)}.", ""]
        parts += ["### Evidence", "", _evidence_table(d), ""]
        for f in d.findings:
            c = f.cause
            link = style.link(c) if style is not None else None
            parts += [
                f"### [{c.id}]({link}) `{c.name}`" if link else f"### {c.id} `{c.name}`",
                "",
                c.summary,
                "",
                f"**What to do:** {c.advice}",
                "",
                f"**Why:** {c.rationale}",
                "",
                f"**Sources:** {_sources(kb, c.sources)}",
                "",
            ]
        if not d.findings:
            parts += [f"{NO_CAUSE.capitalize()}: neither a cause nor a healthy device. The numbers are above.", "",
                      f"**Capture next:** {CAPTURE_NEXT}", ""]  # fmt: skip
        if d.device in plans:
            parts += ["### Plan", "", plans[d.device], ""]
        if charts and (text := timeline(observed, d.device)):
            parts += ["### Over time", "", text, ""]
    if observed.missing:
        parts += ["## Not read", "", *(f"- {markdown_text(m)}" for m in observed.missing), ""]
    if observed.notes:
        parts += ["## Notes", "", *(f"- {markdown_text(n)}" for n in observed.notes), ""]
    return "\n".join(parts).rstrip() + "\n"


def document(observed: Observed, diagnoses: Sequence[DeviceDiagnosis], plans: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "devices": [
            {
                "device": d.device,
                "stacked_on": list(observed.stacked.get(d.device, ())),
                "stacking": d.stacking or None,
                "verdict": "healthy" if d.healthy else ("cause" if d.findings else "unknown"),
                "headline": headline(d),
                "causes": [
                    {
                        "id": f.cause.id,
                        "name": f.cause.name,
                        "summary": f.cause.summary,
                        "sources": list(f.cause.sources),
                        "evidence": [e._asdict() for e in f.evidence],
                    }
                    for f in d.findings
                ],
                "facts": d.facts,
                "evidence_without_cause": [e._asdict() for e in d.shown],
                "capture_next": CAPTURE_NEXT if not d.findings else None,
                "plan_context": d.plan,
                "plan": plans.get(d.device),
                "observations": {
                    m: {**o._asdict(), "unit": o.unit} for m, o in observed.devices.get(d.device, {}).items()
                },
            }
            for d in diagnoses
        ],
        "host": {m: {**o._asdict(), "unit": o.unit} for m, o in observed.host.items()},
        "events": observed.counts,
        "missing": observed.missing,
        "notes": observed.notes,
    }


def render_json(observed: Observed, diagnoses: Sequence[DeviceDiagnosis], plans: dict[str, Any]) -> str:
    """Strict JSON: the readers keep every number finite, and ``allow_nan=False`` holds them to it."""
    return json.dumps(document(observed, diagnoses, plans), indent=2, sort_keys=False, allow_nan=False)
