"""The rules engine: evaluate KB rules on a resolved context, settle conflicts, build the plan.

Pure: no I/O. Deterministic: rules are taken in id order and conflicts are settled by
(priority, severity, id), and every loser is kept in the plan with the reason it lost. A setting the device
was read to have already is reported as unchanged, never "changed" to itself; one only assumed (a default)
is a step that checks the device when it runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from iosched import __version__, persist
from iosched.knowledge.base import Kb, TunableRef
from iosched.knowledge.context import Context, Resolved, kb_assumption, resolve, resolve_alias
from iosched.knowledge.schema import BootParameter, MountOption, Rule, Setting, Sysctl
from iosched.knowledge.targets import step_kind_of, step_value
from iosched.mechanisms import tuned, udev
from iosched.persist import PersistError
from iosched.records import runtime
from iosched.records.plan import Assumption, Choice, Decision, Notice, Overridden, Plan, Step, Unchanged
from iosched.steps import STEP_KINDS, STEP_ORDER
from iosched.struct import Struct
from iosched.vocab import RISKS, SEVERITY_RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.records.evidence import Evidence
    from iosched.records.system import Tuner


class _Candidate(Struct, kw_only=False):
    rule: Rule
    target: str
    value: Any
    only: str | None = None


def _rank(rule: Rule) -> tuple[int, int, str]:
    return (-rule.priority, SEVERITY_RANK[rule.severity], rule.id)


def _why_lost(loser: Rule, winner: Rule) -> str:
    if loser.priority != winner.priority:
        return f"{winner.id} has priority {winner.priority}, {loser.id} {loser.priority}"
    if loser.severity != winner.severity:
        return f"same priority; {winner.id} is '{winner.severity}', {loser.id} '{loser.severity}'"
    return f"same priority and severity; {winner.id} sorts first"


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _scoped_default(setting: Setting, r: Resolved) -> Any:
    """The default for this distribution, kernel and device (a scope whose ``when`` the facts satisfy, or one
    with no condition the facts cannot decide), else the upstream one."""
    for scoped in setting.defaults:
        scope = scoped.scope
        if scope.distributions and not r.lineage.intersection(scope.distributions):
            continue
        if not scope.holds_on(r.kernel):
            continue
        if scope.when is not None:
            if scope.when.evaluate(r.facts):
                return scoped.value
        elif (scope.distributions or scope.since or scope.until) and not scope.condition:
            return scoped.value
    return setting.default


def _moves(only: str | None, value: Any, previous: Any) -> bool:
    """Whether setting ``value`` moves a numeric setting from ``previous`` the way an action asks (any way when
    it does not ask, or either is not a number)."""
    try:
        new, old = float(value), float(previous)
    except (TypeError, ValueError):
        return True
    return only is None or (new > old if only == "raise" else new < old)


def _applicable(kb: Kb, r: Resolved, target: str, value: Any, scheduler: str | None,
                now: Mapping[str, str], only: str | None = None) -> str | None:  # fmt: skip
    """Why a candidate cannot apply to this context (None when it can)."""
    if value is None:
        return "the fact it takes its value from is not known"
    setting = kb.setting(target) if target != "scheduler" else None
    if only is not None and setting is not None:
        have = now.get(target) or _scoped_default(setting, r)
        if not _moves(only, value, have):
            where = "the device has" if now.get(target) else f"the default here ({_default_where(r)}) is"
            return f"it would not {only} {target}: {where} {have}"
    if target == "scheduler":
        if r.io_path == "bio":
            return "this device has no request queue on this kernel, so no elevator"
        if value in r.offered:
            return None
        offered = ", ".join(r.offered) or "nothing"
        return f"{value} is not available on {r.io_path} with kernel {r.kernel} (the device offers {offered})"
    entity = kb.get(target)
    if isinstance(entity, TunableRef):
        if entity.elevator.name != scheduler:
            return f"applies to {entity.elevator.name}, and the device will run {scheduler}"
        if not entity.tunable.holds_on(r.kernel):
            return f"{target} does not exist on kernel {r.kernel}"
    elif isinstance(entity, Setting) and not entity.holds_on(r.kernel):
        return f"{target} does not exist on kernel {r.kernel}"
    elif isinstance(entity, MountOption):
        if entity.disables_barriers:
            return "a plan never turns write barriers off"
        if r.facts.get("fs") != entity.filesystem:
            return f"the file system is not {entity.filesystem}"
        if any(e.effect in ("removed", "fails") and e.holds_on(r.kernel) for e in entity.effects):
            return f"{target} is not accepted by kernel {r.kernel}"
    return None


def _default_where(r: Resolved) -> str:
    what = "rotational" if r.facts.get("hw.rotational") else "non-rotational"
    return f"kernel {r.kernel}, {what} {r.hardware.title}" + (f", {r.distribution.name}" if r.distribution else "")


def _settle(kb: Kb, r: Resolved, fired: list[Rule],
            now: Mapping[str, str]) -> tuple[dict[str, tuple[Any, list[Rule]]], list[Overridden]]:  # fmt: skip
    """The winning value and rules per target; every other candidate with the reason it lost."""
    candidates: dict[str, list[_Candidate]] = {}
    for rule in sorted(fired, key=_rank):
        for action in rule.actions:
            candidate = _Candidate(rule, action.set, action.value(r.facts), action.only)
            candidates.setdefault(action.set, []).append(candidate)
    overridden: list[Overridden] = []
    chosen: dict[str, tuple[Any, list[Rule]]] = {}

    def settle(target: str, scheduler: str | None) -> None:
        applicable: list[_Candidate] = []
        lost: list[tuple[_Candidate, str]] = []
        for c in candidates.get(target, []):
            problem = _applicable(kb, r, target, c.value, scheduler, now, c.only)
            if problem:
                lost.append((c, problem))
            else:
                applicable.append(c)
        winner = applicable[0] if applicable else None
        lost += [(c, _why_lost(c.rule, winner.rule)) for c in applicable if winner and c.value != winner.value]
        for c, why in lost:
            overridden.append(Overridden(rule=c.rule.id, target=target, value=step_value(c.value),
                                         winner=winner.rule.id if winner else None, why=why))  # fmt: skip
        if winner is not None:
            chosen[target] = (winner.value, [c.rule for c in applicable if c.value == winner.value])

    settle("scheduler", None)
    scheduler = chosen["scheduler"][0] if "scheduler" in chosen else r.previous
    for target in sorted(t for t in candidates if t != "scheduler"):
        settle(target, scheduler)
    return chosen, overridden


def _explained(rules: list[Rule], entity: Any) -> dict[str, Any]:
    """The step fields that say why: the rules, their summaries, and the sources of both rules and entity."""
    return {
        "because": tuple(x.id for x in rules),
        "reasons": tuple(x.summary for x in rules),
        "sources": _unique(s for x in (*rules, entity) for s in getattr(x, "sources", ())),
        "severity": "recommend" if any(x.severity != "consider" for x in rules) else "consider",
        "confirm": next((x.confirm for x in rules if x.confirm), None),
    }


def _step(kb: Kb, r: Resolved, target: str, value: Any, rules: list[Rule], now: Mapping[str, str]) -> Step | Unchanged:
    """The step that sets ``target``, or Unchanged when the machine was read to have the value already. A value
    only assumed (a default, the scheduler a distribution usually gives) makes a step that checks the device."""
    kind = step_kind_of(kb, target)
    assert kind is not None
    step_kind = STEP_KINDS[kind]
    device = None if step_kind.host_wide else r.device
    shown = step_value(value)
    at_boot: str | None = None
    coupled: tuple[str, ...] = ()
    if kind == "scheduler":
        entity: Any = kb.elevator(value)
        previous, title, at_boot = r.previous, f"Use the {value} elevator on {r.device}", r.boot_default
        observed = r.context.scheduler is not None
    elif kind == "mount-option":
        entity = kb.get(target)
        shown, previous = entity.option, _previous_option(kb, entity, r.context.mount_options)
        title = f"Mount the {entity.filesystem} file system with {entity.option}"
        observed = r.context.mount_options is not None
    elif kind == "boot-parameter":
        entity = kb.get(target)
        previous, title, observed = None, f"Boot with {target}={shown}", False
    else:
        entity = kb.get(target)
        setting = kb.setting(target)
        assert setting is not None
        at_boot = step_value(_scoped_default(setting, r))
        observed = target in now
        previous = now[target] if observed else at_boot
        where = f" of {r.device}" if device else ""
        name = target.removeprefix("queue.")
        title = f"Set {name}{where} to {shown}" + (f" {setting.unit}" if setting.unit not in ("name", "enum") else "")
        coupled = _coupled(kb, target)
    alternatives = _cmdline_alternative(kb, r, shown) if kind == "scheduler" else ()
    step = Step(
        kind=kind, target=target, value=shown, title=title, device=device, previous=previous,
        mountpoint=r.context.mountpoint if kind == "mount-option" else None,
        alternatives=alternatives, current_from="observed" if observed else "assumed",
        assumption=None if observed or previous is None else now_fact(target), coupled=coupled,
        **_explained(rules, entity),
    )  # fmt: skip
    return Unchanged(step=step, at_boot=at_boot) if observed and previous == shown else step


def now_fact(target: str) -> str:
    """The id of the assumption about a setting's current value (``scheduler.now``, ``vm.dirty_ratio.now``)."""
    return f"{target}.now"


