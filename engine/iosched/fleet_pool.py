"""``iosched fleet`` over files: hosts read, converted and planned on every core, in bounded memory.

The inputs are cut into units (a captured root, a probe document, one file of a fact directory, a file of
console output). Worker processes, forked with the checked KB already loaded, read each unit, convert its
hosts to Systems and plan them with their own memoising :class:`~iosched.fleet.Planner`. A worker sends back
an :class:`~iosched.fleet.Outcome` per host and, the first time it meets one, a :class:`~iosched.fleet.PlanSet`
with its JSON text; the parent so holds a small record per host and each distinct plan set once per worker.
Outcomes come back in input order. A small input is planned in this process, which costs no start-up; of a
large one, this process plans the first units itself before it forks (:data:`WARM_UNITS`), so that the workers
start with the plans of the shapes most hosts have instead of each planning them again.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

from iosched.context import Context
from iosched.errors import UsageError
from iosched.fleet import FleetHost, Outcome, Planner, PlanSet, outcome, plan_set, plan_set_key
from iosched.kb import Kb
from iosched.struct import Struct
from iosched.system.model import System

Unit = tuple[str, Path, str]
"""(kind, path, name): kind is ``root`` (a captured root), ``probe`` (an ``iosched probe`` document, else
facts), ``entry`` (the file ``name`` of the fact directory ``path``; the units of a directory share its path,
which a pool sends once per chunk) or ``facts`` (Ansible facts in any form); ``name`` is empty but for an
entry."""
Found = tuple[str, System | None, str | None]
"""(host name, System, error) of one host of a unit."""
PlanSetText = tuple[Hashable, PlanSet, str]
"""A plan set the parent has not seen yet: its key, itself and its JSON text (the host's ``plans`` and
``skipped`` members)."""

POOL_MIN_UNITS = 256
"""Fewer units are planned in this process: a pool's start-up would cost more than it saves."""
CHUNK = 64
WARM_UNITS = 2048
"""At most this many units (and an eighth of them) are planned before the pool forks: the workers inherit
their memo of Systems, plans and plan sets. Hosts of a fleet are mostly alike, so the first few hundred meet
most of its shapes; a fleet whose hosts all differ loses at most an eighth of the pool's time."""


class Request(Struct):
    """What the user asked of every host; ``workloads`` is a workload map (per host), else ``workload``."""

    workload: str | None = None
    goal: str | None = None
    cache: str | None = None
    persist: str | None = None
    workloads: Any = None


def units(paths: Sequence[Path]) -> Iterator[Unit]:
    """The units of work under the paths, in order; a fact directory gives one unit per file."""
    from iosched.system.ansible import FactsError, fact_names
    from iosched.system.reader import layout

    for path in paths:
        if not path.exists():
            raise UsageError(f"no such file or directory: {path}")
        if (path.is_dir() and layout(path) != "tree") or (path / "sys" / "block").is_dir():
            yield "root", path, ""
        elif path.is_dir():
            try:
                yield from (("entry", path, name) for name in fact_names(path))
            except FactsError:
                yield "facts", path, ""  # read_unit reports why, as the path's one host
        elif path.suffix == ".json" and path.is_file():
            yield "probe", path, ""
        else:
            yield "facts", path, ""


def read_unit(unit: Unit, distros: set[str]) -> list[Found]:
    """The hosts of one unit; a host that cannot be read is a host with an error, never an exception."""
    from iosched.system.ansible import FactsError, iter_facts, read_fact_file

    kind, path, name = unit
    if name:
        path = path / name
    if kind == "root":
        from iosched.system.reader import ProbeError, read_root

        try:
            system = read_root(path)
        except ProbeError as exc:
            return [(path.name, None, str(exc))]
        return [(system.host.hostname or path.name, system, None)]
    if kind == "probe":
        found = _probe_document(path)
        if found is not None:
            return [found]
    try:
        hosts = read_fact_file(path, distros) if kind == "entry" else list(iter_facts(path, distros))
    except FactsError as exc:
        return [(path.name, None, str(exc))]
    return [(h.name, h.system, h.error) for h in hosts]


def _probe_document(path: Path) -> Found | None:
    """An ``iosched probe --format json`` document's host, or None when the file is not one."""
    from iosched.system.probejson import ProbeDocumentError, from_document, looks_like
    from iosched.yamlsrc import YamlError, read

    try:
        data = read(path, 16 * 1024 * 1024).data
    except YamlError:
        return None
    if not looks_like(data):
        return None
    try:
        system = from_document(data)
    except ProbeDocumentError as exc:
        return path.stem, None, str(exc)
    return system.host.hostname or path.stem, system, None


