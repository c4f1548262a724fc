"""A fleet as one JSON document, produced a host a line so that it is never held whole.

``{"hosts": [{host, distro, kernel, workload, plans, skipped, errors}, ...], "summary": {...}}``: each host's
``plans`` and ``skipped`` are the JSON text of its plan set, made once per set (hosts with the same plans
share it) by :func:`compressed_text`, where the set is made.
"""

from __future__ import annotations

import codecs
import json
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any

from iosched.fleet import Outcome, Planner, PlanSet, Summary
from iosched.kb import Kb
from iosched.persist import files
from iosched.plan import Plan
from iosched.render.plan_json import document

NO_PLANS = '"plans": [], "skipped": []'
_encode = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without making an encoder per call (a line per host)."""
MAX_DOCUMENTS = 4096
"""Plan documents a :class:`Documents` keeps (a few a host of a distinct shape)."""
MAX_BODIES = 1024
"""Plan set texts kept decompressed and encoded while the hosts are written (hosts alike mostly come together)."""


class Documents:
    """:func:`iosched.render.plan_json.document` of the plans of one :class:`~iosched.fleet.Planner`: a plan it
    copied for a host's own kernel release, serial and WWN from another gets the other's document with its own
    context, udev match and files, which are all that differ. A fleet of physical machines (whose disks all have
    serials) renders each kind of device plan once, not once per host."""

    def __init__(self, kb: Kb, planner: Planner) -> None:
        self.kb, self.planner = kb, planner
        self._made: dict[int, tuple[Plan, dict[str, Any]]] = {}
        """Documents by the identity of their plan, which is kept alive with them."""

    def __call__(self, plan: Plan) -> dict[str, Any]:
        origin = self.planner.origin(plan)
        found = self._made.get(id(origin))
        if found is None:
            if len(self._made) >= MAX_DOCUMENTS:
                self._made.clear()
            found = self._made[id(origin)] = origin, document(self.kb, origin)
        made = found[1]
        if origin is plan:
            return made
        return {**made, "context": dict(plan.context), "udev_match": plan.udev_match, "files": files([plan])}


def compressed_text(found: PlanSet, documents: Callable[[Plan], dict[str, Any]]) -> bytes:
    """The ``plans`` and ``skipped`` members of the hosts that have ``found``, as UTF-8 JSON, zlib-compressed
    (about a sixth of 20 KiB a host): what the output holds of a plan set until it is written. ``documents``
    gives each plan's document (:class:`Documents`, or plan_json.document for a KB)."""
    plans = [{"device": p.device, **documents(p)} for p in found.plans]
    skipped = [dict(s.fields()) for s in found.skipped]
    text = json.dumps({"plans": plans, "skipped": skipped}, ensure_ascii=False)[1:-1]
    return zlib.compress(text.encode(), 1)


def lines(hosts: Iterable[Outcome], sets: Mapping[Hashable, PlanSet], summary: Summary, encoding: str = "utf-8",
          errors: str = "strict") -> Iterator[bytes]:  # fmt: skip
    """The document, one host a line (in pieces), then the summary, encoded: a plan set's text, the most of
    each line, is decompressed and encoded once for the hosts that come while it is kept."""
    utf8 = codecs.lookup(encoding).name == "utf-8"
    bodies: dict[Hashable, bytes] = {}
    yield b'{"hosts": [\n'
    for i, h in enumerate(hosts):
        head = _encode({"host": h.name, "distro": h.distro, "kernel": h.kernel, "workload": h.workload})
        errs = _encode([h.error]) if h.error else "[]"
        if h.plans is None:
            yield f'{"," if i else ""}{head[:-1]}, {NO_PLANS}, "errors": {errs}}}\n'.encode(encoding, errors)
            continue
        body = bodies.get(h.plans)
        if body is None:
            if len(bodies) >= MAX_BODIES:
                bodies.clear()
            body = zlib.decompress(sets[h.plans].text)
            body = bodies[h.plans] = body if utf8 else body.decode().encode(encoding, errors)
        yield f"{',' if i else ''}{head[:-1]}, ".encode(encoding, errors)
        yield body
        yield f', "errors": {errs}}}\n'.encode(encoding, errors)
    groups = [{"count": g.count, "changes": list(g.changes), "hosts": list(g.hosts)} for g in summary.groups]
    totals = {"hosts": summary.hosts, "devices": summary.devices, "changes": summary.changes,
              "errors": summary.errors, "groups": groups}  # fmt: skip
    yield f'], "summary": {json.dumps(totals, indent=1, ensure_ascii=False)}}}\n'.encode(encoding, errors)
