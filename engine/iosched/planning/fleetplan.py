"""Plans for a fleet: every host planned as ``advise --root`` would, and a summary of who needs what.

Pure and in memory. Hosts of a fleet are mostly alike, so plans are memoised on what decides them (the
device's context, with its kernel's version rather than its release, and current values): a thousand
identical guests cost one plan; physical hosts, alike but for the serial numbers and WWNs of their disks, cost
one plan and a substitution of their identifiers each. The outputs see each host as an :class:`Outcome`, a few
names and the key of its :class:`PlanSet`, which hosts with the same plans share: a fleet of 100,000 hosts holds
100,000 small records and a few hundred plan sets.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from operator import attrgetter
from typing import Any

from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, check_ids
from iosched.mechanisms import udev
from iosched.observe.classify import classified
from iosched.persist import PersistError
from iosched.planning.engine import advise
from iosched.planning.hostplan import HostPlan, Skipped, device_ids, plan_host
from iosched.records.evidence import Evidence
from iosched.records.plan import Plan
from iosched.records.system import Device, Host, System, Tuner
from iosched.struct import Struct

Ids = tuple[tuple[str | None, str | None], ...]
"""The serial and WWN of each plan of a host (each None where the plan names none)."""
NO_IDS: Ids = ()


class FleetHost(Struct):
    """One host of the fleet: its plans, or why it could not be read."""

    name: str
    plan: HostPlan | None = None
    error: str | None = None
    workload: str | None = None
    ids: Ids | None = None
    """Set when ``plan`` holds the plans its own are copied from (:meth:`Planner.host` with ``own=False``): the
    serial and WWN of each, which :meth:`Planner.owned` puts in."""


class PlanSet(Struct):
    """What hosts with the same device plans and skipped devices share."""

    plans: tuple[Plan, ...]
    """The plans; none when the output needs only their ``text`` (a fleet whose hosts all differ holds a plan
    set per host)."""
    skipped: tuple[Skipped, ...]
    changes: tuple[str, ...]
    """The changes, one line each (:func:`change_lines`)."""
    devices: int
    """How many devices are planned."""
    names: tuple[str, ...] = ()
    """The device of each plan."""
    text: bytes = b""
    """The plans and skipped devices as the JSON output writes them, compressed (:mod:`iosched.render.fleet_json`):
    what that output holds of them until it is written."""


class Outcome(Struct):
    """One host as the fleet's outputs see it: ``plans`` is the key of its :class:`PlanSet`, or None when it
    could not be planned (``error`` says why)."""

    name: str
    workload: str | None = None
    error: str | None = None
    distro: str | None = None
    kernel: str | None = None
    plans: Hashable | None = None
    ids: Ids = ()
    """When its plan set names identifiers by :data:`TOKENS` (:func:`shared`): the serial and WWN of each of its
    plans, in order."""


TOKENS = ("@serial@", "@wwn@")
"""What the plans a set of hosts shares say where each host's own serial and WWN go (:func:`shared`). ``@`` is in
no identifier (grammar.SERIAL), so a token is never one; JSON, udev rules and the shell write a token as they
write an identifier, unescaped. A TuneD profile would not (:func:`_in_tuned_profile`)."""


class Group(Struct):
    """Hosts that need exactly the same changes."""

    count: int
    changes: tuple[str, ...]
    hosts: tuple[str, ...]


class Summary(Struct):
    hosts: int
    devices: int
    changes: int
    errors: int
    groups: tuple[Group, ...]


class _HostMemo:
    """What a :class:`Planner` keeps of the hosts it planned, forgotten as one: the keys of ``plan_sets`` name the
    plans of ``own`` by identity, which ``own`` keeps alive."""

    def __init__(self) -> None:
        self.hosts: dict[Hashable, tuple[System | None, HostPlan | str]] = {}
        """Each shape's System (kept alive: the key holds identities of its parts) and plans or error."""
        self.own: dict[tuple[int, str | None, str | None, str | None], Plan] = {}
        """A device plan of the planner (by identity, which its memo keeps alive) as the plan of a host's own
        device: its kernel release, serial and WWN in its context, and the udev match they give. One object per
        plan and those, so that hosts alike share their plans."""
        self.origins: dict[int, Plan] = {}
        """The device plan each plan of ``own`` was copied from, by the copy's identity."""
        self.plan_sets: dict[Hashable, Any] = {}


