"""Every plan the matrix and advisor pages show, computed by the engine when the site is built.

A plan is asked for each hardware preset x workload x *setting*, where a setting is a kernel era (upstream
defaults) or a distribution (its kernel and defaults). Kernel eras are found, not typed: the kernels the
distributions ship and the kernel assumed by default are asked in order, and consecutive kernels whose plans
are all the same form one era.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from iosched.kernel import KernelVersion
from iosched.knowledge.context import Context, ContextError
from iosched.planning.engine import advise
from iosched.records.plan import Plan

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb

ERA, DISTRIBUTION = "Kernel era (upstream defaults)", "Distribution (its kernel and defaults)"

Outcome = Plan | str
"""The plan, or the reason the engine refused the combination."""


@dataclass(frozen=True)
class Setting:
    """One choice of the kernel-era/distribution selector."""

    key: str
    label: str
    group: str
    note: str
    kernel: str | None = None
    distro: str | None = None

    def context(self, hw: str, workload: str) -> Context:
        return Context(hw=hw, workload=workload, kernel=self.kernel, distro=self.distro)


@dataclass(frozen=True)
class Grid:
    """The presets, workloads and settings, and the outcome of every combination."""

    hardware: tuple[Any, ...]
    workloads: tuple[Any, ...]
    settings: tuple[Setting, ...]
    default: Setting | None
    outcomes: dict[tuple[str, str, str], Outcome]

    def outcome(self, setting: Setting, hw: str, workload: str) -> Outcome:
        return self.outcomes[setting.key, hw, workload]


def _ask(kb: Kb, ctx: Context) -> Outcome:
    try:
        return advise(kb, ctx)
    except ContextError as exc:
        return str(exc)


def answers(outcome: Outcome) -> object:
    """What the pages show of an outcome, apart from the kernel itself."""
    if isinstance(outcome, str):
        return outcome
    p = outcome
    return p.scheduler, p.scheduler_rules, p.io_path, p.device, p.steps, p.unchanged, p.warnings, p.advice


def _kernels(kb: Kb, hw: str) -> tuple[list[str], str]:
    """The kernels to ask about (oldest first) and the one assumed when none is given."""
    default = advise(kb, Context(hw=hw)).kernel
    found = {default}
    for distro in kb.section("distributions"):
        plan = _ask(kb, Context(hw=hw, distro=distro.id))
        if not isinstance(plan, str):
            found.add(plan.kernel)
    return sorted(found, key=KernelVersion.parse), default


def distro_key(ident: str) -> str:
    """The selector's key for a distribution release (the advisor's ``#setting=KEY``)."""
    return f"distro-{ident}"


def _era(kernels: list[str], default: str) -> Setting:
    span = f"{kernels[0]} to {kernels[-1]}" if len(kernels) > 1 else kernels[0]
    assumed = default in kernels
    note = f"Upstream defaults on Linux {span}, computed with kernel {kernels[-1]}"
    note += "; this era holds the kernel assumed when none is given." if assumed else "."
    label = f"Linux {span}" + (" (default)" if assumed else "")
    return Setting(f"kernel-{kernels[-1]}", label, ERA, note, kernel=kernels[-1])


def build(kb: Kb) -> Grid:
    """Ask the engine about every combination; eras merge kernels whose plans are all the same."""
    hardware, workloads = kb.section("hardware"), kb.section("workloads")
    pairs = [(h.id, w.id) for h in hardware for w in workloads]
    outcomes: dict[tuple[str, str, str], Outcome] = {}
    settings: list[Setting] = []
    default: Setting | None = None
    if not pairs:
        return Grid(hardware, workloads, (), None, outcomes)
    kernels, assumed = _kernels(kb, hardware[0].id)
    runs: list[tuple[list[str], dict[tuple[str, str], Outcome]]] = []
    for kernel in kernels:
        asked = {(h, w): _ask(kb, Context(hw=h, workload=w, kernel=kernel)) for h, w in pairs}
        if runs and all(answers(asked[p]) == answers(runs[-1][1][p]) for p in pairs):
            runs[-1] = (runs[-1][0] + [kernel], asked)
        else:
            runs.append(([kernel], asked))
    for era_kernels, asked in runs:
        era = _era(era_kernels, assumed)
        settings.append(era)
        default = era if assumed in era_kernels else default
        outcomes.update({(era.key, h, w): outcome for (h, w), outcome in asked.items()})
    for distro in kb.section("distributions"):
        note = f"{distro.name}, with its kernel and its defaults."
        setting = Setting(distro_key(distro.id), distro.name, DISTRIBUTION, note, distro=distro.id)
        settings.append(setting)
        outcomes.update({(setting.key, h, w): _ask(kb, setting.context(h, w)) for h, w in pairs})
    return Grid(hardware, workloads, tuple(settings), default, outcomes)


_last: tuple[Any, Grid] | None = None


def grid(kb: Kb) -> Grid:
    """:func:`build` for this KB, computed once when both pages ask for it."""
    global _last
    if _last is None or _last[0] is not kb:
        _last = (kb, build(kb))
    return _last[1]
