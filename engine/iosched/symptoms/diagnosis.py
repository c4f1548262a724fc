"""Observations -> the KB's causes, per device, each with its evidence and the context it gives the plan."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from iosched.symptoms.clock import shown
from iosched.symptoms.observations import Observation, Observed, active_window, facts, host_facts, phases, restricted

HOST = "host"
"""The subject of a diagnosis made from host-wide inputs alone (a hung-task report, PSI), with no device measured."""
PARALLEL = re.compile(r"nvme\d+n\d+|md\d+")
"""Names of devices that serve requests in parallel whatever their queue count says (NVMe namespaces, md arrays)."""
_ACTIVE = ("obs.active.", "obs.r_await.weighted", "obs.w_await.weighted", "obs.r_starved", "obs.await.queueing",
           "obs.await.weighted", "obs.queue.growth", "obs.queue.weighted")  # fmt: skip
"""Facts judged over the active window: their evidence names that window, not the whole capture's."""

_METRIC = {"util": "util", "queue": "queue", "r_await": "r_await", "w_await": "w_await", "await": "await",
           "r_s": "r_s", "rkb_s": "rkb_s", "rareq_kib": "rareq_kib", "write_share": "wkb_s",
           "read_merge_pct": "rrqm_s", "intervals": "util"}  # fmt: skip
_HOST = {
    "psi_some": "psi_some",
    "psi_full": "psi_full",
    "dirty_pct_of_limit": "dirty_kib",
    "dirty_pct_of_freerun": "dirty_kib",
    "stack_dirty_share": "stack_dirty",
    "hung_dirty": "hung_dirty",
    "hung_io": "hung_io",
    "psi_unexplained": "psi_some",
}


_SYSFS = {
    "scheduler.now": "queue/scheduler",
    "hw.rotational": "queue/rotational",
    "hw.multiqueue": "mq",
    "hw.intelligent": "device",
}
"""Where in ``sys/block/DEV/`` each fact read from a capture's sysfs comes from."""
CLASS_FACTS = ("hw.rotational", "hw.multiqueue", "hw.intelligent")
"""What decides how a device's numbers are judged: spinning, serving in parallel (several hardware queues, an
array that schedules I/O itself)."""


class Evidence(NamedTuple):
    fact: str
    value: Any
    window: str
    source: str


class Finding(NamedTuple):
    cause: Any
    evidence: tuple[Evidence, ...]
    judged: Mapping[str, Any]
    """The facts the cause was judged on: the device's, or its phase's."""


class DeviceDiagnosis(NamedTuple):
    device: str
    facts: dict[str, Any]
    findings: tuple[Finding, ...]
    """Causes that fit, highest priority first; empty when none does."""
    plan: dict[str, str]
    """The context the findings give ``advise`` (empty for a healthy device or no finding)."""
    shown: tuple[Evidence, ...] = ()
    """When no cause fits: every fact with its window and source, so the numbers still say where they come from."""
    stacking: str = ""
    """For a stacked device with a cause (an LV, a dm map, a loop over a file): where its queueing starts and
    which device the plan is for (:func:`attribute`)."""

    @property
    def healthy(self) -> bool:
        return bool(self.findings) and self.findings[0].cause.healthy


def window(o: Observation) -> str:
    if o.clock:
        return f"{shown(o.start)} to {shown(o.end)} UTC, {o.n} intervals"
    return f"samples {int(o.start)} to {int(o.end)} ({o.n} intervals, no clock times)"


def _observation(observed: Observed, device: str, fact: str) -> Observation | None:
    name = fact.removeprefix("obs.").split(".")[0]
    if name in _HOST:
        return observed.host.get(_HOST[name])
    return observed.devices.get(device, {}).get(_METRIC.get(name, name))


def active_text(observed: Observed, device: str) -> tuple[str, str] | None:
    """The active window of ``device`` as evidence shows it, and its source; None when it has none."""
    samples = active_window(observed.series.get(device, []))
    util = observed.devices.get(device, {}).get("util")
    if not samples or util is None:
        return None
    start, end, n = samples[0].t, samples[-1].t, len(samples)
    of = f"{n} active intervals of {util.n}"
    where = f"{shown(start)} to {shown(end)} UTC, {of}" if util.clock else f"samples {int(start)} to {int(end)} ({of})"
    return where, util.source


