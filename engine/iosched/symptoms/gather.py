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
    """Every reading of a :class:`~iosched.capture.source.Source`: /proc files, saved iostat/sar outputs
    (supportconfig's fs-diskio.txt runs ``iostat -x 1 4``), sar's text reports, kernel logs with hung-task
    reports. A single /proc
    snapshot gives what one snapshot can (PSI averages, dirty memory); diskstats needs two.

    A text met again (a hard link, a copy under another name) is read once: its first name stands for it."""
    seen: set[str] = set()

    def once(text: str | None, name: str) -> Iterator[Reading]:
        if text is not None and text not in seen:
            seen.add(text)
            yield read_text(text, name)

    for rel in FILES:
        yield from once(src.text(rel), rel)
    for directory in SAR_TEXT:
        for name in sorted(src.listdir(directory)):
            if name.startswith("sar"):
                yield from once(src.text(f"{directory}/{name}", MAX_LOG), f"{directory}/{name}")
    for prefix in COMMANDS:
        for key in src.command_names(prefix):
            yield from once(src.command(key), key)
    for rel in LOGS:
        if (text := src.text(rel, MAX_LOG, head=True)) is not None and "blocked for more than" in text:
            yield from once(text, rel)


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