class Worker:
    """Plans units of one fleet run; one per process, holding that process's memo of plans and plan sets."""

    def __init__(self, kb: Kb, request: Request, as_json: bool) -> None:
        self.kb = kb
        self.planner = Planner(kb)
        self.request = request
        self.as_json = as_json
        self.keys: dict[Hashable, Hashable] = {}
        self.contexts: dict[str | None, Context] = {}

    def context(self, name: str) -> Context:
        """The host's context: one object per workload, so hosts alike share it."""
        r = self.request
        workload = r.workloads.workload_for(name) if r.workloads is not None else r.workload
        found = self.contexts.get(workload)
        if found is None:
            found = self.contexts[workload] = Context(workload=workload, goal=r.goal, cache=r.cache, persist=r.persist)
        return found

    def plan(self, unit: Unit) -> tuple[list[Outcome], list[PlanSetText]]:
        outcomes: list[Outcome] = []
        new: list[PlanSetText] = []
        for name, system, error in read_unit(unit, self.planner.distros):
            if system is None:
                outcomes.append(outcome(FleetHost(name=name, error=error or "no facts"), None))
                continue
            host = self.planner.host(name, system, self.context(name))
            key = None
            if host.plan is not None:
                local = plan_set_key(host.plan)
                key = self.keys.get(local)
                if key is None:
                    key = self.keys[local] = (os.getpid(), len(self.keys))
                    found = plan_set(host.plan)
                    new.append((key, found, self.json_text(found) if self.as_json else ""))
            outcomes.append(outcome(host, key))
        return outcomes, new

    def json_text(self, found: PlanSet) -> str:
        from iosched.render.plan_json import document

        plans = [{"device": p.device, **document(self.kb, p)} for p in found.plans]
        skipped = [dict(s.fields()) for s in found.skipped]
        return json.dumps({"plans": plans, "skipped": skipped}, ensure_ascii=False)[1:-1]


_worker: Worker | None = None
"""This process's worker: set before the pool forks, so every process inherits it."""


def _plan_chunk(chunk: list[Unit]) -> list[tuple[list[Outcome], list[PlanSetText]]]:
    assert _worker is not None
    return [_worker.plan(unit) for unit in chunk]


def _leave_interrupts_to_the_parent() -> None:
    """Ctrl-C stops the parent, which ends the pool; a worker prints no traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(kb: Kb, paths: Sequence[Path], request: Request, *, as_json: bool, jobs: int | None = None,
        advance: Callable[[int], None] | None = None, started: Callable[[int], None] | None = None,
        ) -> tuple[list[Outcome], dict[Hashable, PlanSet], dict[Hashable, str]]:  # fmt: skip
    """Every host's outcome in input order, and the plan sets and JSON texts their keys name.

    ``started(total units)`` is called once the work is cut (and the pool, if any, has forked); ``advance(n)``
    as units are done.
    """
    global _worker
    todo = list(units(paths))
    jobs = jobs or default_jobs()
    _worker = Worker(kb, request, as_json)
    chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
    outcomes: list[Outcome] = []
    sets: dict[Hashable, PlanSet] = {}
    texts: dict[Hashable, str] = {}

    def collect(results: list[tuple[list[Outcome], list[PlanSetText]]]) -> None:
        for found, new in results:
            for key, plans, text in new:
                sets[key], texts[key] = plans, text
            outcomes.extend(found)
        if advance is not None:
            advance(len(results))

    try:
        if jobs > 1 and len(todo) >= POOL_MIN_UNITS:
            warm = -(-min(len(todo) // 8, WARM_UNITS) // CHUNK)
            planned = [_plan_chunk(chunk) for chunk in chunks[:warm]]  # before the fork: the workers inherit the memo
            with multiprocessing.get_context("fork").Pool(jobs, initializer=_leave_interrupts_to_the_parent) as pool:
                if started is not None:
                    started(len(todo))  # after the fork, which would copy a progress bar's thread into every worker
                for results in chain(planned, pool.imap(_plan_chunk, chunks[warm:])):
                    collect(results)
        else:
            if started is not None:
                started(len(todo))
            for chunk in chunks:
                collect(_plan_chunk(chunk))
    finally:
        _worker = None
    return outcomes, sets, texts