class Planner:
    """Plans hosts against one KB, memoising identical device plans."""

    def __init__(self, kb: Kb, evidence: Evidence | None = None) -> None:
        self.kb = kb
        self.evidence = evidence
        self.distros = frozenset(d.id for d in kb.section("distributions"))
        self.presets = {h.id for h in kb.section("hardware")}
        self.workloads = {w.id for w in kb.section("workloads")}
        self._plans: dict[tuple[Any, ...], Plan] = {}
        """Plans by what decides them, the kernel by its version (hosts differ in kernel patch releases)."""
        self._versions: dict[str, str] = {}
        self._tuners: dict[tuple[Any, ...], int] = {}
        self._values = _Values()
        self._of_hosts = _HostMemo()
        self._named: dict[Hashable, tuple[System | None, HostPlan | str]] = {}
        """The plans of hosts whose disks have serials or WWNs, by :func:`_named_shape`, each plan as this planner
        made it, before any host's identifiers were put in (kept when it forgets its hosts)."""

    @property
    def plan_sets(self) -> dict[Hashable, Any]:
        """What a user of this planner keeps per plan set, by :func:`plan_set_key`: that key names plans by
        identity, which holds until this planner forgets its hosts (:meth:`forget_hosts`)."""
        return self._of_hosts.plan_sets

    def _advise(self, kb: Kb, ctx: Context, evidence: Evidence | None = None,
                current: Mapping[str, str] | None = None, tuners: Sequence[Tuner] = (), *,
                tuners_id: int | None = None) -> Plan:  # fmt: skip
        release, serial, wwn = ctx.kernel, ctx.serial, ctx.wwn
        version = self._version(release)
        alike = version == release and serial is None and wwn is None
        planned = ctx if alike else ctx.replace(kernel=version, serial=None, wwn=None)
        key = (planned, tuple(sorted((current or {}).items())), self._tuners_id(tuners) if tuners_id is None
               else tuners_id)  # fmt: skip
        found = self._plans.get(key)
        if found is None:
            found = self._plans[key] = advise(kb, planned, evidence, current, tuners)
        if not alike:
            check_ids(ctx)
        return self._own(found, release, serial, wwn)

    def _own(self, found: Plan, release: str | None, serial: str | None, wwn: str | None) -> Plan:
        """``found`` (a plan of this planner's memo) as the plan of a device with this kernel release, serial and
        WWN: one object per plan and those, so that hosts alike share their plans."""
        if serial is None and wwn is None and self._version(release) == release:
            return found
        memo = self._of_hosts
        own = memo.own.get((id(found), release, serial, wwn))
        if own is None:
            own = memo.own[id(found), release, serial, wwn] = _own_plan(found, release, serial, wwn)
            memo.origins[id(own)] = found
        return own

    def forget_hosts(self) -> None:
        """Forget the hosts planned: their shapes, their copies of plans and the plan sets kept for them (whose keys
        name those copies), but not the device plans, which hosts of every shape draw on. A fleet whose hosts share
        no plan sets (the serial numbers of physical disks) so holds those of its latest hosts only."""
        self._of_hosts = _HostMemo()

    @property
    def copies(self) -> int:
        """How many plans this planner holds copied for hosts' own releases, serials and WWNs."""
        return len(self._of_hosts.own)

    @property
    def device_plans(self) -> int:
        """How many device plans this planner holds (it holds every one it made)."""
        return len(self._plans)

    def origin(self, plan: Plan) -> Plan:
        """The plan this planner copied ``plan`` from for a host's own kernel release, serial and WWN (which only
        its context and udev match name); ``plan`` itself when it is no such copy."""
        return self._of_hosts.origins.get(id(plan), plan)

    def _version(self, release: str | None) -> str | None:
        """The kernel version that ``release`` names (``5.15.0-91-generic`` is 5.15), which is all of it that a
        plan depends on but its context; ``release`` itself when it names none (planning reports why)."""
        if release is None:
            return None
        found = self._versions.get(release)
        if found is None:
            try:
                found = str(KernelVersion.parse(release))
            except ValueError:
                found = release
            self._versions[release] = found
        return found

    def _tuners_id(self, tuners: Sequence[Tuner]) -> int:
        """A small number per distinct set of tuners: what the memo keys on, computed once per host."""
        key = tuple((t.kind, t.name, tuple(sorted(t.settings.items())), t.active, t.devices) for t in tuners)
        return self._tuners.setdefault(key, len(self._tuners))

    def owned(self, host: HostPlan, ids: Ids) -> HostPlan:
        """``host``, whose plans are those this planner copies from, with each plan's serial and WWN ``ids``."""
        release = host.host.get("kernel")
        return host.replace(
            plans=tuple(self._own(p, release, *found) for p, found in zip(host.plans, ids, strict=True))
        )

    def host(self, name: str, system: System, user: Context, *, own: bool = True) -> FleetHost:
        """The host's plans; a persistence request that does not fit the host is its error, not the fleet's.

        A host whose devices differ from those of a host planned before only in their serial numbers and WWNs
        (each disk of a physical fleet has its own) gets that host's plans with its own identifiers in them
        (:meth:`_own`), which is what planning it gives (nothing but a plan's context and udev match depends
        on them): a substitution, not a plan. With ``own`` False, such a host gets the plans they are copied
        from and its identifiers apart (``FleetHost.ids``), for an output that names them apart too."""
        ids = tuple(map(device_ids, system.devices))
        named = any(serial or wwn for serial, wwn in ids)
        key = (
            _named_shape(system, ids, self._values) if named else (*map(id, _shape(system)), *_host_shape(system.host)),
            user,
        )
        hosts = self._named if named else self._of_hosts.hosts
        found = hosts.get(key)
        if found is None:
            if len(hosts) >= MAX_SHAPES:
                hosts.clear()
            planned = self._plan_host(system, user)
            if named and not isinstance(planned, str):  # kept with the plans its hosts' own are copied from
                hosts[key] = (None, planned.replace(plans=tuple(map(self.origin, planned.plans))))
            else:
                hosts[key] = (system, planned)
        elif isinstance(found[1], str):
            return FleetHost(name=name, error=found[1], workload=user.workload)
        elif named:
            by_name = dict(zip((d.name for d in system.devices), ids, strict=True))
            plan_ids = tuple(by_name[p.device] for p in found[1].plans)
            if own or not any(serial or wwn for serial, wwn in plan_ids):
                planned = self.owned(found[1], plan_ids)
            else:
                return self._as_host(name, system, user, found[1], plan_ids)
        else:
            planned = found[1]
        if isinstance(planned, str):
            return FleetHost(name=name, error=planned, workload=user.workload)
        return self._as_host(name, system, user, planned)

    @staticmethod
    def _as_host(name: str, system: System, user: Context, planned: HostPlan, ids: Ids | None = None) -> FleetHost:
        """The host with these plans, which name its hostname and source."""
        if planned.host["hostname"] != system.host.hostname or planned.source != system.source:
            host = {**planned.host, "hostname": system.host.hostname}
            planned = planned.replace(host=host, source=system.source)
        return FleetHost(name=name, plan=planned, workload=user.workload, ids=ids)

    def _plan_host(self, system: System, user: Context) -> HostPlan | str:
        """The host's plans, or why its persistence request does not fit it."""
        system = classified(system, self.distros, self.presets)
        plan = partial(self._advise, tuners_id=self._tuners_id(system.tuners))
        try:
            return plan_host(self.kb, system, user, self.evidence, plan=plan)
        except PersistError as exc:
            return str(exc)


