"""A fleet as JSON: one document, or JSON Lines that state each plan set once.

``--format json`` is one JSON document, written a host a line so that it is never held whole (read it whole: a
line is not a document): ``{"hosts": [{host, distro, kernel, workload, plans, skipped, errors}, ...],
"summary": {...}}``. Each host's ``plans`` and ``skipped`` are the JSON text of its plan set, made once per set
(hosts with the same plans share it) by :func:`compressed_text`, where the set is made.

``--format jsonl`` is JSON Lines (:func:`records`), one complete document a line, in four kinds: a shared value
``{"shared": K, "value": ...}`` before the first plan set that names it; a plan set ``{"plan_set": N, "plans":
[{MEMBER: K, ...}, ...], "skipped": [K, ...]}`` before the first host that has it, each member of each plan and
each skipped device named by the key of its shared value; a host ``{"host", "distro", "kernel", "workload",
"plan_set": N or null, "ids": {DEVICE: {"serial", "wwn"}}, "errors"}``; and last ``{"summary": {...}}``. A
host's ``plans`` and ``skipped`` in the one document are those of its plan set with each key replaced by its value,
where in the plan of each device of ``ids`` every ``@serial@`` and ``@wwn@`` in a string is that device's serial and WWN
(:data:`iosched.planning.fleetplan.TOKENS`). Hosts alike but for their disks' identifiers share a plan set, and plan
sets share the values they have in common (a warning's text, the sources, a file's content):
each is written once for the fleet.
"""

from __future__ import annotations

import codecs
import json
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any

from iosched.knowledge.base import Kb
from iosched.persist import files
from iosched.planning.fleetplan import Outcome, Planner, PlanSet, Summary
from iosched.records.plan import Plan
from iosched.render.plan_json import document

NO_PLANS = '"plans": [], "skipped": []'
_encode = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without making an encoder per call (a line per host)."""
MAX_DOCUMENTS = 4096
"""Plan documents a :class:`Documents` keeps (a few a host of a distinct shape)."""
MAX_BODIES = 1024
"""Plan set texts kept decompressed and encoded while the hosts are written (hosts alike mostly come together)."""


class Documents:
    """:func:`iosched.render.plan_json.document` of the plans of one :class:`~iosched.planning.fleetplan.Planner`: a
    plan it copied for a host's own kernel release, serial and WWN from another gets the other's document with its own
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
    """:func:`plain_text`, zlib-compressed (about a sixth of 20 KiB a host): what the output holds of a plan set
    until it is written."""
    return zlib.compress(plain_text(found, documents), 1)


def plain_text(found: PlanSet, documents: Callable[[Plan], dict[str, Any]]) -> bytes:
    """The ``plans`` and ``skipped`` members of the hosts that have ``found``, as UTF-8 JSON. ``documents`` gives
    each plan's document (:class:`Documents`, or plan_json.document for a KB)."""
    plans = [{"device": p.device, **documents(p)} for p in found.plans]
    skipped = [dict(s.fields()) for s in found.skipped]
    return json.dumps({"plans": plans, "skipped": skipped}, ensure_ascii=False)[1:-1].encode()


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
    yield f'], "summary": {json.dumps(_totals(summary), indent=1, ensure_ascii=False)}}}\n'.encode(encoding, errors)


def _totals(summary: Summary) -> dict[str, Any]:
    groups = [{"count": g.count, "changes": list(g.changes), "hosts": list(g.hosts)} for g in summary.groups]
    return {"hosts": summary.hosts, "devices": summary.devices, "changes": summary.changes,
            "errors": summary.errors, "groups": groups}  # fmt: skip


def records(hosts: Iterable[Outcome], sets: Mapping[Hashable, PlanSet], summary: Summary, encoding: str = "utf-8",
            errors: str = "strict") -> Iterator[bytes]:  # fmt: skip
    """The fleet as JSON Lines, encoded: each shared value once, before the first plan set that names it; each
    plan set once, before its first host; each host as the number of its plan set and its own identifiers; the
    summary last (the module's docstring says how to read them)."""
    numbers: dict[bytes, int] = {}
    """The number of each plan set by its text: workers of a pool that make the same set give it one text."""
    shared = _Shared()
    for h in hosts:
        text = sets[h.plans].text if h.plans is not None else b""
        number = numbers.get(text) if text else None
        if text and number is None:
            number = numbers[text] = len(numbers)
            set_line = shared.plan_set(number, json.loads(b"{%s}" % zlib.decompress(text)))
            yield from (each.encode(encoding, errors) for each in (*shared.new, set_line))
            shared.new.clear()
        names = sets[h.plans].names if h.plans is not None else ()
        ids = {name: {k: v for k, v in (("serial", serial), ("wwn", wwn)) if v}
               for name, (serial, wwn) in zip(names, h.ids, strict=False) if serial or wwn}  # fmt: skip
        line = {"host": h.name, "distro": h.distro, "kernel": h.kernel, "workload": h.workload, "plan_set": number,
                "ids": ids, "errors": [h.error] if h.error else []}  # fmt: skip
        yield (_encode(line) + "\n").encode(encoding, errors)
    yield (_encode({"summary": _totals(summary)}) + "\n").encode(encoding, errors)


class _Shared:
    """The values the plan sets of JSON Lines name by key, each written once (``new`` holds the lines not yet
    written): every member of a plan and every skipped device, which plan sets mostly share."""

    def __init__(self) -> None:
        self.keys: dict[str, int] = {}
        self.new: list[str] = []

    def key(self, value: Any) -> int:
        text = _encode(value)
        found = self.keys.get(text)
        if found is None:
            found = self.keys[text] = len(self.keys)
            self.new.append(f'{{"shared": {found}, "value": {text}}}\n')
        return found

    def plan_set(self, number: int, found: dict[str, Any]) -> str:
        """The line of plan set ``number`` (its ``plans`` and ``skipped``), the values it names joining ``new``."""
        plans = [{member: self.key(value) for member, value in plan.items()} for plan in found["plans"]]
        skipped = [self.key(value) for value in found["skipped"]]
        return _encode({"plan_set": number, "plans": plans, "skipped": skipped}) + "\n"