def _evidence(observed: Observed, device: str, wanted: Iterable[str], known: Mapping[str, Any],
              origins: Mapping[str, tuple[str, str]], phase: str = "") -> tuple[Evidence, ...]:  # fmt: skip
    """Each fact of ``wanted`` with its window and source; ``phase`` ("phase K of N: ") leads the window of
    the facts measured on the device over that phase (not the host's, nor its class)."""
    out = []
    for fact in wanted:
        o = _observation(observed, device, fact)
        value = known[fact]
        if fact.startswith(_ACTIVE) and (active := active_text(observed, device)):
            where, source = phase + active[0], active[1]
        elif fact.startswith("obs.devices."):
            where, source = "the median of each device over its window", "every device measured"
        elif o is not None:
            where, source = (phase if o.subject == device else "") + window(o), o.source
        elif fact in origins:
            where, source = origins[fact]
        else:
            where, source = "over the inputs", "every input"
        out.append(Evidence(fact, round(value, 2) if isinstance(value, float) else value, where, source))
    return tuple(out)


def device_class(device: str, read: Mapping[str, Any], hw: Any = None) -> dict[str, tuple[Any, str, str]]:
    """The class facts of ``device`` (:data:`CLASS_FACTS`), each with where it comes from: read from the capture's
    sysfs first, then what the name says (an NVMe namespace or md array serves in parallel), then ``--hw``'s
    preset (``hw``, a HardwarePreset), which the plan uses too."""
    out: dict[str, tuple[Any, str, str]] = {}
    for fact in CLASS_FACTS:
        if fact in read:
            out[fact] = (read[fact], "as read from the capture's sysfs", f"sys/block/{device}/{_SYSFS[fact]}")
        elif fact == "hw.multiqueue" and PARALLEL.fullmatch(device):
            out[fact] = (True, "from the device's name (NVMe namespaces and md arrays serve in parallel)", device)
        elif hw is not None and fact in hw.facts:
            out[fact] = (hw.facts[fact], f"the hardware named with --hw {hw.id}", f"iosched explain {hw.id}")
    return out


def _known(observed: Observed, device: str, read: Mapping[str, Any], found: Mapping[str, tuple[Any, str, str]],
           dirty_ratio: float | None) -> dict[str, Any]:  # fmt: skip
    return {**facts(observed, device, dirty_ratio), **read, **{fact: v for fact, (v, _, _) in found.items()}}


def _phase_findings(causes: list[Any], observed: Observed, device: str, read: Mapping[str, Any],
                    found: Mapping[str, tuple[Any, str, str]], dirty_ratio: float | None,
                    where: Mapping[str, tuple[str, str]]) -> list[Finding]:  # fmt: skip
    """Where the load changes within the active window (:func:`observe.phases`), each phase judged on its own:
    the causes that fit one, each once (its first phase), with evidence that names the phase."""
    found_phases = phases(observed.series[device])
    out: dict[str, Finding] = {}
    for k, samples in enumerate(found_phases if len(found_phases) > 1 else (), 1):
        sub = restricted(observed, device, samples)
        known = _known(sub, device, read, found, dirty_ratio)
        for cause in causes:
            if cause.healthy or cause.id in out or not cause.when.evaluate(known):
                continue
            label = f"phase {k} of {len(found_phases)}: "
            out[cause.id] = Finding(cause, _evidence(sub, device, cause.shown(known), known, where, label), known)
    return list(out.values())