def _coupled(kb: Kb, target: str) -> tuple[str, ...]:
    """The sysctls the kernel zeroes when ``target`` is written (its ``pairs_with`` in the KB)."""
    entity = kb.get(target)
    pair = getattr(entity, "pairs_with", None) if isinstance(entity, Sysctl) else None
    return (pair,) if pair else ()


def _assumed_now(kb: Kb, r: Resolved, steps: Sequence[Step]) -> tuple[Assumption, ...]:
    """One assumption per current value a step takes from the KB rather than from the machine."""
    found = []
    for step in steps:
        if step.assumption is None or step.kind == "scheduler":
            continue
        if step.kind == "mount-option":
            text = f"the file system is mounted with {step.previous} (the usual spelling); pass --mount-options"
            found.append(Assumption(fact=step.assumption, value=step.previous or "", text=text))
            continue
        setting = kb.setting(step.target)
        where = f" on {r.distribution.name}" if r.distribution else ""
        text = f"the default for kernel {r.kernel}{where}; not read from the machine"
        found.append(Assumption(fact=step.assumption, value=step.previous or "", text=text,
                                sources=tuple(setting.sources) if setting is not None else ()))  # fmt: skip
    return tuple(found)


def _cmdline_alternative(kb: Kb, r: Resolved, elevator: str) -> tuple[str, ...]:
    """``elevator=NAME`` on the kernel command line, where it still sets the default of legacy-path disks, or
    where a udev rule of the distribution applies it to every disk as it is added (RHEL 8/9)."""
    param = kb.get("elevator")
    if not isinstance(param, BootParameter):
        return ()
    rule = r.distribution.elevator_param_rule if r.distribution is not None else None
    if rule is not None and r.io_path == "blk-mq" and rule.reaches(r.device):
        skipped = " or ".join(rule.skipped)
        where = f"every disk{f' but {skipped}' if skipped else ''} as it is added, through {rule.path}"
    elif r.io_path == "legacy" and any(e.effect in ("works", "legacy-only") and e.holds_on(r.kernel)
                                       for e in param.effects):  # fmt: skip
        where = "every legacy-path disk; works before 5.0 only"
    else:
        return ()
    from iosched.mechanisms import cmdline  # a plan without this alternative writes no boot loader command

    loader = cmdline.loader_for(r.distribution, s390=bool(r.facts.get("hw.dasd")))
    return (f"kernel command line ({where}): {cmdline.add(f'elevator={elevator}', loader)}",)


