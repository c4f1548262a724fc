"""``iosched fleet`` over files: hosts read, converted and planned on every core, in bounded memory.

The inputs are cut into units (a captured root, a probe document, one file of a fact directory, a file of
console output). Worker processes, forked with the checked KB already loaded, do two kinds of task:

- read a chunk of units: convert each host to the System of its shape (hosts alike share one), and send back
  per host its name, workload and the digest of its shape and workload, and the shapes this worker meets first;
- plan shapes, with the worker's own memoising :class:`~iosched.planning.fleetplan.Planner`: send back the
  :class:`~iosched.planning.fleetplan.Outcome` of each and the :class:`~iosched.planning.fleetplan.PlanSet` the first
  time the worker makes one (for the JSON output, with its compressed text instead of its plans).

This process hands out both, shapes to plan first, and has each shape planned once, by one worker, however many
hosts and workers meet it. It holds a small record per host, each shape's outcome and each distinct plan set
once per worker; outcomes come back in input order. A worker's memo is bounded (:data:`MAX_SENT`,
:data:`MAX_PLAN_SETS`), so a fleet whose hosts share nothing costs memory only in this process, a few KiB a
host. A small input is planned in this process, which costs no start-up.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any

from iosched.errors import UsageError
from iosched.fleet.ansible_docs import NO_FACTS, file_documents
from iosched.fleet.ansible_facts import host_shape
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.planning.fleetplan import (
    NO_IDS,
    TOKENS,
    FleetHost,
    Outcome,
    Planner,
    PlanSet,
    outcome,
    plan_set,
    plan_set_key,
    shared,
    with_tokens,
)
from iosched.planning.hostplan import HostPlan, device_ids
from iosched.records.system import System
from iosched.render.fleet_json import Documents, compressed_text, plain_text
from iosched.struct import Struct

Unit = tuple[str, Path, str]
"""(kind, path, name): kind is ``root`` (a captured root), ``probe`` (an ``iosched probe`` document, else
facts), ``entry`` (the file ``name`` of the fact directory ``path``; the units of a directory share its path,
which a pool sends once per chunk) or ``facts`` (Ansible facts in any form); ``name`` is empty but for an
entry."""
Found = tuple[str, System | None, str | None]
"""(host name, System, error) of one host of a unit; the System has no hostname or source (:func:`unnamed`), and
hosts alike read from facts share it (:func:`~iosched.fleet.ansible_system.system_shape`)."""
NewSet = tuple[Hashable, PlanSet]
"""A plan set the parent has not seen yet, and its key. For the JSON output it carries its compressed text and
not its plans, which are larger to send and to hold."""

HostRead = tuple[str, str | None, str | None, bytes | Outcome | None]
"""(host name, workload, error, digest of its shape and workload) of one host a worker has read: the digest, or
the error when the host could not be read, or its outcome when the worker planned it (:meth:`Worker.read`)."""

POOL_MIN_UNITS = 256
"""Fewer units are planned in this process: a pool's start-up would cost more than it saves."""
CHUNK = 64
QUEUED_TASKS = 2
"""Tasks queued per worker: enough that none waits for the next, few enough that a shape met is planned soon."""
SHAPES_PER_TASK = 8
MAX_LOST_WORKERS = 64
"""Workers that may end without their results (killed) before the run gives up."""
MAX_SENT = 4096
"""Shapes a worker remembers having sent; it sends again a shape it has forgotten, which the parent knows."""
MAX_PLAN_SETS = 1024
"""Plan sets a worker's Planner keeps before it forgets its hosts (Planner.forget_hosts): what bounds a worker's
memory when few hosts are alike (the serial numbers of physical disks are in their udev rules)."""
MAX_COPIES = 16384
"""Plans a worker's Planner keeps copied for hosts' own serials and WWNs before it forgets its hosts: what bounds
its memory when hosts alike but for those share a plan set (--format jsonl)."""
MAX_DEVICE_PLANS = 8192
"""Device plans past which a worker starts a new Planner, whose memo then grows from nothing, when it next
forgets its hosts."""


TARBALLS = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz")
"""File names of captures as tarballs, read as roots."""


class Request(Struct):
    """What the user asked of every host; ``workloads`` is a workload map (per host), else ``workload``."""

    workload: str | None = None
    goal: str | None = None
    cache: str | None = None
    persist: str | None = None
    workloads: Any = None


