"""The closed vocabularies, each declared once: the schema, the engine, the measurements and the CLI import
them from here (argparse ``choices`` included)."""

from __future__ import annotations

from iosched.hints import Literal, get_args

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
StepKindName = Literal["scheduler", "tunable", "queue-attribute", "sysctl", "mount-option", "boot-parameter"]
"""The kinds of change a plan makes; each has one class in :mod:`iosched.steps`."""
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
NEGATIONS: tuple[Operator, ...] = ("ne", "not_in")
"""The operators that hold of a fact the context does not know."""
STEP_KIND_NAMES: tuple[StepKindName, ...] = get_args(StepKindName)

SEVERITY_RANK: dict[Severity, int] = {"warn": 0, "recommend": 1, "consider": 2}
"""Which rule wins a conflict of equal priority: warnings first, then recommendations."""
OPERATOR_SYMBOLS: dict[Operator, str] = {
    "eq": "==", "ne": "!=", "in": "in", "not_in": "not in", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=",
    "exists": "exists:",
}  # fmt: skip
"""How a condition shows each operator (``hw.rotational == true``)."""
GOAL_METRICS: dict[Goal, tuple[str, ...]] = {
    "throughput": ("iops", "tps", "requests", "ops", "bw"),
    "latency": ("clat_p99", "latency_p95", "clat_mean", "latency_avg", "time_per_op"),
    "fairness": ("clat_p99", "latency_p95"),
}
"""Per goal, the measured metrics that speak for it, in order of preference. Fairness is judged on tail latency:
what the slowest of the competing jobs waits (fio's p99 of a group of jobs is the worst job's)."""
GOAL_BASIS: dict[Goal, str] = {
    "throughput": "IOPS, transactions or bandwidth",
    "latency": "p99 or mean latency",
    "fairness": "tail latency (p99/p95; with competing jobs, the worst job's)",
}
"""What a goal is judged on, in words."""