def _previous_option(kb: Kb, option: MountOption, mounted: str | None) -> str | None:
    """The option a barrier-restoring mount option replaces: the one the file system is mounted with
    (``nobarrier`` or ``barrier=0``), else the file system's usual spelling of it."""
    if not option.restores_barriers:
        return None
    off = [o.option for o in kb.section("mount_options") if o.filesystem == option.filesystem and o.disables_barriers]
    current = [o for o in (mounted or "").split(",") if o in off]
    return current[0] if current else next(iter(off), None)


def holds(caveat: Any, r: Resolved) -> bool:
    """Whether a caveat is true of this plan's device and host: its scope's distributions include the plan's (a
    caveat about some distributions is not shown where none is given), its kernel range holds, and its ``when``
    holds on the plan's facts."""
    scope = caveat.scope
    if scope is None:
        return True
    if scope.distributions and not r.lineage.intersection(scope.distributions):
        return False
    return scope.holds_on(r.kernel) and (scope.when is None or scope.when.evaluate(r.facts))


def _scoped_caveats(kb: Kb, r: Resolved, steps: list[Step], scheduler: str | None) -> list[str]:
    """Caveats about something this plan involves. A caveat scoped to distributions reaches a plan there that
    involves any of its related ids (hardware, device class, the scheduler kept or set, a setting changed, a
    persistence method used); any other reaches plans for its related hardware or device class."""
    device = {r.hardware.id, *([r.device_class.id] if r.device_class is not None else [])}
    involved = device | {scheduler, r.previous, *(s.target for s in steps), *(s.persist_method for s in steps)}
    found = []
    for ident, distributions, related in kb.caveat_scopes():
        reaches = involved if distributions else device
        if (r.lineage.intersection(distributions) or not distributions) and reaches & set(related):
            caveat = kb.get(ident)
            if caveat is not None and holds(caveat, r):
                found.append(ident)
    return found


