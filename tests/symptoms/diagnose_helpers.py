"""The captures in fixtures/: each scenario directory holds what capture.sh wrote (see fixtures/README.md)."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
PUBLIC = FIXTURES / "public"
SCENARIOS = (
    "healthy",
    "burst",
    "saturation",
    "flood-none",
    "flood-mq-deadline",
    "readahead",
    "dirty-flush",
    "slow-device",
    "writeback-none",
)
DEVICE_FORMATS = ("iostat-x-t.txt", "iostat-x.json", "sar-d.txt", "sadf-d.txt", "diskstats.log")
HOST_FILES = ("pressure-io.log", "meminfo.log", "proc-vmstat.log", "vmstat-1.txt")


def scenario(name: str) -> Path:
    return FIXTURES / name


def device(name: str) -> str:
    """The loop device the scenario loaded, as its captured sysfs tree names it: the only one, or the one stacked
    on the other (a loop over a file on it, whose sysfs has ``loop/backing_file``)."""
    block = scenario(name) / "root" / "sys" / "block"
    names = [p.name for p in block.iterdir()]
    (found,) = names if len(names) == 1 else [d for d in names if (block / d / "loop" / "backing_file").exists()]
    return found


def inputs(name: str, device_file: str = "iostat-x-t.txt") -> list[Path]:
    """One device format and every host file the scenario has (stack samples included)."""
    here = scenario(name)
    extra = [here / "stack.log"] if (here / "stack.log").exists() else []
    return [here / device_file, *(here / f for f in HOST_FILES), *extra]
