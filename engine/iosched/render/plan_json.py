"""A plan as JSON: the stable contract for scripts (see Plan.schema_version).

Each step carries the commands its step kind derives (``command``, ``verify``, ``expect``, ``undo``) beside
the data, so scripts need not rebuild them. Each step and each unchanged entry's step says where its current
value (``previous``) comes from: ``current_from`` is ``observed`` (read from the machine) or ``assumed``, with
``assumption`` the ``fact`` of the plan's assumption; ``expected_already`` marks an assumed value equal to the
planned one (the step checks the device and changes it only if it differs).
"""

from __future__ import annotations

from iosched.jsontext import dumps
from iosched.knowledge.base import Kb
from iosched.persist import files
from iosched.records.plan import Plan
from iosched.render.reproduce import advise_command
from iosched.steps import kind_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.planning.hostplan import HostPlan


def document(kb: Kb, plan: Plan) -> dict[str, Any]:
    data = {"kind": "plan", **plan.to_json()}
    distro = kb.get(str(plan.context.get("distro"))) if plan.context.get("distro") else None
    for step, shown in zip(plan.steps, data["steps"], strict=True):
        kind = kind_of(step)
        shown.update(command=kind.apply(step, distro), verify=kind.verify(step), expect=kind.expect(step),
                     undo=kind.undo(step, distro), expected_already=step.expected_already)  # fmt: skip
    data["files"] = files([plan])
    data["source_details"] = [
        {"id": s, "title": src.title, "url": src.url} for s in plan.sources if (src := kb.get(s)) is not None
    ]
    return data


def render(kb: Kb, plan: Plan, reproduce: str | None = None) -> str:
    """The plan's document with ``reproduce``, the command that gives it again (default: from its context)."""
    from iosched.planning.answer import of_plan

    reproduce = reproduce or advise_command(plan.context)
    data = {**document(kb, plan), "reproduce": reproduce, "answer": of_plan(kb, plan, reproduce).to_json()}
    return dumps(data) + "\n"


HOST_KIND = "host-plans"
HOST_SCHEMA_VERSION = 1
"""The contract of a host's plans (``advise --probe/--root/--context PROBE.json --format json``), apart from the
plan's: its own ``kind`` and version, each of its ``plans[]`` a plan document of the plan contract."""


def host_document(kb: Kb, host: HostPlan) -> dict[str, Any]:
    from iosched.planning.answer import of_host

    return {
        "kind": HOST_KIND,
        "schema_version": HOST_SCHEMA_VERSION,
        "host": host.host,
        "source": host.source,
        "reproduce": host.reproduce,
        "plans": [{"device": p.device, **document(kb, p)} for p in host.plans],
        "files": files(host.plans),
        "skipped": [{"device": s.device, "reason": s.reason} for s in host.skipped],
        "answer": of_host(kb, host).to_json(),
    }


def render_host(kb: Kb, host: HostPlan) -> str:
    return dumps(host_document(kb, host)) + "\n"