def _own_plan(found: Plan, release: str | None, serial: str | None, wwn: str | None) -> Plan:
    """``found``, a plan with its kernel's version for its release and no serial or WWN, as the plan of a device
    with these: they are in a plan's context, and a serial or WWN is what its udev rules match, but nothing else
    of it depends on them (the rules see no fact of them; a test plans both ways)."""
    given = {**found.context, "kernel": release, "serial": serial, "wwn": wwn}
    context = {name: given[name] for name in Context.__fields__ if given.get(name) is not None}
    if not (serial or wwn):
        return found.replace(context=context)
    return found.replace(context=context, udev_match=udev.match(found.device, serial=serial, wwn=wwn))


def _named_shape(system: System, ids: Sequence[tuple[str | None, str | None]], values: _Values) -> Hashable:
    """What the plans of a host whose disks have serials or WWNs depend on, but for its ``host``: every value read
    of it but those identifiers, of which only whether a plan names them
    (:func:`~iosched.planning.hostplan.device_ids`). Its
    parts are compared by value (``values``): no two such hosts share all of them."""
    devices = tuple((*_device_values(d), tuple(d.queue.items()), tuple(d.iosched.items()), serial is None,
                     wwn is None) for d, (serial, wwn) in zip(system.devices, ids, strict=True))  # fmt: skip
    host = tuple(values(v) for k, v in system.host.__dict__.items() if k != "hostname")
    return devices, host, *map(values, _parts(system))


