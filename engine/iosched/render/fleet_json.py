"""A fleet as one JSON document, produced a host a line so that it is never held whole.

``{"hosts": [{host, distro, kernel, workload, plans, skipped, errors}, ...], "summary": {...}}``: each host's
``plans`` and ``skipped`` are the JSON text of its plan set, made once per set (hosts with the same plans
share it) by :class:`iosched.fleet_pool.Worker`.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Iterator, Mapping

from iosched.fleet import Outcome, Summary

NO_PLANS = '"plans": [], "skipped": []'
_encode = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without making an encoder per call (a line per host)."""


def lines(hosts: Iterable[Outcome], texts: Mapping[Hashable, str], summary: Summary, encoding: str = "utf-8",
          errors: str = "strict") -> Iterator[bytes]:  # fmt: skip
    """The document, one host a line (in pieces), then the summary, encoded: a plan set's text, the most of
    each line, is encoded once however many hosts share it."""
    encoded: dict[Hashable, bytes] = {}
    yield b'{"hosts": [\n'
    for i, h in enumerate(hosts):
        head = _encode({"host": h.name, "distro": h.distro, "kernel": h.kernel, "workload": h.workload})
        errs = _encode([h.error]) if h.error else "[]"
        if h.plans is None:
            yield f'{"," if i else ""}{head[:-1]}, {NO_PLANS}, "errors": {errs}}}\n'.encode(encoding, errors)
            continue
        body = encoded.get(h.plans)
        if body is None:
            body = encoded[h.plans] = texts[h.plans].encode(encoding, errors)
        yield f"{',' if i else ''}{head[:-1]}, ".encode(encoding, errors)
        yield body
        yield f', "errors": {errs}}}\n'.encode(encoding, errors)
    groups = [{"count": g.count, "changes": list(g.changes), "hosts": list(g.hosts)} for g in summary.groups]
    totals = {"hosts": summary.hosts, "devices": summary.devices, "changes": summary.changes,
              "errors": summary.errors, "groups": groups}  # fmt: skip
    yield f'], "summary": {json.dumps(totals, indent=1, ensure_ascii=False)}}}\n'.encode(encoding, errors)
