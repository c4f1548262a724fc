"""The captures in fixtures/: each scenario directory holds what capture.sh wrote (see fixtures/README.md)."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
PUBLIC = FIXTURES / "public"
SCENARIOS = ("healthy", "burst", "saturation", "flood-none", "flood-mq-deadline", "readahead", "dirty-flush")
DEVICE_FORMATS = ("iostat-x-t.txt", "iostat-x.json", "sar-d.txt", "sadf-d.txt", "diskstats.log")
HOST_FILES = ("pressure-io.log", "meminfo.log", "proc-vmstat.log", "vmstat-1.txt")


def scenario(name: str) -> Path:
    return FIXTURES / name


def device(name: str) -> str:
    """The loop device the scenario measured, as its captured sysfs tree names it."""
    (found,) = [p.name for p in (scenario(name) / "root" / "sys" / "block").iterdir()]
    return found


def inputs(name: str, device_file: str = "iostat-x-t.txt") -> list[Path]:
    """One device format and every host file the scenario has (stack samples included)."""
    here = scenario(name)
    extra = [here / "stack.log"] if (here / "stack.log").exists() else []
    return [here / device_file, *(here / f for f in HOST_FILES), *extra]