def _persisted(steps: list[Step], unchanged: tuple[Unchanged, ...], r: Resolved,
               tuners: Sequence[Tuner]) -> tuple[list[Step], tuple[Unchanged, ...]]:  # fmt: skip
    """Every step with the persistence method that keeps it (:func:`iosched.persist.method_for`); a
    setting already as planned takes the requested method where it can, else the one auto picks."""
    asked = persist.requested(r.context.persist)
    tunables = any(s.kind == "tunable" for s in steps)

    def method(step: Step, asked: tuple[str, ...]) -> str:
        return persist.method_for(step, asked, tuners, distro=r.distribution, s390=bool(r.facts.get("hw.dasd")),
                                 with_tunables=tunables)  # fmt: skip

    def kept(step: Step) -> str:
        try:
            return method(step, asked)
        except PersistError:
            return method(step, ())

    chosen = [_with(s, persist_method=method(s, asked)) for s in steps]
    return chosen, tuple(Unchanged(step=_with(u.step, persist_method=kept(u.step)), at_boot=u.at_boot)
                         for u in unchanged)  # fmt: skip


def _with(step: Step, **changes: Any) -> Step:
    return Step.build({**dict(step.fields()), **changes})


def _conflicts(kb: Kb, steps: list[Step], tuners: Sequence[Tuner]) -> list[Notice]:
    """One warning per KB caveat that explains why another tuner would override a step's persistence, naming
    each setting and the tuner that wins."""
    cases: dict[str, list[str]] = {}
    for step in steps:
        if (winner := persist.overriding(step.persist_method, step, tuners)) is not None:
            caveat_id = persist.caveat(step.persist_method, winner)
            cases.setdefault(caveat_id, []).append(persist.describe(step, winner))
    notices = []
    for caveat_id, described in cases.items():
        caveat = kb.get(caveat_id)
        assert caveat is not None, caveat_id  # bundled in kb/caveats
        detail = "; ".join(described)
        text = f"{caveat.title}: {detail}. {caveat.text}"
        notices.append(Notice(id=caveat_id, severity="warn", text=text, risk=caveat.risk, sources=caveat.sources,
                              detail=detail))  # fmt: skip
    return notices


def _notices(kb: Kb, r: Resolved, fired: list[Rule], steps: list[Step], scoped: list[str],
             conflicts: Sequence[Notice] = ()) -> tuple[Notice, ...]:  # fmt: skip
    """Warn rules, then the caveats that hold here (:func:`holds`) of every rule that shaped a step, of every KB
    entity a step touches and those scoped to the plan, and which other tuner would override a step's
    persistence; data-loss first, then availability, then performance."""
    found: dict[str, Notice] = {n.id: n for n in conflicts}
    said: set[str] = set()  # a warn rule says its caveats: one fact, one warning
    for rule in fired:
        if rule.severity == "warn":
            cited = [s for c in rule.caveats if (caveat := kb.get(c)) is not None for s in caveat.sources]
            found[rule.id] = Notice(id=rule.id, severity="warn", text=f"{rule.summary} {rule.rationale}".strip(),
                                    risk=_rule_risk(kb, rule), sources=_unique([*rule.sources, *cited]))  # fmt: skip
            said.update(rule.caveats)
    used = {rule_id for step in steps for rule_id in step.because}
    caveat_ids = [c for rule in fired if rule.id in used or not rule.actions for c in rule.caveats]
    for step in steps:
        caveat_ids += list(getattr(kb.get(step.target), "caveats", ()))
    for caveat_id in [*caveat_ids, *scoped]:
        caveat = kb.get(caveat_id)
        if caveat is not None and caveat_id not in found and caveat_id not in said and holds(caveat, r):
            found[caveat_id] = Notice(id=caveat.id, severity="warn", text=f"{caveat.title}: {caveat.text}",
                                      risk=caveat.risk, sources=caveat.sources)  # fmt: skip
    return _by_risk(found.values())


