"""A fleet as one JSON document, produced a host a line so that it is never held whole.

``{"hosts": [{host, distro, kernel, workload, plans, skipped, errors}, ...], "summary": {...}}``: each host's
``plans`` and ``skipped`` are the JSON text of its plan set, made once per set (hosts with the same plans
share it) by :func:`compressed_text`, where the set is made.
"""

from __future__ import annotations

import codecs
import json
import zlib
from collections.abc import Hashable, Iterable, Iterator, Mapping

from iosched.fleet import Outcome, PlanSet, Summary
from iosched.kb import Kb

NO_PLANS = '"plans": [], "skipped": []'
_encode = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without making an encoder per call (a line per host)."""
MAX_BODIES = 1024
"""Plan set texts kept decompressed and encoded while the hosts are written (hosts alike mostly come together)."""


def compressed_text(kb: Kb, found: PlanSet) -> bytes:
    """The ``plans`` and ``skipped`` members of the hosts that have ``found``, as UTF-8 JSON, zlib-compressed
    (about a sixth of 20 KiB a host): what the output holds of a plan set until it is written."""
    from iosched.render.plan_json import document

    plans = [{"device": p.device, **document(kb, p)} for p in found.plans]
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
