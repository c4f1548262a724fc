"""What ``iosched verify`` found, as a Markdown table (the text format on a terminal) or a JSON document."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from iosched.escape import markdown_cell

if TYPE_CHECKING:
    from iosched.planning.hostplan import Verification


def render_markdown(report: Verification) -> str:
    """A heading naming the host, one row per setting, and the verdict."""
    rows, host = report.rows, report.host
    head = "| device | setting | expected | actual | status | because |\n|---|---|---|---|---|---|"
    body = [
        "| " + " | ".join(markdown_cell(str(c if c is not None else "-")) for c in
                          (r.device, r.setting, r.expected, r.actual, r.status, r.because)) + " |"
        for r in rows
    ]  # fmt: skip
    name = host.host.get("hostname") or host.source
    text = f"## iosched verify: {markdown_cell(str(name))}\n\n{head}\n" + "\n".join(body)
    return text + f"\n\n**{markdown_cell(report.verdict().text)}**\n"


def render_json(report: Verification) -> str:
    """``{host, rows, compliant, verdict, compared, differs, unchecked, skipped}``."""
    host, result = report.host, report.verdict()
    document = {"host": host.host, "rows": [dict(r.fields()) for r in report.rows], "compliant": result.compliant,
                "verdict": result.text, "compared": result.compared, "differs": result.differs,
                "unchecked": list(result.unchecked),
                "skipped": [dict(s.fields()) for s in host.skipped]}  # fmt: skip
    return json.dumps(document, indent=2, ensure_ascii=False)