def _by_risk(notices: Iterable[Notice]) -> tuple[Notice, ...]:
    """Data-loss first, then availability, then performance, then advice (no risk)."""
    order: dict[str, int] = {risk: n for n, risk in enumerate(RISKS)}
    return tuple(sorted(notices, key=lambda n: order.get(n.risk or "", len(order))))


def _rule_risk(kb: Kb, rule: Rule) -> str | None:
    """A warn rule is about the most severe risk among its caveats."""
    risks = [c.risk for c in (kb.get(i) for i in rule.caveats) if c is not None]
    return next((risk for risk in RISKS if risk in risks), None)


def _advice(fired: list[Rule]) -> tuple[Notice, ...]:
    return tuple(Notice(id=r.id, severity=r.severity, text=f"{r.summary} {r.rationale}".strip(), sources=r.sources)
                 for r in fired if not r.actions and r.severity != "warn")  # fmt: skip


def udev_match(r: Resolved) -> str:
    """The udev terms for this plan's device: stable ids when known, else its kernel name; the preset's class
    match when the user named no device (the plan then covers every such disk)."""
    if r.context.device is None and not (r.context.serial or r.context.wwn):
        return udev.terms(r.hardware.udev_match)
    return udev.match(r.device, serial=r.context.serial, wwn=r.context.wwn)


def advise(kb: Kb, ctx: Context, evidence: Evidence | None = None, current: Mapping[str, str] | None = None,
           tuners: Sequence[Tuner] = ()) -> Plan:  # fmt: skip
    """The plan for ``ctx``; raises ContextError for input the KB cannot resolve, PersistError for a
    ``persist`` request that cannot keep the plan's steps.

    ``evidence`` is what the user's measurements say; ``current`` what the device and host have now, as read
    (setting name -> value), which then replaces the KB's defaults as every step's previous value; ``tuners``
    what else on the host sets these settings, in the order they act, which decides how the plan persists.
    """
    return plan_resolved(kb, resolve(kb, ctx), evidence, current, tuners)


def _boot_setters(r: Resolved, tuners: Sequence[Tuner], current: Mapping[str, str]) -> list[Tuner]:
    """The tuners on the host other than iosched's files that certainly set this device's scheduler at boot, in
    the order they act: udev rules whose matches the device meets (a rule that also matches on what was not read
    may not act), the tuning daemons, and elevator= itself where the device is on the legacy path."""
    base = tuned.base(tuners)

    def meets(t: Tuner) -> bool:
        have = {k.replace("/", ".", 1): v for k, v in t.requires.items()}
        return not t.conditional and all(current.get(k) == v for k, v in have.items())

    return [t for t in tuners if t.active and "scheduler" in t.settings and persist.concerns(t, r.device)
            and (t.kind != "kernel-cmdline" or r.io_path == "legacy") and meets(t)
            and not any(persist.is_ours(m, t, base) for m in ("udev-rule", "tuned-profile"))]  # fmt: skip


def boot_elevator(kb: Kb, ctx: Context, tuners: Sequence[Tuner] = (),
                  current: Mapping[str, str] | None = None) -> tuple[str | None, str]:  # fmt: skip
    """The elevator the device of ``ctx`` gets at boot on this host without iosched's files (the last setter among
    ``tuners`` whose elevator it offers, else its distribution's and kernel's choice), and why."""
    r, _ = _at_boot(kb, resolve(kb, ctx.replace(scheduler=None)), tuners, current or {})
    return r.boot_default, r.previous_why


def _ignored_elevator_param(kb: Kb, r: Resolved, tuner: Tuner) -> Notice:
    """The warning for an elevator= the host boots with that the kernel ignores on this blk-mq device (a udev rule
    of the distribution that applies it is a setter of its own)."""
    caveat = kb.get("elevator-param-ignored-on-blk-mq")
    assert caveat is not None  # bundled in kb/caveats
    detail = (f"the kernel command line has elevator={tuner.settings['scheduler']}, which the kernel does not apply "
              f"to {r.device}")  # fmt: skip
    text = f"{caveat.title}: {detail}. {caveat.summary or caveat.text}"
    return Notice(id=caveat.id, severity="warn", text=text, risk=caveat.risk, sources=caveat.sources, detail=detail)


