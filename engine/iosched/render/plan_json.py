"""A plan as JSON: the stable contract for scripts (see Plan.schema_version)."""

from __future__ import annotations

import json

from iosched.kb import Kb
from iosched.plan import Plan


def render(kb: Kb, plan: Plan) -> str:
    document = plan.to_json()
    document["source_details"] = [
        {"id": s, "title": src.title, "url": src.url} for s in plan.sources if (src := kb.get(s)) is not None
    ]
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
