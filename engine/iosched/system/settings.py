"""Setting names as plans spell them: ``scheduler``, ``queue/ATTR``, ``iosched/TUNABLE``, sysctl names."""

from __future__ import annotations

from iosched.grammar import compiled

SYSCTL_NAME = r"[a-z0-9_][A-Za-z0-9_.*-]{0,127}"
QUEUE_PATH = r"(?:\S*/)?queue/([a-z0-9_]+(?:/[a-z0-9_]+)?)"
MAX_VALUE = 256


def queue_setting(attribute: str) -> str | None:
    """``queue/scheduler`` -> ``scheduler``, ``queue/iosched/X`` -> ``iosched/X``, ``queue/X`` -> ``queue/X``."""
    match = compiled(QUEUE_PATH).fullmatch(attribute.strip())
    if match is None:
        return None
    attr = match.group(1)
    if attr == "scheduler":
        return "scheduler"
    return attr if attr.startswith("iosched/") else f"queue/{attr}"


def sysctl_setting(key: str) -> str | None:
    """A sysctl key as ``sysctl`` prints it: a slash-separated key (sysctl.d(5)) has its separators swapped."""
    key = key.strip().lstrip("-")
    if "/" in key and ("." not in key or key.index("/") < key.index(".")):
        key = key.translate(str.maketrans("/.", "./"))
    return key if compiled(SYSCTL_NAME).fullmatch(key) else None


def value(text: str) -> str:
    """A setting's value as one bounded line."""
    return " ".join(text.split())[:MAX_VALUE]