def _at_boot(kb: Kb, r: Resolved, tuners: Sequence[Tuner],
             current: Mapping[str, str]) -> tuple[Resolved, tuple[Notice, ...]]:  # fmt: skip
    """``r`` with the scheduler the device really gets at boot: the last setter on the host whose elevator the
    device offers (the kernel rejects any other), else its default; and a warning per setter that is rejected."""
    rule = r.distribution.elevator_param_rule if r.distribution is not None else None
    applied = rule is not None and rule.reaches(r.device)
    notices = [_ignored_elevator_param(kb, r, t) for t in tuners if t.kind == "kernel-cmdline"
               and "scheduler" in t.settings and r.io_path == "blk-mq" and not applied]  # fmt: skip
    boot, why = r.boot_default, r.previous_why
    for tuner in _boot_setters(r, tuners, current):
        name = resolve_alias(kb, tuner.settings["scheduler"], r.offered)
        if name in r.offered:
            boot, why = name, f"set at boot by {tuner.name}"
            continue
        caveat = kb.get("boot-setter-elevator-not-offered")
        assert caveat is not None  # bundled in kb/caveats
        detail = (f"{tuner.name} writes {tuner.settings['scheduler']} to {r.device}, which offers "
                  f"{', '.join(r.offered) or 'no elevator'} on kernel {r.kernel}")  # fmt: skip
        notices.append(Notice(id=caveat.id, severity="warn", text=f"{caveat.title}: {detail}. {caveat.text}",
                              risk=caveat.risk, sources=caveat.sources, detail=detail))  # fmt: skip
    if boot == r.boot_default:
        return r, tuple(notices)
    changes: dict[str, Any] = {"boot_default": boot}
    if r.context.scheduler is None:
        changes |= {"previous": boot, "previous_why": why, "facts": {**r.facts, "scheduler.now": boot}}
    return Resolved.build({**dict(r.fields()), **changes}), tuple(notices)


HOST_VIRT = "host.virt"
"""The key of ``current`` (what was read) that holds the hypervisor of an observed host."""


def _host_facts(tuners: Sequence[Tuner], device: str, current: Mapping[str, str] | None) -> dict[str, Any]:
    """What the host read says that caveats and advice are about: elevator= on the command line, a noop someone
    wrote for this device, the other tuners, the hypervisor; none of them when no host was read (flags)."""
    if current is None:
        return {}
    active = [t for t in tuners if t.active]
    mine = [t for t in active if persist.concerns(t, device) or t.kind in ("sysctl.d", "saptune", "sapconf")]
    setters = [t for t in mine if "scheduler" in t.settings]
    facts: dict[str, Any] = {
        "cmdline.elevator": any(t.kind == "kernel-cmdline" and "scheduler" in t.settings for t in active),
        "host.tuners": bool(mine),
        "host.scheduler_setter": bool(setters),
        "host.tuned": any(t.kind in ("tuned", "ktune") for t in active),
        "host.sap_tuning": any(t.kind in ("saptune", "sapconf") for t in active),
    }
    if any(t.settings["scheduler"] == "noop" for t in setters):
        facts["noop.named"] = True
    if current.get(HOST_VIRT):
        facts["host.virt"] = current[HOST_VIRT]
    return facts


def _about(kb: Kb, notices: Sequence[Notice], facts: Mapping[str, Any], steps: Sequence[Step],
           scheduler: str | None) -> tuple[Notice, ...]:  # fmt: skip
    """The notices whose subject is present in this plan: a KB caveat's or rule's ``subject`` holds on the plan's
    facts and what its steps do (``plan.targets``, ``plan.kinds``, ``plan.persist``, ``plan.scheduler``)."""
    planned = {**facts, "plan.targets": frozenset(s.target for s in steps),
               "plan.kinds": frozenset(s.kind for s in steps),
               "plan.persist": frozenset(s.persist_method for s in steps if s.persist_method),
               "plan.scheduler": scheduler}  # fmt: skip
    return tuple(n for n in notices if (subject := getattr(kb.get(n.id), "subject", None)) is None
                 or subject.evaluate(planned))  # fmt: skip


