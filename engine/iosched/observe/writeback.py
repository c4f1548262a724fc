"""The writeback sysctls in effect (``vm.dirty_*``): ``/proc/sys/vm``, else a saved ``sysctl -a``."""

from __future__ import annotations

import re

from iosched.capture.source import Source

SYSCTL_LINE = re.compile(r"^(vm\.dirty_[a-z_]+)\s*=\s*(\S.*?)\s*$", re.MULTILINE)


def read_writeback(src: Source) -> tuple[dict[str, str], list[str]]:
    values = {}
    for name in src.listdir("proc/sys/vm"):
        if name.startswith("dirty_"):
            value = src.value(f"proc/sys/vm/{name}")
            if value is not None:
                values[f"vm.{name}"] = value
    if not values:
        for command in ("sysctl -a", "sysctl -a | grep ^vm"):
            values = dict(SYSCTL_LINE.findall(src.command(command) or ""))
            if values:
                break
    return values, ([] if values else ["writeback sysctls (proc/sys/vm/dirty_*, sysctl -a)"])