class _Values:
    """:func:`_value` of the parts of Systems, by their identity: hosts read alike share their parts (mounts,
    tuners, what is missing), which a System never changes. Each part is kept while its value is (its identity is
    not reused), and the values are forgotten as one when they are many."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[Any, Hashable]] = {}

    def __call__(self, value: Any) -> Hashable:
        if value is None or type(value) is str:
            return value
        found = self._made.get(id(value))
        if found is None:
            if len(self._made) >= MAX_VALUES:
                self._made.clear()
            found = self._made[id(value)] = value, _value(value)
        return found[1]


def _value(value: Any) -> Hashable:
    """``value`` as a hashable value equal for equal values: records and mappings in it as tuples."""
    try:
        hash(value)
    except TypeError:  # a mapping in it
        if isinstance(value, Struct):
            return type(value), *(_value(v) for v in value.__dict__.values())
        if isinstance(value, Mapping):
            return tuple((k, _value(v)) for k, v in value.items())
        return tuple(map(_value, value))
    return value  # type: ignore[no-any-return]


_device_values = attrgetter(*(f for f in Device.__fields__ if f not in ("serial", "wwn", "queue", "iosched")))
"""What :func:`_named_shape` compares of a device as it is, but its mappings (``queue``, ``iosched``)."""
_parts = attrgetter(*(f for f in System.__fields__ if f not in ("host", "source", "devices")))
_shape = attrgetter(*(f for f in System.__fields__ if f not in ("host", "source")))
"""The fields of a System that hosts of one shape share, as objects (:func:`iosched.fleet.ansible_system.to_system`
makes them once per shape); their identities key the memo of host plans, which keeps the System they came from
alive so that no identity is reused while it is a key. ``host`` is compared by value but for its hostname, and
``source``, like the hostname, only names the host in its plans."""
MAX_SHAPES = 1024
MAX_VALUES = 4096


def _host_shape(host: Host) -> Iterator[Hashable]:
    for name, value in host.__dict__.items():
        if name != "hostname":
            yield name, value if isinstance(value, str | None) else id(value)


def plan_set_key(host: HostPlan) -> Hashable:
    """What makes two hosts' plan sets the same: the very plan objects (a :class:`Planner` keeps every plan
    it made, so their identities stand for their contents) and the skipped devices."""
    return tuple(map(id, host.plans)), host.skipped


def shared(planner: Planner, host: HostPlan, ids: Ids | None = None) -> tuple[Hashable, Ids]:
    """What hosts alike but for their disks' serials and WWNs share: the key of their plan set (:func:`with_tokens`
    gives its plans), and the host's own serial and WWN per plan (none when its plans name none, and then the key
    is :func:`plan_set_key`). ``ids``: the host's plans are those its own are copied from, and these its
    identifiers (``FleetHost.ids``), which name some."""
    if ids is None:
        ids = tuple((p.context.get("serial"), p.context.get("wwn")) for p in host.plans)
    if not any(serial or wwn for serial, wwn in ids) or _in_tuned_profile(host):
        return plan_set_key(host), NO_IDS
    origins = tuple(id(planner.origin(p)) for p in host.plans)
    return (origins, host.skipped, host.host.get("kernel"), tuple((s is None, w is None) for s, w in ids)), ids


def _in_tuned_profile(host: HostPlan) -> bool:
    """Whether a plan of ``host`` persists in a TuneD profile, which names a disk by a regular expression of its
    WWN or serial (``.`` written ``[.]``): no token stands for the identifier there, so the host's plan set is its
    own."""
    return any(step.persist_method == "tuned-profile" for plan in host.plans for step in plan.steps)


def with_tokens(planner: Planner, host: HostPlan, ids: Ids) -> HostPlan:
    """``host`` with :data:`TOKENS` for the serials and WWNs ``ids`` of its plans (:func:`shared`)."""
    release, serial_token, wwn_token = host.host.get("kernel"), *TOKENS
    plans = tuple(_own_plan(planner.origin(p), release, serial and serial_token, wwn and wwn_token)
                  for p, (serial, wwn) in zip(host.plans, ids, strict=True))  # fmt: skip
    return host.replace(plans=plans)


def plan_set(host: HostPlan) -> PlanSet:
    return PlanSet(plans=host.plans, skipped=host.skipped, changes=change_lines(host), devices=len(host.plans),
                   names=tuple(p.device for p in host.plans))  # fmt: skip


def outcome(host: FleetHost, plans: Hashable | None, ids: Ids = NO_IDS) -> Outcome:
    """The outcome of a planned host whose plan set is stored under ``plans`` (and its identifiers, when that set
    names them by :data:`TOKENS`), or of one that failed."""
    if host.plan is None:
        return Outcome(name=host.name, workload=host.workload, error=host.error or "no facts")
    facts = host.plan.host
    return Outcome(name=host.name, workload=host.workload, distro=facts.get("distro"), kernel=facts.get("kernel"),
                   plans=plans, ids=ids)  # fmt: skip


def targetable(host: Outcome) -> Outcome:
    """``host``, or, when a playbook could not target its name safely, ``host`` reported with the reason."""
    from iosched.grammar import host_problem

    problem = host_problem(host.name) if host.plans is not None else None
    if problem is None:
        return host
    return Outcome(name=host.name, error=problem, workload=host.workload)


def one_per_name(outcomes: Sequence[Outcome], sets: Mapping[Hashable, PlanSet]) -> list[Outcome]:
    """Every host name planned at most once. Documents that plan a host alike (a fact cache and a ``--tree``
    directory of one inventory) give one plan, the last; documents that name one host but plan it differently
    are all reported and none is planned: a capture's hostname is only its claim, and no document may steer
    the plan of the host another one describes."""
    planned: dict[str, list[int]] = defaultdict(list)
    for i, host in enumerate(outcomes):
        if host.plans is not None:
            planned[host.name].append(i)
    result = list(outcomes)
    for name, indices in planned.items():
        last = sets[outcomes[indices[-1]].plans]
        alike = all(sets[outcomes[i].plans] == last for i in indices)
        why = ("read again from a later document with the same plan, which is the one planned" if alike
               else f"{len(indices)} documents name this host and plan it differently; none is planned")  # fmt: skip
        for i in indices[:-1] if alike else indices:
            result[i] = Outcome(name=name, error=why, workload=outcomes[i].workload)
    return result


def change_lines(host: HostPlan) -> tuple[str, ...]:
    """A host's changes, one line each: ``sda scheduler mq-deadline -> none (IOS105)``; a step whose current
    value was assumed to be its target already is a check: ``sda scheduler check none (assumed) (IOS105)``."""
    lines = []
    for plan in host.plans:
        for step in plan.steps:
            where = step.device or "host"
            change = (f"check {step.value} (assumed)" if step.expected_already
                      else f"{step.previous or '?'} -> {step.shown}")  # fmt: skip
            lines.append(f"{where} {step.target} {change} ({', '.join(step.because)})")
    return tuple(dict.fromkeys(lines))


def summarise(hosts: Iterable[Outcome], sets: Mapping[Hashable, PlanSet]) -> Summary:
    """How many hosts, devices and changes; hosts grouped by identical change sets, largest group first."""
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    counts: Counter[str] = Counter()
    for host in hosts:
        if host.plans is None:
            counts["errors"] += 1
            continue
        found = sets[host.plans]
        counts["hosts"] += 1
        counts["devices"] += found.devices
        counts["changes"] += len(found.changes)
        groups[found.changes].append(host.name)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    return Summary(
        hosts=counts["hosts"], devices=counts["devices"], changes=counts["changes"], errors=counts["errors"],
        groups=tuple(Group(count=len(names), changes=changes, hosts=tuple(names)) for changes, names in ordered),
    )  # fmt: skip