def diagnose(kb: Any, observed: Observed, device_facts: Mapping[str, Mapping[str, Any]] | None = None,
             dirty_ratio: float | None = None, hw: Any = None) -> list[DeviceDiagnosis]:  # fmt: skip
    """Every device's diagnosis over its active window and, where the load changes in it, over each phase;
    ``device_facts`` adds what is known of a device (``scheduler.now``, ``hw.rotational``, ``hw.multiqueue``)
    from a capture's sysfs; ``hw`` (the ``--hw`` preset) gives the class of a device the capture does not
    (:func:`device_class`)."""
    causes = sorted(kb.section("causes"), key=lambda c: (-c.priority, c.id))
    out = []
    subjects: dict[str, dict[str, Any]] = {}
    origins: dict[str, dict[str, tuple[str, str]]] = {}
    classes: dict[str, dict[str, tuple[Any, str, str]]] = {}
    for device in observed.devices:
        read = (device_facts or {}).get(device, {})
        classes[device] = device_class(device, read, hw)
        subjects[device] = _known(observed, device, read, classes[device], dirty_ratio)
        origins[device] = {fact: (where, source) for fact, (_, where, source) in classes[device].items()}
        if "scheduler.now" in read:
            origins[device]["scheduler.now"] = (
                "as read from the capture's sysfs",
                f"sys/block/{device}/{_SYSFS['scheduler.now']}",
            )
    if not observed.devices and (observed.counts or observed.means):  # events alone: a hung-task report
        subjects[HOST] = host_facts(observed, dirty_ratio)
    for device, known in subjects.items():
        where = origins.get(device, {})
        found = [Finding(c, _evidence(observed, device, c.shown(known), known, where), known)
                 for c in causes if c.when.evaluate(known)]  # fmt: skip
        if device in observed.devices:
            read = (device_facts or {}).get(device, {})
            named = {f.cause.id for f in found}
            found += [f for f in _phase_findings(causes, observed, device, read, classes[device], dirty_ratio, where)
                      if f.cause.id not in named]  # fmt: skip
        if any(not f.cause.healthy for f in found):
            found = [f for f in found if not f.cause.healthy]
        findings = tuple(sorted(found, key=lambda f: (-f.cause.priority, f.cause.id)))
        plan: dict[str, str] = {}
        for finding in findings:
            for key, value in finding.cause.plan.items():
                if key == "symptoms" and "symptoms" in plan:
                    plan[key] = ",".join(dict.fromkeys((*plan[key].split(","), value)))
                plan.setdefault(key, value)
        plan = {} if device == HOST else plan  # a plan is for a device; the causes' advice says what to do
        shown = () if findings else _evidence(observed, device, sorted(known), known, where)
        out.append(DeviceDiagnosis(device, dict(sorted(known.items())), findings, plan, shown))
    return attribute(out, observed.stacked)


def attribute(diagnoses: list[DeviceDiagnosis], stacked: Mapping[str, tuple[str, ...]]) -> list[DeviceDiagnosis]:
    """Queueing attributed to the device where it starts: a stacked device with a cause whose disks below have
    a cause too (they are saturated, their reads starve) passes on its plan to them (a disk with a plan of its
    own keeps it); when they are measured and have none (healthy, or requests in flight on a device that serves
    them in parallel), the queue starts on the stacked device itself (a loop's worker, a dm target), whose
    plan it is, unless its causes say that its requests do not queue on it (``Cause.below``, a slow device):
    then their time is spent below it."""
    by = {d.device: d for d in diagnoses}
    for d in diagnoses:
        below = stacked.get(d.device, ())
        if not below or not d.findings or d.healthy:
            continue
        measured = [b for b in below if b in by]
        queued = [b for b in measured if by[b].findings and not by[b].healthy]
        names = ", ".join(queued or measured or below)
        if queued:
            text = f"the queueing starts on {names}, which {d.device} is built on: the plan is for {names}"
            by[d.device] = d._replace(plan={}, stacking=text)
            for b in queued:
                by[b] = by[b]._replace(plan=by[b].plan or d.plan)
        elif all(f.cause.below for f in d.findings):
            where, then = ("has no cause", "") if measured else ("not measured", f" or in {names}")
            text = (
                f"{names} under it {where}, and {d.device} queues nothing: each request's time is spent below "
                f"{d.device}, on the way to {names} (its backing file, the file system holding it, an I/O "
                f"limit){then}"
            )
            by[d.device] = d._replace(stacking=text)
        elif measured:
            text = f"{names} under it has no cause: the queueing starts on {d.device}, and the plan is for it"
            by[d.device] = d._replace(stacking=text)
        else:
            by[d.device] = d._replace(stacking=f"{names} under it not measured: where the queueing starts is not known")
    return [by[d.device] for d in diagnoses]