class Needs(Struct):
    """What an output needs of each plan set: its plans (a playbook renders them), their JSON text (the JSON
    outputs hold that, not the plans), or neither (a report of the changes, which every set has). With
    ``shared``, hosts alike but for their disks' serials and WWNs share a set that names them by tokens, and each
    outcome has its own (fleet.shared): an output that writes no plan's text, or writes the tokens and each
    host's own identifiers, holds a set per distinct plan, not per host."""

    plans: bool = False
    text: bool = False
    shared: bool = False


def units(paths: Sequence[Path]) -> Iterator[Unit]:
    """The units of work under the paths, in order; a fact directory gives one unit per file."""
    from iosched.fleet.ansible_facts import FactsError, fact_names
    from iosched.observe.reader import layout

    for path in paths:
        if not path.exists():
            raise UsageError(f"no such file or directory: {path}")
        captured = path.name.endswith(TARBALLS) and path.is_file()  # a sosreport, supportconfig or collect tarball
        if captured or (path.is_dir() and layout(path) != "tree") or (path / "sys" / "block").is_dir():
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


def read_unit(unit: Unit, distros: Collection[str]) -> list[Found]:
    """The hosts of one unit; a host that cannot be read is a host with an error, never an exception."""
    from iosched.fleet.ansible_docs import documents
    from iosched.fleet.ansible_facts import FactsError

    kind, path, name = unit
    if name:
        return _entry(os.path.join(path, name), distros)
    if kind == "root":
        from iosched.observe.reader import ProbeError, read_root

        try:
            system = read_root(path)
        except ProbeError as exc:
            return [(path.name, None, str(exc))]
        return [(system.host.hostname or path.name, unnamed(system), None)]
    if kind == "probe":
        found = _probe_document(path)
        if found is not None:
            return [found]
    try:
        docs = list(documents(path))
    except FactsError as exc:
        return [(path.name, None, str(exc))]
    return [(doc.name, *host_shape(doc, distros)) for doc in docs]


def _entry(path: str, distros: Collection[str]) -> list[Found]:
    """The host(s) of a file of a fact directory (a string, which costs less than a Path per file): Ansible's
    facts, or an ``iosched probe`` document (a directory of those, one a host, is read as one is written)."""
    found = [(doc.name, *host_shape(doc, distros)) for doc in file_documents(path, follow_symlinks=False)]
    if len(found) == 1 and found[0][2] == NO_FACTS and path.endswith(".json"):
        probed = _probe_document(Path(path))
        if probed is not None:
            return [probed]
    return found


def unnamed(system: System) -> System:
    """``system`` without its hostname and source, which name a host but do not change its plans."""
    return system.replace(host=system.host.replace(hostname=None), source="")


def _probe_document(path: Path) -> Found | None:
    """An ``iosched probe --format json`` document's host, or None when the file is not one."""
    from iosched.observe.probejson import ProbeDocumentError, from_document, looks_like
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
    return system.host.hostname or path.stem, unnamed(system), None


