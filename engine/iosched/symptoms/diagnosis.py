"""Observations -> the KB's causes, per device, each with its evidence and the context it gives the plan."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from iosched.symptoms.clock import shown
from iosched.symptoms.observe import Observation, Observed, active_window, facts, host_facts

HOST = "host"
"""The subject of a diagnosis made from host-wide inputs alone (a hung-task report, PSI), with no device measured."""
PARALLEL = re.compile(r"nvme\d+n\d+|md\d+")
"""Names of devices that serve requests in parallel whatever their queue count says (NVMe namespaces, md arrays)."""
_ACTIVE = ("obs.active.", "obs.r_await.weighted", "obs.w_await.weighted", "obs.r_starved", "obs.await.queueing",
           "obs.queue.growth")  # fmt: skip
"""Facts judged over the active window: their evidence names that window, not the whole capture's."""

_METRIC = {"util": "util", "queue": "queue", "r_await": "r_await", "w_await": "w_await", "await": "await",
           "r_s": "r_s", "rkb_s": "rkb_s", "rareq_kib": "rareq_kib", "write_share": "wkb_s",
           "read_merge_pct": "rrqm_s", "intervals": "util"}  # fmt: skip
_HOST = {
    "psi_some": "psi_some",
    "psi_full": "psi_full",
    "dirty_pct_of_limit": "dirty_kib",
    "stack_dirty_share": "stack_dirty",
    "hung_dirty": "hung_dirty",
    "hung_io": "hung_io",
}


_SYSFS = {"scheduler.now": "scheduler", "hw.rotational": "rotational"}


class Evidence(NamedTuple):
    fact: str
    value: Any
    window: str
    source: str


class Finding(NamedTuple):
    cause: Any
    evidence: tuple[Evidence, ...]


class DeviceDiagnosis(NamedTuple):
    device: str
    facts: dict[str, Any]
    findings: tuple[Finding, ...]
    """Causes that fit, highest priority first; empty when none does."""
    plan: dict[str, str]
    """The context the findings give ``advise`` (empty for a healthy device or no finding)."""
    shown: tuple[Evidence, ...] = ()
    """When no cause fits: every fact with its window and source, so the numbers still say where they come from."""

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


def _evidence(observed: Observed, device: str, wanted: Iterable[str], known: Mapping[str, Any]) -> tuple[Evidence, ...]:
    out = []
    for fact in wanted:
        o = _observation(observed, device, fact)
        value = known[fact]
        if fact.startswith(_ACTIVE) and (active := active_text(observed, device)):
            where, source = active
        elif fact.startswith("obs.devices."):
            where, source = "the median of each device over its window", "every device measured"
        elif o is not None:
            where, source = window(o), o.source
        else:
            attribute = _SYSFS.get(fact)
            where = "as read from the capture's sysfs" if attribute else "over the inputs"
            source = f"sys/block/{device}/queue/{attribute}" if attribute else "every input"
        out.append(Evidence(fact, round(value, 2) if isinstance(value, float) else value, where, source))
    return tuple(out)


def diagnose(kb: Any, observed: Observed, device_facts: Mapping[str, Mapping[str, Any]] | None = None,
             dirty_ratio: float | None = None) -> list[DeviceDiagnosis]:  # fmt: skip
    """Every device's diagnosis; ``device_facts`` adds what is known of a device (``scheduler.now``,
    ``hw.rotational``) from a capture's sysfs."""
    causes = sorted(kb.section("causes"), key=lambda c: (-c.priority, c.id))
    out = []
    subjects: dict[str, dict[str, Any]] = {}
    for device in observed.devices:
        known: dict[str, Any] = {**facts(observed, device, dirty_ratio), **(device_facts or {}).get(device, {})}
        if PARALLEL.fullmatch(device):
            known.setdefault("hw.multiqueue", True)
        subjects[device] = known
    if not observed.devices and (observed.counts or observed.means):  # events alone: a hung-task report
        subjects[HOST] = host_facts(observed, dirty_ratio)
    for device, known in subjects.items():
        fired = [c for c in causes if c.when.evaluate(known)]
        if any(not c.healthy for c in fired):
            fired = [c for c in fired if not c.healthy]
        plan: dict[str, str] = {}
        for cause in fired:
            for key, value in cause.plan.items():
                if key == "symptoms" and "symptoms" in plan:
                    plan[key] = ",".join(dict.fromkeys((*plan[key].split(","), value)))
                plan.setdefault(key, value)
        findings = tuple(Finding(c, _evidence(observed, device, c.shown(known), known)) for c in fired)
        plan = {} if device == HOST else plan  # a plan is for a device; the causes' advice says what to do
        shown = () if findings else _evidence(observed, device, sorted(known), known)
        out.append(DeviceDiagnosis(device, dict(sorted(known.items())), findings, plan, shown))
    return out
