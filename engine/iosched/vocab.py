"""The closed vocabularies, each declared once: the schema, the engine, the measurements and the CLI import
them from here (argparse ``choices`` included)."""

from __future__ import annotations

from typing import Literal, get_args

Goal = Literal["latency", "throughput", "fairness"]
Cache = Literal["volatile", "battery-backed", "none"]
IoPath = Literal["legacy", "blk-mq", "bio"]
"""``bio``: the device has no request queue and so no elevator (md, bio-based device-mapper, early NVMe)."""
ElevatorPath = Literal["legacy", "blk-mq"]
"""The paths that have elevators."""
Risk = Literal["data-loss", "availability", "performance"]
Severity = Literal["recommend", "consider", "warn"]
StepSeverity = Literal["recommend", "consider"]
"""The severities of a change: ``consider`` steps are applied only on request."""
CurrentFrom = Literal["observed", "assumed"]
"""Where a plan has a setting's current value from: read from the machine, or assumed from the KB."""
Operator = Literal["eq", "ne", "in", "not_in", "gt", "gte", "lt", "lte", "exists"]
Unit = Literal[
    "ms", "us", "ns", "s", "centisecs", "jiffies",
    "KiB", "bytes", "sectors", "pages",
    "requests", "count", "factor", "percent", "bool", "enum", "name", "string",
]  # fmt: skip

Symptom = Literal["dirty-stall"]
"""What the user has seen on the host; ``dirty-stall``: writers pause in balance_dirty_pages."""

GOALS: tuple[Goal, ...] = get_args(Goal)
SYMPTOMS: tuple[Symptom, ...] = get_args(Symptom)
CACHES: tuple[Cache, ...] = get_args(Cache)
IO_PATHS: tuple[IoPath, ...] = get_args(IoPath)
RISKS: tuple[Risk, ...] = get_args(Risk)
"""Most severe first: plans list data-loss warnings before availability before performance."""
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
OPERATORS: tuple[Operator, ...] = get_args(Operator)
