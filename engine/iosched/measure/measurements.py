"""The normalized result of any benchmark, and the verdicts judged from them (plain Structs)."""

from __future__ import annotations

from typing import Any, Literal

from iosched.struct import Struct

Direction = Literal["higher", "lower"]
VerdictName = Literal["better", "worse", "tie", "insufficient"]


class Measurement(Struct, kw_only=False):
    """One number from one run: ``value`` in ``unit``; ``direction`` says which way is better.

    ``run`` numbers the runs of one scheduler, test and metric (1-based); ``round`` is the
    interleaved round the run belongs to (None when unknown); ``source`` names the file.
    """

    scheduler: str
    test: str
    metric: str
    value: float
    unit: str
    direction: Direction
    run: int | None = None
    round: int | None = None
    source: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.test, self.metric)

    def to_json(self) -> dict[str, Any]:
        return {
            "scheduler": self.scheduler, "test": self.test, "metric": self.metric, "value": self.value,
            "unit": self.unit, "direction": self.direction, "run": self.run, "round": self.round,
            "source": self.source,
        }  # fmt: skip


class Verdict(Struct):
    """A candidate scheduler against the baseline on one test and metric.

    ``ratio`` is median(candidate) / median(baseline) as measured; ``change`` is the improvement
    (+) or loss (-) as a fraction, whatever the metric's direction; ``noise`` is the floor a change
    must exceed. ``p_value`` is the exact two-sided Mann-Whitney p (unpaired); ``paired_p`` the exact
    sign-flip p of the per-round ratios when rounds are known; ``ci_low``/``ci_high`` a bootstrap 95 %
    interval of the ratio (information only with few runs).
    """

    scheduler: str
    test: str
    metric: str
    unit: str
    direction: Direction
    n_baseline: int
    n_candidate: int
    median_baseline: float | None
    median_candidate: float | None
    ratio: float | None
    change: float | None
    noise: float | None
    p_value: float | None
    paired_p: float | None
    ci_low: float | None
    ci_high: float | None
    verdict: VerdictName
    reason: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.fields())


class Judgement(Struct):
    """The whole comparison: verdicts, the recommended scheduler, and why."""

    goal: str
    baseline: str
    schedulers: tuple[str, ...]
    recommendation: str | None
    significant: bool
    reason: str
    verdicts: tuple[Verdict, ...]
    measurements: tuple[Measurement, ...] = ()
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON contract of ``iosched compare --format json``."""
        return {
            "goal": self.goal,
            "baseline": self.baseline,
            "recommendation": self.recommendation,
            "significant": self.significant,
            "reason": self.reason,
            "schedulers": list(self.schedulers),
            "verdicts": [v.to_json() for v in self.verdicts],
            "measurements": [m.to_json() for m in self.measurements],
            "notes": list(self.notes),
        }
