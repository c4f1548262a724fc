"""The inputs a captured tree holds (a copied root, a sosreport, a supportconfig), and a live sampler."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from iosched.symptoms.detect import read_text
from iosched.symptoms.series import Reading

FILES = ("proc/diskstats", "proc/pressure/io", "proc/meminfo", "proc/vmstat")
LOGS = ("var/log/messages", "var/log/kern.log", "var/log/warn", "sos_commands/kernel/dmesg",
        "sos_commands/logs/journalctl_--no-pager")  # fmt: skip
COMMANDS = ("iostat", "sar -d", "sadf -d")
SAR_TEXT = ("var/log/sa", "sos_commands/sar")
"""sysstat's daily text reports (sarDD), and the ``sar -A -f saDD`` outputs of sos's sar plugin
(sos/report/plugins/sar.py)."""
MAX_LOG = 16 * 1024 * 1024


def from_source(src: Any) -> Iterator[Reading]:
    """Every reading of a :class:`~iosched.system.source.Source`: /proc files, saved iostat/sar outputs
    (supportconfig's fs-diskio.txt runs ``iostat -x 1 4``), sar's text reports, kernel logs with hung-task
    reports. A single /proc
    snapshot gives what one snapshot can (PSI averages, dirty memory); diskstats needs two."""
    for rel in FILES:
        if (text := src.text(rel)) is not None:
            yield read_text(text, rel)
    for directory in SAR_TEXT:
        for name in sorted(src.listdir(directory)):
            if name.startswith("sar") and (text := src.text(f"{directory}/{name}", MAX_LOG)) is not None:
                yield read_text(text, f"{directory}/{name}")
    for prefix in COMMANDS:
        for key in src.command_names(prefix):
            if (text := src.command(key)) is not None:
                yield read_text(text, key)
    for rel in LOGS:
        if (text := src.text(rel, MAX_LOG, head=True)) is not None and "blocked for more than" in text:
            yield read_text(text, rel)


def sample(seconds: int, read: Callable[[str], str], now: Callable[[], float],
           sleep: Callable[[float], None]) -> list[Reading]:  # fmt: skip
    """``seconds`` + 1 snapshots, one a second, of /proc/diskstats, PSI and meminfo, as readings."""
    logs: dict[str, list[str]] = {rel: [] for rel in FILES[:3]}
    for k in range(seconds + 1):
        if k:
            sleep(1.0)
        for rel, lines in logs.items():
            try:
                text = read(rel)
            except OSError:
                continue
            lines += [f"{now():.6f}", text.rstrip("\n")]
    return [read_text("\n".join(lines), "sampled live") for lines in logs.values() if lines]