class Worker:
    """Plans units of one fleet run; one per process, holding that process's memo of plans and plan sets."""

    def __init__(self, kb: Kb, request: Request, needs: Needs) -> None:
        self.kb = kb
        self.start_planner()
        self.request = request
        self.needs = needs
        self.made = 0
        """Plan sets made, which numbers their keys."""
        self.contexts: dict[str | None, Context] = {}
        self.sent: dict[tuple[int, str | None], tuple[bytes, System]] = {}
        """The digest of each shape this worker has sent the parent, by the identity of its System and workload
        (the System is kept alive, so that its identity is not reused)."""

    def start_planner(self) -> None:
        """A new Planner, whose memo grows from nothing, and the documents of its plans, which go with it."""
        self.planner = Planner(self.kb)
        self.documents = Documents(self.kb, self.planner)

    def workload(self, name: str) -> str | None:
        r = self.request
        return r.workloads.workload_for(name) if r.workloads is not None else r.workload

    def context(self, workload: str | None) -> Context:
        """The context of a workload: one object per workload, so hosts alike share it."""
        found = self.contexts.get(workload)
        if found is None:
            r = self.request
            found = self.contexts[workload] = Context(workload=workload, goal=r.goal, cache=r.cache, persist=r.persist)
        return found

    def plan(self, unit: Unit) -> tuple[list[Outcome], list[NewSet]]:
        """The outcomes of a unit's hosts, planned here, and the plan sets this worker had not made before."""
        outcomes: list[Outcome] = []
        new: list[NewSet] = []
        for name, system, error in read_unit(unit, self.planner.distros):
            workload = self.workload(name)
            if system is None:
                outcomes.append(Outcome(name=name, workload=workload, error=error or "no facts"))
            else:
                planned = self.planner.host(name, system, self.context(workload), own=not self.needs.shared)
                outcomes.append(self.planned(planned, new))
        return outcomes, new

    def read(self, unit: Unit) -> tuple[list[HostRead], list[tuple[bytes, bytes]], list[NewSet]]:
        """A unit's hosts by the digest of their shape and workload (what their plans depend on), and the
        shapes this worker has not sent before: their digests and pickled (System, workload). A host whose disks
        have serials or WWNs, a shape no other host has, is planned here (a substitution, mostly: Planner.host),
        and its outcome sent instead, with the plan sets this worker had not made before."""
        hosts: list[HostRead] = []
        new: list[tuple[bytes, bytes]] = []
        sets: list[NewSet] = []
        for name, system, error in read_unit(unit, self.planner.distros):
            workload = self.workload(name)
            if system is None:
                hosts.append((name, workload, error or "no facts", None))
                continue
            if any(serial or wwn for serial, wwn in map(device_ids, system.devices)):
                planned = self.planner.host(name, system, self.context(workload), own=not self.needs.shared)
                hosts.append((name, workload, None, self.planned(planned, sets)))
                continue
            key = (id(system), workload)
            found = self.sent.get(key)
            if found is None:
                data = pickle.dumps((system, workload), pickle.HIGHEST_PROTOCOL)
                if len(self.sent) >= MAX_SENT:
                    self.sent.clear()
                found = self.sent[key] = hashlib.blake2b(data, digest_size=32).digest(), system
                new.append((found[0], data))
            hosts.append((name, workload, None, found[0]))
        return hosts, new, sets

    def plan_shapes(self, shapes: list[tuple[bytes, bytes]]) -> tuple[list[tuple[bytes, Outcome]], list[NewSet]]:
        """The outcome of a host of each shape (named ""), by digest, and the plan sets new to this worker."""
        done: list[tuple[bytes, Outcome]] = []
        new: list[NewSet] = []
        for digest, data in shapes:
            system, workload = pickle.loads(data)
            done.append((digest, self.planned(self.planner.host("", system, self.context(workload)), new)))
        return done, new

    def planned(self, host: FleetHost, new: list[NewSet]) -> Outcome:
        """The host's outcome; its plan set joins ``new`` the first time this worker makes it. With ``shared``,
        hosts alike but for their disks' serials and WWNs share a set that names them by tokens (fleet.shared),
        unless the text of the host's own plans has a token already, and then the set is its own."""
        key, ids, plan = None, NO_IDS, host.plan
        if plan is not None:
            local, ids = shared(self.planner, plan, host.ids) if self.needs.shared else (plan_set_key(plan), NO_IDS)
            key = self.planner.plan_sets.get(local)
            if key is None and host.ids is not None:  # its own plans, which a set made now, or of its own, holds
                plan = self.planner.owned(plan, host.ids)
            if key is None and ids and self._has_token(plan):
                local, ids = plan_set_key(plan), NO_IDS
                key = self.planner.plan_sets.get(local)
            if key is None:
                key = self.planner.plan_sets[local] = (os.getpid(), self.made)
                self.made += 1
                found = plan_set(with_tokens(self.planner, plan, ids) if ids else plan)
                if not self.needs.plans:
                    text = compressed_text(found, self.documents) if self.needs.text else b""
                    found = found.replace(plans=(), text=text)
                new.append((key, found))
        if len(self.planner.plan_sets) >= MAX_PLAN_SETS or self.planner.copies >= MAX_COPIES:
            if self.planner.device_plans < MAX_DEVICE_PLANS:
                self.planner.forget_hosts()
            else:
                self.start_planner()
        return outcome(host, key, ids)

    def _has_token(self, plan: HostPlan) -> bool:
        """Whether the JSON of a host's own plans has a token of fleet.TOKENS (which a KB text could hold)."""
        text = plain_text(plan_set(plan), self.documents)
        return any(token.encode() in text for token in TOKENS)


_worker: Worker | None = None
"""This process's worker: set before the pool forks, so every process inherits it."""


def _read_chunk(chunk: list[Unit]) -> tuple[list[HostRead], list[tuple[bytes, bytes]], list[NewSet]]:
    assert _worker is not None
    hosts: list[HostRead] = []
    new: list[tuple[bytes, bytes]] = []
    sets: list[NewSet] = []
    for unit in chunk:
        found, shapes, made = _worker.read(unit)
        hosts += found
        new += shapes
        sets += made
    return hosts, new, sets