def plan_resolved(kb: Kb, r: Resolved, evidence: Evidence | None = None, current: Mapping[str, str] | None = None,
                  tuners: Sequence[Tuner] = ()) -> Plan:  # fmt: skip
    """:func:`advise` for a context already resolved (:func:`iosched.knowledge.context.resolve`): a caller that plans
    one context twice, without and with evidence, resolves it once.

    Where the scheduler depends on a fact the plan does not know and the target reads when the step runs
    (:mod:`iosched.records.runtime`), the context is planned once per case: where the cases end with the same elevator
    the plan says so plainly; else its scheduler step carries each case, and the target decides."""
    plan = _planned(kb, r, evidence, current, tuners)
    fact = runtime.undecided(r.context.given(), r.facts)
    if fact is None:
        return plan
    cases = [_planned(kb, resolve(kb, r.context.replace(**{fact.field: case.context})), evidence, current, tuners)
             for case in fact.cases]  # fmt: skip
    decided = _decided(plan, fact, cases)
    return decided.replace(warnings=_overridden_decision(kb, decided, tuners))


def _overridden_decision(kb: Kb, plan: Plan, tuners: Sequence[Tuner]) -> tuple[Notice, ...]:
    """The plan's warnings, and which tuner would override a step decided on the machine: its persistence is
    chosen apart from the cases' (a udev rule tells the cases apart where a TuneD profile cannot)."""
    said = {w.id for w in plan.warnings}
    decided = [s for s in plan.steps if s.decide is not None]
    found = [n for n in _conflicts(kb, decided, tuners) if n.id not in said]
    return _by_risk((*plan.warnings, *_about(kb, found, plan.facts, plan.steps,
                                             plan.scheduler or plan.previous_scheduler)))  # fmt: skip


def _deciding(method: str) -> str:
    """The persistence of a step decided on the machine: a TuneD profile cannot tell the cases apart, a udev rule
    can (one line per case)."""
    return "udev-rule" if method == "tuned-profile" else method


def _scheduler_step(plan: Plan) -> Step | None:
    """The plan's scheduler step, or the one it found already in place."""
    found = [*plan.steps, *(u.step for u in plan.unchanged)]
    return next((s for s in found if s.kind == "scheduler"), None)


def _decided(plan: Plan, fact: runtime.RuntimeFact, cases: Sequence[Plan]) -> Plan:
    """``plan`` (made without the fact) with its scheduler decided on the machine among ``cases`` (one plan per
    case of the fact). Where every case ends with the same elevator the count does not matter: the plan of
    unknown count, without the warning that it depends."""
    steps = [_scheduler_step(p) for p in cases]
    ends = {s.value if s is not None else p.previous_scheduler for s, p in zip(steps, cases, strict=True)}
    if len(ends) == 1:
        return plan.replace(warnings=tuple(w for w in plan.warnings if w.id != fact.rule))
    template = next(s for s in steps if s is not None)
    choices = tuple(Choice(case=c.name, seen=c.seen, value=s.value if s else runtime.KEEP,
                           because=s.because if s else ()) for c, s in zip(fact.cases, steps, strict=True))  # fmt: skip
    decision = Decision(fact=fact.id, reader=fact.reader.replace("DEV", plan.device), choices=choices)
    rules = [s for s in steps if s is not None]
    own = [s for s in plan.steps if s.kind == "scheduler"]
    step = _with(template, value=runtime.token(decision), decide=decision,
                 because=_unique(x for s in rules for x in s.because),
                 reasons=_unique(x for s in rules for x in s.reasons),
                 sources=_unique(x for s in rules for x in s.sources),
                 previous=plan.previous_scheduler, current_from=own[0].current_from if own else template.current_from,
                 assumption=None if plan.context.get("scheduler") else now_fact("scheduler"),
                 persist_method=_deciding(template.persist_method))  # fmt: skip
    step = _with(step, title=f"Use {step.shown} on {plan.device}")
    ordered = sorted((step, *(s for s in plan.steps if s.kind != "scheduler")),
                     key=lambda s: (STEP_ORDER.index(s.kind), s.target))  # fmt: skip
    return plan.replace(
        steps=tuple(ordered),
        scheduler_rules=step.because,
        fired=_unique((*plan.fired, *step.because)),
        unchanged=tuple(u for u in plan.unchanged if u.step.kind != "scheduler"),
        sources=_unique((*plan.sources, *step.sources)),
    )


def _given(ctx: Context) -> dict[str, str]:
    """The plan's context: the fields set, but for the evidence of an inferred queue count, which its assumption
    says."""
    return {k: v for k, v in ctx.given().items() if k != "hw_queues_from"}


