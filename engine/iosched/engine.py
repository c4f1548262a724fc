"""The rules engine: evaluate KB rules on a resolved context, settle conflicts, build the plan.

Pure: no I/O. Deterministic: rules are taken in id order and conflicts are settled by
(priority, severity, id), and every loser is kept in the plan with the reason it lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from iosched import __version__
from iosched import commands as cmd
from iosched.context import Context, Resolved, resolve
from iosched.kb import Kb, TunableRef
from iosched.kernel import in_range
from iosched.model import BootParameter, MountOption, QueueAttribute, Sysctl
from iosched.plan import STEP_ORDER, Overridden, Plan, Step, Warning

SEVERITY_RANK = {"warn": 0, "recommend": 1, "consider": 2}
_BOOT_VALUE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True)
class _Candidate:
    rule: Any
    target: str
    value: Any


def _rank(rule: Any) -> tuple[int, int, str]:
    return (-rule.priority, SEVERITY_RANK[rule.severity], rule.id)


def _why_lost(loser: Any, winner: Any) -> str:
    if loser.priority != winner.priority:
        return f"{winner.id} has priority {winner.priority}, {loser.id} {loser.priority}"
    if loser.severity != winner.severity:
        return f"same priority; {winner.id} is '{winner.severity}', {loser.id} '{loser.severity}'"
    return f"same priority and severity; {winner.id} sorts first"


def action_problem(kb: Kb, action: Any) -> str | None:
    """Why a rule action cannot apply in any context (None when it can): used by ``kb check``."""
    if action.to_fact is not None:
        return None
    value = action.to
    if action.set == "scheduler":
        return None if value in kb.elevators else f"scheduler {value!r} is not an elevator"
    setting = kb.setting(action.set)
    if setting is not None:
        if not setting.writable:
            return f"{action.set} is read-only"
        return None if setting.accepts(value) else f"{action.set} does not accept {value!r}"
    entity = kb.get(action.set)
    if isinstance(entity, BootParameter):
        ok = not entity.values or str(value) in entity.values
        return None if ok and _BOOT_VALUE.fullmatch(str(value)) else f"{action.set} does not accept {value!r}"
    if isinstance(entity, MountOption):
        return None if value is True else f"mount option {action.set} takes to: true"
    return f"{action.set!r} is not a scheduler, tunable, queue attribute, sysctl, boot parameter or mount option"


def _exists(setting: Any, r: Resolved) -> bool:
    return in_range(r.kernel, getattr(setting, "since", None), getattr(setting, "until", None))


def _scoped_default(setting: Any, r: Resolved) -> Any:
    """The default for this distribution and kernel, else the upstream one."""
    distro = r.distribution.id if r.distribution else None
    for scoped in setting.defaults:
        scope = scoped.scope
        if scope.distributions and distro not in scope.distributions:
            continue
        if in_range(r.kernel, scope.since, scope.until) and (scope.distributions or scope.since or scope.until):
            return scoped.value
    return setting.default


def _explained(rules: list[Any], entity: Any) -> dict[str, tuple[str, ...]]:
    """The step fields that say why: the rules, their summaries, and the sources of both rules and entity."""
    return {
        "because": tuple(x.id for x in rules),
        "reasons": tuple(x.summary for x in rules),
        "sources": _unique(s for x in (*rules, entity) for s in x.sources),
    }


def _fmt(value: Any) -> str:
    return str(int(value)) if isinstance(value, bool) else str(value)


class _Builder:
    """Builds steps for one resolved context; holds nothing but the inputs."""

    def __init__(self, kb: Kb, r: Resolved) -> None:
        self.kb, self.r = kb, r
        self.match = cmd.udev_match(r.context.serial, r.hardware.udev_match)

    def scheduler(self, value: str, rules: list[Any]) -> Step:
        r, dev = self.r, self.r.device
        previous = _default_scheduler(r)
        undo = f"sudo rm -f {cmd.UDEV_FILE} && {cmd.UDEV_RELOAD}"
        if previous:
            undo += f" && {cmd.sysfs_write(dev, 'scheduler', previous)}"
        elevator = self.kb.elevators[value]
        return Step(
            kind="scheduler", target="scheduler", value=value, title=f"Use the {value} elevator on {dev}",
            **_explained(rules, elevator),
            command=cmd.sysfs_write(dev, "scheduler", value), persist=cmd.udev_assignment("scheduler", value),
            persist_method="udev-rule", verify=cmd.sysfs_read(dev, "scheduler"), expect=f"[{value}]",
            undo=undo, previous=previous, alternatives=self._cmdline_alternative(value),
        )  # fmt: skip

    def _cmdline_alternative(self, value: str) -> tuple[str, ...]:
        param = self.kb.get("elevator")
        if param is None or self.r.io_path != "legacy":
            return ()
        effects = [e for e in param.effects if in_range(self.r.kernel, e.since, e.until)]
        if not any(e.effect in ("works", "legacy-only") for e in effects):
            return ()
        return (f"kernel command line (all legacy-path disks; works before 5.0 only): "
                f"{cmd.grub_append(f'elevator={value}', self.r.distribution)}",)  # fmt: skip

    def setting(self, kind: str, target: str, value: Any, rules: list[Any]) -> Step:
        r, dev = self.r, self.r.device
        entity = self.kb.get(target)
        setting = self.kb.setting(target)
        shown, previous = _fmt(value), _fmt(_scoped_default(setting, r))
        common = {"kind": kind, "target": target, "value": shown, "previous": previous, **_explained(rules, entity)}
        if kind == "sysctl":
            return Step(
                **common, title=f"Set {target} to {shown}", command=cmd.sysctl_write(target, shown),
                persist=cmd.sysctl_line(target, shown), persist_method="sysctl-d",
                verify=cmd.sysctl_read(target), expect=shown,
                undo=f"{cmd.sysctl_write(target, previous)} && sudo rm -f {cmd.SYSCTL_FILE}",
            )  # fmt: skip
        attribute = f"iosched/{setting.name}" if isinstance(entity, TunableRef) else setting.name
        return Step(
            **common, title=f"Set {attribute} of {dev} to {shown} {setting.unit}",
            command=cmd.sysfs_write(dev, attribute, shown), persist=cmd.udev_assignment(attribute, shown),
            persist_method="udev-rule", verify=cmd.sysfs_read(dev, attribute), expect=shown,
            undo=cmd.sysfs_write(dev, attribute, previous),
        )  # fmt: skip

    def boot_parameter(self, target: str, value: Any, rules: list[Any]) -> Step:
        param = f"{target}={_fmt(value)}"
        return Step(
            kind="boot-parameter", target=target, value=_fmt(value), title=f"Boot with {param}",
            **_explained(rules, self.kb.get(target)),
            command="(takes effect at the next boot)", persist=cmd.grub_append(param, self.r.distribution),
            persist_method="kernel-cmdline", verify="cat /proc/cmdline", expect=param,
            undo=cmd.grub_remove(param, self.r.distribution),
        )  # fmt: skip

    def mount_option(self, target: str, rules: list[Any]) -> Step:
        option = self.kb.get(target)
        return Step(
            kind="mount-option", target=target, value=option.option,
            title=f"Mount {option.filesystem} with {option.option}", **_explained(rules, option),
            command=f"sudo mount -o remount,{option.option} MOUNTPOINT",
            persist=f"add {option.option} to the options of MOUNTPOINT in /etc/fstab", persist_method="fstab",
            verify="findmnt -no OPTIONS MOUNTPOINT", expect=option.option,
            undo=f"remove {option.option} from /etc/fstab and sudo mount -o remount MOUNTPOINT",
        )  # fmt: skip


def _default_scheduler(r: Resolved) -> str | None:
    """The scheduler this device had before: the distribution's only default for its path, else the kernel's."""
    if r.distribution is not None and not r.facts.get("hw.dasd"):
        defaults = {d.elevator for d in r.distribution.default_schedulers
                    if d.io_path == r.io_path and d.via != "driver"}  # fmt: skip
        if len(defaults) == 1:
            return defaults.pop()
    return r.hardware.default_elevator.get(r.io_path)


def _unique(items: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _applicable(kb: Kb, r: Resolved, target: str, value: Any, scheduler: str | None) -> str | None:
    """Why a candidate cannot apply to this context (None when it can)."""
    if value is None:
        return "the fact it takes its value from is not known"
    if target == "scheduler":
        if r.io_path == "bio":
            return "this device has no request queue on this kernel, so no elevator"
        available = {e.name for e in kb.elevators_on(r.kernel, r.io_path)}
        return None if value in available else f"{value} is not available on {r.io_path} with kernel {r.kernel}"
    entity = kb.get(target)
    if isinstance(entity, TunableRef):
        if entity.elevator.name != scheduler:
            return f"applies to {entity.elevator.name}, and the plan uses {scheduler}"
        if not _exists(entity.tunable, r):
            return f"{target} does not exist on kernel {r.kernel}"
    elif isinstance(entity, QueueAttribute | Sysctl) and not _exists(entity, r):
        return f"{target} does not exist on kernel {r.kernel}"
    elif isinstance(entity, MountOption):
        if entity.disables_barriers and r.facts.get("cache") != "battery-backed":
            return "barriers stay on unless the write cache is protected (battery-backed)"
        if r.facts.get("fs") != entity.filesystem:
            return f"the file system is not {entity.filesystem}"
        if any(e.effect in ("removed", "fails") and in_range(r.kernel, e.since, e.until) for e in entity.effects):
            return f"{target} is not accepted by kernel {r.kernel}"
    return None


def advise(kb: Kb, ctx: Context) -> Plan:
    """The plan for ``ctx``: raises ContextError for input the KB cannot resolve."""
    r = resolve(kb, ctx)
    fired = [rule for rule in sorted(kb.section("rules"), key=lambda x: x.id) if rule.when.evaluate(r.facts)]
    candidates: dict[str, list[_Candidate]] = {}
    for rule in sorted(fired, key=_rank):
        for action in rule.actions:
            candidates.setdefault(action.set, []).append(_Candidate(rule, action.set, action.value(r.facts)))
    overridden: list[Overridden] = []
    chosen: dict[str, tuple[Any, list[Any]]] = {}

    def settle(target: str, scheduler: str | None) -> None:
        """The best applicable candidate wins; every other one is kept with the reason it lost."""
        applicable, lost = [], []
        for c in candidates.get(target, []):
            problem = _applicable(kb, r, target, c.value, scheduler)
            (lost if problem else applicable).append((c, problem))
        winner = applicable[0][0] if applicable else None
        lost += [(c, _why_lost(c.rule, winner.rule)) for c, _ in applicable if c.value != winner.value]
        for c, why in lost:
            overridden.append(Overridden(c.rule.id, target, _fmt(c.value), winner and winner.rule.id, why))
        if winner is not None:
            chosen[target] = (winner.value, [c.rule for c, _ in applicable if c.value == winner.value])

    settle("scheduler", None)
    scheduler = chosen["scheduler"][0] if "scheduler" in chosen else None
    for target in sorted(t for t in candidates if t != "scheduler"):
        settle(target, scheduler)

    builder = _Builder(kb, r)
    steps = [_step(kb, builder, target, value, rules) for target, (value, rules) in chosen.items()]
    steps.sort(key=lambda s: (STEP_ORDER.index(s.kind), s.target))
    return Plan(
        scheduler=scheduler, scheduler_rules=tuple(x.id for x in chosen.get("scheduler", (None, []))[1]),
        device=r.device, io_path=r.io_path, kernel=str(r.kernel), steps=tuple(steps),
        warnings=_warnings(kb, fired, steps), advice=_advice(fired), overridden=tuple(overridden),
        assumptions=r.assumptions,
        files=_files(r, builder.match, steps), context={k: v for k, v in ctx.__dict__.items() if v not in (None, ())},
        facts=dict(sorted(r.facts.items())), fired=tuple(x.id for x in fired), measured=ctx.measured_summary,
        kb_version=kb.version, iosched_version=__version__,
        sources=_unique(s for step in steps for s in step.sources),
    )  # fmt: skip


def _step(kb: Kb, builder: _Builder, target: str, value: Any, rules: list[Any]) -> Step:
    if target == "scheduler":
        return builder.scheduler(value, rules)
    entity = kb.get(target)
    if isinstance(entity, TunableRef):
        return builder.setting("tunable", target, value, rules)
    if isinstance(entity, QueueAttribute):
        return builder.setting("queue-attribute", target, value, rules)
    if isinstance(entity, Sysctl):
        return builder.setting("sysctl", target, value, rules)
    if isinstance(entity, BootParameter):
        return builder.boot_parameter(target, value, rules)
    return builder.mount_option(target, rules)


def _warnings(kb: Kb, fired: list[Any], steps: list[Step]) -> tuple[Warning, ...]:
    """Warn rules, plus the caveats of every rule that shaped a step and of every KB entity a step touches."""
    found: dict[str, Warning] = {}
    for rule in fired:
        if rule.severity == "warn":
            found[rule.id] = Warning(rule.id, "warn", f"{rule.summary} {rule.rationale}".strip(), None, rule.sources)
    used = {rule_id for step in steps for rule_id in step.because}
    caveat_ids = [c for rule in fired if rule.id in used or not rule.actions for c in rule.caveats]
    for step in steps:
        entity = kb.get(step.target)
        caveat_ids += list(getattr(getattr(entity, "tunable", entity), "caveats", ()))
    for caveat_id in caveat_ids:
        caveat = kb.get(caveat_id)
        if caveat is not None and caveat_id not in found:
            found[caveat_id] = Warning(caveat.id, "warn", f"{caveat.title}: {caveat.text}", caveat.risk,
                                       caveat.sources)  # fmt: skip
    return tuple(found.values())


def _advice(fired: list[Any]) -> tuple[Warning, ...]:
    return tuple(Warning(r.id, r.severity, f"{r.summary} {r.rationale}".strip(), None, r.sources)
                 for r in fired if not r.actions and r.severity != "warn")  # fmt: skip


def _files(r: Resolved, match: str, steps: list[Step]) -> dict[str, str]:
    """Whole persistent files: one udev rule (scheduler first) and one sysctl.d file."""
    files: dict[str, str] = {}
    udev = [s.persist for s in steps if s.persist_method == "udev-rule"]
    if udev:
        files[cmd.UDEV_FILE] = f"# iosched plan for {r.hardware.title} ({r.workload.title})\n" + cmd.udev_rule(
            match, udev
        )
    sysctl = [s.persist for s in steps if s.persist_method == "sysctl-d"]
    if sysctl:
        files[cmd.SYSCTL_FILE] = "# iosched plan\n" + "\n".join(sysctl)
    return files
