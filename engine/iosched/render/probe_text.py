"""The text of ``iosched probe``: a host as read, its devices in a table that fits the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from iosched.records.system import Device, Host, System


def printable(value: Any) -> str:
    """One line of terminal-safe text: control characters dropped, tabs and newlines become spaces."""
    from iosched.capture.source import clean

    return " ".join(clean(str(value)).split())


def render(system: System, layout_name: str, width: int | None = None) -> str:
    """The probe summary; on a terminal of ``width`` columns long values wrap and the device table is split
    into blocks of columns that fit."""
    host = system.host
    release = host.os_release.get("PRETTY_NAME") or host.os_release.get("NAME") or "?"
    lines = [
        f"Source          {printable(system.source)} ({layout_name})",
        f"Host            {printable(host.hostname or '?')}",
        f"Distribution    {printable(release)}" + _kb_release(host),
        f"Kernel          {printable(host.kernel or '?')} {printable(host.arch or '')}".rstrip(),
        f"Virtualization  {printable(host.virtualization or '?')}",
        f"Command line    {printable(host.cmdline or '?')}",
        "Writeback       " + (printable(" ".join(f"{k}={v}" for k, v in sorted(system.sysctls.items()))) or "?"),
        f"Mounts          {len(system.mounts)}",
    ]
    tail: list[str] = []
    if dasds := [d for d in system.devices if d.dasd_type]:
        tail += ["", "DASD (bus ID, type, block size):"]
        tail += ["  " + printable(f"{d.name} {d.bus_id or '?'} {d.dasd_type} {d.block_size or '?'}") for d in dasds]
    if system.tuners:
        tail += ["", "Other tuners:"]
        for tuner in system.tuners:
            state = "" if tuner.active else " (not active)"
            settings = ", ".join(f"{k}={v}" for k, v in tuner.settings.items()) or "no block or writeback settings"
            scope = f" (only {', '.join(tuner.devices)})" if tuner.devices else ""
            tail.append("  " + printable(f"{tuner.kind} {tuner.label()}{scope}{state}: {settings}"))
    if system.missing:
        tail += ["", "Not found in this capture:", *(f"  {printable(m)}" for m in system.missing)]
    return "\n".join([*_fill(lines, width, 16), "", _table(system.devices, width), *_fill(tail, width, 4)])


def _fill(lines: list[str], width: int | None, indent: int) -> list[str]:
    """Lines wrapped at ``width`` with a hanging indent (as they are when there is no width)."""
    if width is None:
        return lines
    import textwrap

    return [textwrap.fill(line, width, subsequent_indent=" " * indent, break_on_hyphens=False) for line in lines]


def _table(devices: Sequence[Device], width: int | None) -> str:
    """One row per device; the unattached loop devices in one line below."""
    from iosched.observe import loops
    from iosched.render.table import text_table

    empty = [d.name for d in devices if loops.unattached(d)]
    header = ("DEVICE", "KIND", "HW", "SCHEDULER", "OFFERED", "PATH", "ROT", "HWQ", "ON", "HOLDERS", "MODEL")
    rows = [header]
    for d in devices:
        if d.name in empty:
            continue
        rows.append((
            d.name, d.kind, d.hw or "-", d.scheduler or "-", " ".join(d.schedulers) or "-", d.io_path or "-",
            {True: "1", False: "0", None: "-"}[d.rotational], str(d.nr_hw_queues) if d.nr_hw_queues else "-",
            ",".join(d.slaves) or d.parent or "-", ",".join(d.holders) or "-",
            " ".join(x for x in (d.vendor, d.model) if x) or "-",
        ))  # fmt: skip
    below = [f"{printable(loops.names(empty))}: {loops.grouped(len(empty))}"] if empty else []
    if len(rows) == 1:
        return "\n".join(below or ["No block devices found."])
    return "\n".join([text_table([[printable(c) for c in row] for row in rows], width), *_fill(below, width, 4)])


def _kb_release(host: Host) -> str:
    """How the KB knows the host's release: by its id, as the nearest release of its family, or not at all."""
    from iosched.observe.classify import listed

    if not host.distro:
        return " (not in the KB)"
    nearest = "" if listed(host.os_release, host.distro, host.kernel) else ", the nearest release of its family"
    return f" (KB: {host.distro}{nearest})"