def _planned(kb: Kb, r: Resolved, evidence: Evidence | None, current: Mapping[str, str] | None,
             tuners: Sequence[Tuner]) -> Plan:  # fmt: skip
    """The plan of ``r`` as it is resolved (no fact decided on the machine)."""
    r, rejected = _at_boot(kb, r, tuners, current or {})
    facts = {**r.facts, **_host_facts(tuners, r.device, current)}
    if evidence is not None and evidence.best is not None:
        facts["measured.best"] = evidence.best
    fired = sorted(kb.rules_that_fire(facts), key=lambda x: x.id)
    r = Resolved.build({**dict(r.fields()), "facts": facts})
    now = dict(current or {})
    chosen, overridden = _settle(kb, r, fired, now)
    scheduler = chosen["scheduler"][0] if "scheduler" in chosen else None
    if scheduler not in (None, r.previous):  # a new elevator starts with its own defaults
        elevators = set(kb.elevator_names())
        now = {k: v for k, v in now.items() if k.split(".", 1)[0] not in elevators}
    built = [_step(kb, r, target, value, rules, now) for target, (value, rules) in chosen.items()]
    steps = sorted((s for s in built if isinstance(s, Step)), key=lambda s: (STEP_ORDER.index(s.kind), s.target))
    unchanged = tuple(u for u in built if isinstance(u, Unchanged))
    steps, unchanged = _persisted(steps, unchanged, r, tuners)
    rehearsal = bool(facts.get("device.rehearsal"))
    steps, left_out = _rehearsed(steps) if rehearsal else (steps, [])
    assumptions = tuple(a for a in r.assumptions if _bears(kb, a, facts))
    if r.context.scheduler is None and r.previous is not None:
        assumptions += (Assumption(fact=now_fact("scheduler"), value=r.previous, text=r.previous_why),)
    assumptions += _assumed_now(kb, r, steps)
    notices = _notices(kb, r, fired, steps, _scoped_caveats(kb, r, steps, scheduler or r.previous),
                       (*_conflicts(kb, steps, tuners), *rejected))  # fmt: skip
    return Plan(
        scheduler=scheduler, scheduler_rules=tuple(x.id for x in chosen.get("scheduler", (None, []))[1]),
        device=r.device, io_path=r.io_path, kernel=str(r.kernel), steps=tuple(steps),
        warnings=_left_out(fired, left_out, _about(kb, notices, facts, steps, scheduler or r.previous)),
        advice=_about(kb, _advice(fired), facts, steps, scheduler or r.previous), overridden=tuple(overridden),
        assumptions=assumptions, context=_given(r.context), facts=dict(sorted(facts.items())),
        fired=tuple(x.id for x in fired), previous_scheduler=r.previous, unchanged=unchanged,
        udev_match=udev_match(r), measured=evidence.summary if evidence else (), kb_version=kb.version,
        iosched_version=__version__, sources=_unique(s for step in steps for s in step.sources),
        tuned=None if rehearsal else tuned.base(tuners, r.device),
    )  # fmt: skip


def _bears(kb: Kb, assumption: Assumption, facts: Mapping[str, Any]) -> bool:
    """Whether the plan depends on an assumption: the subject of the KB's assumption holds on the plan's facts.
    A plan says only what concerns it (a volatile cache assumed where no file system's barriers are in question,
    no)."""
    entry = kb_assumption(kb, assumption.fact)
    return entry is None or entry.subject is None or entry.subject.evaluate(facts)


def _rehearsed(steps: list[Step]) -> tuple[list[Step], list[Step]]:
    """A rehearsal touches only its loop device: the steps of that device, persisted by nothing (after a reboot
    loopN is whatever is attached to it), and the host-wide steps it leaves out."""
    mine = [_with(s, persist_method="") for s in steps if s.device is not None]
    return mine, [s for s in steps if s.device is None]


def _left_out(fired: list[Rule], left_out: list[Step], notices: tuple[Notice, ...]) -> tuple[Notice, ...]:
    """The rehearsal's warning names the host-wide steps the rehearsal left out."""
    if not left_out:
        return notices
    rule = {x.id for x in fired if getattr(x.when, "fact", None) == "device.rehearsal"}
    said = "; ".join(f"{s.target} = {s.value}" for s in left_out)
    more = f" Left out of this rehearsal, as host-wide: {said}."
    return tuple(Notice.build({**dict(n.fields()), "text": n.text + more}) if n.id in rule else n for n in notices)