def _plan_shapes(shapes: list[tuple[bytes, bytes]]) -> tuple[list[tuple[bytes, Outcome]], list[NewSet]]:
    assert _worker is not None
    return _worker.plan_shapes(shapes)


def _serve(conn: Any, others: list[Any]) -> None:
    """A worker: runs each task it is sent and sends back its result, until the parent sends None or has gone.
    Ctrl-C stops the parent, which ends the workers; a worker prints no traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for other in others:  # the parent's ends of the other workers' pipes, which a fork copied
        other.close()
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        function, argument = task
        try:
            reply = (True, function(argument))
        except Exception as exc:  # the parent raises it, as the function would have
            reply = (False, exc)
        try:
            conn.send(reply)
        except OSError:  # the parent has gone
            return


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(kb: Kb, paths: Sequence[Path], request: Request, needs: Needs, *, jobs: int | None = None,
        advance: Callable[[int], None] | None = None, started: Callable[[int], None] | None = None,
        lost: Callable[[int], None] | None = None) -> tuple[list[Outcome], dict[Hashable, PlanSet]]:  # fmt: skip
    """Every host's outcome in input order, and the plan sets their keys name, with what the output ``needs`` of
    them.

    ``started(total units)`` is called once the work is cut (and the pool, if any, has forked); ``advance(n)``
    as units are done; ``lost(workers)`` at the end when worker processes ended (killed: the out-of-memory killer);
    a host whose unit or shape was lost twice has the error :data:`LOST`.
    """
    global _worker
    todo = list(units(paths))
    jobs = jobs or default_jobs()
    worker = _worker = Worker(kb, request, needs)
    sets: dict[Hashable, PlanSet] = {}

    def keep(new: list[NewSet]) -> None:
        sets.update(new)

    try:
        if jobs > 1 and len(todo) >= POOL_MIN_UNITS:
            with Tasks(jobs) as tasks:
                if started is not None:
                    started(len(todo))  # after the fork, which would copy a progress bar's thread into every worker
                outcomes = _pooled(tasks, jobs, todo, keep, advance)
                if lost is not None and tasks.workers_lost:
                    lost(tasks.workers_lost)
        else:
            if started is not None:
                started(len(todo))
            outcomes = []
            for chunk in _chunks(todo):
                for unit in chunk:
                    found, new = worker.plan(unit)
                    outcomes += found
                    keep(new)
                if advance is not None:
                    advance(len(chunk))
    finally:
        _worker = None
    return outcomes, sets


def _pooled(tasks: Tasks, jobs: int, todo: list[Unit], keep: Callable[[list[NewSet]], None],
            advance: Callable[[int], None] | None) -> list[Outcome]:  # fmt: skip
    """The outcomes of the units' hosts. The workers read chunks of units and send the shapes they meet first;
    each shape is planned once, by one worker, as soon as it is met (a few tasks are queued at a time, shapes to
    plan before chunks to read); each host takes the outcome of its shape."""
    reads = _chunks(todo)
    hosts: list[HostRead] = []
    planned: dict[bytes, Outcome] = {}
    queued: set[bytes] = set()
    shapes: list[tuple[bytes, bytes]] = []
    while True:
        while len(tasks.running) < QUEUED_TASKS * jobs:
            if shapes:
                tasks.submit(_plan_shapes, shapes[:SHAPES_PER_TASK])
                del shapes[:SHAPES_PER_TASK]
            elif chunk := next(reads, None):
                tasks.submit(_read_chunk, chunk)
            else:
                break
        if not tasks.running:
            break
        task, result = tasks.next_result()
        if task.function is _plan_shapes:
            done, made = result
            keep(made)
            planned.update(done)
            continue
        found, new, made = result
        keep(made)
        hosts += found
        for digest, data in new:
            if digest not in queued:
                queued.add(digest)
                shapes.append((digest, data))
        if advance is not None:
            advance(len(task.argument))
    return [_outcome(host, planned) for host in hosts]


def _outcome(host: HostRead, planned: dict[bytes, Outcome]) -> Outcome:
    """The outcome of a host read: its error, its own outcome, or that of its shape."""
    name, workload, error, found = host
    if found is None:
        return Outcome(name=name, workload=workload, error=error)
    return found if isinstance(found, Outcome) else _named(planned[found], name)


class Task:
    """What a worker runs on what, how often it was given before, and its result once it has one."""

    def __init__(self, function: Callable[[Any], Any], argument: list[Any], tries: int) -> None:
        self.function = function
        self.argument = argument
        self.tries = tries
        self.done = False
        self.result: Any = None


LOST = "not planned: the process reading it ended without a result twice (killed: out of memory?)"


class PoolLost(Exception):
    """Worker processes keep ending without their results."""


class Tasks:
    """Worker processes, forked, each with a pipe of its own (no lock or queue shared between workers, which a
    killed worker would leave held or half written), and their tasks, oldest first. A worker runs one task at a
    time; when one ends without its result (killed: the out-of-memory killer) another takes its place, and its
    task is given again once, a unit or shape a task; a unit or shape lost again is reported: its hosts have the
    error :data:`LOST`, never another host's result."""

    def __init__(self, jobs: int) -> None:
        self.context = multiprocessing.get_context("fork")
        self.jobs = jobs
        self.running: deque[Task] = deque()
        self.waiting: deque[Task] = deque()
        self.workers: dict[Any, tuple[Any, Task | None]] = {}
        """Each worker's end of the pipe, to its process and the task it runs."""
        self.workers_lost = 0
        for _ in range(jobs):
            self._start()

    def __enter__(self) -> Tasks:
        return self

    def __exit__(self, *_: object) -> None:
        for conn in self.workers:
            with contextlib.suppress(OSError):  # a worker that has ended
                conn.send(None)
        for conn, (process, _task) in self.workers.items():
            process.join(1)
            if process.is_alive():
                process.kill()
                process.join()
            conn.close()

    def _start(self) -> None:
        mine, theirs = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(theirs, [*self.workers, mine]), daemon=True)
        process.start()
        theirs.close()
        self.workers[mine] = (process, None)

    def submit(self, function: Callable[[Any], Any], argument: list[Any]) -> None:
        task = Task(function, argument, 0)
        self.running.append(task)
        self.waiting.append(task)
        self._dispatch()

    def _dispatch(self) -> None:
        """Waiting tasks to idle workers."""
        for conn, (process, task) in self.workers.items():
            if not self.waiting:
                return
            if task is None:
                task = self.waiting.popleft()
                self.workers[conn] = (process, task)
                conn.send((task.function, task.argument))

    def next_result(self) -> tuple[Task, Any]:
        """The oldest task and its result, once it has one; a lost task gives way to what replaces it."""
        while not self.running[0].done:
            sentinels = {process.sentinel: conn for conn, (process, _) in self.workers.items()}
            for ready in multiprocessing.connection.wait([*self.workers, *sentinels]):
                conn = sentinels.get(ready, ready)
                if conn in self.workers:
                    self._receive(conn)
            self._dispatch()
        task = self.running.popleft()
        return task, task.result

    def _receive(self, conn: Any) -> None:
        process, task = self.workers[conn]
        try:
            ok, result = conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError):  # the worker ended, perhaps halfway through a reply
            self._lose(conn)
            return
        self.workers[conn] = (process, None)
        if task is not None:
            if not ok:
                raise result
            task.done, task.result = True, result

    def _lose(self, conn: Any) -> None:
        """A worker that ended: another takes its place, and its task is given again or given up."""
        process, task = self.workers.pop(conn)
        conn.close()
        process.join()
        self.workers_lost += 1
        if self.workers_lost > MAX_LOST_WORKERS:
            raise PoolLost(f"{self.workers_lost} worker processes ended without their results (killed: out of memory?)")
        self._start()
        if task is None:
            return
        place = self.running.index(task)
        del self.running[place]
        again = [_given_up(task)] if task.tries else [Task(task.function, [item], 1) for item in task.argument]
        for offset, new in enumerate(again):
            self.running.insert(place + offset, new)
        self.waiting.extendleft(reversed([new for new in again if not new.done]))


def _given_up(task: Task) -> Task:
    """The lost ``task`` of one unit or shape, done: its result is an error for each host."""
    done = Task(task.function, task.argument, task.tries)
    if task.function is _plan_shapes:
        ((digest, data),) = task.argument
        _, workload = pickle.loads(data)
        done.result = ([(digest, Outcome(name="", workload=workload, error=LOST))], [])
    else:
        ((_, path, name),) = task.argument
        host = name or path.name
        assert _worker is not None
        done.result = ([(host, _worker.workload(host), LOST, None)], [], [])
    done.done = True
    return done


def _chunks(todo: list[Unit]) -> Iterator[list[Unit]]:
    return (todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK))


def _named(shape: Outcome, name: str) -> Outcome:
    """The outcome of the host ``name``, which has the shape of ``shape``."""
    return Outcome(name=name, workload=shape.workload, error=shape.error, distro=shape.distro, kernel=shape.kernel,
                   plans=shape.plans, ids=shape.ids)  # fmt: skip
