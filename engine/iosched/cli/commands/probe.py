"""``iosched probe``: what a live host or a capture shows: kernel, distribution, devices, other tuners."""

from __future__ import annotations

import argparse
import json
from typing import Any

from iosched.cli import path_argument
from iosched.cli.output import write
from iosched.errors import UsageError

FORMATS = ("text", "json", "yaml")


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("probe", parents=[common], help="read a host (/ or a capture): devices, kernel, tuners")
    p.add_argument("--root", type=path_argument, default="/", metavar="DIR",
                   help="/ (default), a copied tree, an extracted sosreport or a supportconfig directory")  # fmt: skip
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.set_defaults(func=cmd_probe)


def cmd_probe(args: argparse.Namespace) -> int:
    from iosched.kbcache import load_checked
    from iosched.system.classify import classified
    from iosched.system.reader import ProbeError, layout, read_root

    try:
        system = read_root(args.root)
    except ProbeError as exc:
        raise UsageError(printable(str(exc))) from None
    kb = load_checked(args.kb)
    system = classified(
        system,
        {d.id for d in kb.section("distributions")},
        {h.id for h in kb.section("hardware")},
    )
    data = system.to_json()
    if args.format == "json":
        write(json.dumps(data, indent=2, ensure_ascii=True))
    elif args.format == "yaml":
        import yaml

        write(yaml.safe_dump(json.loads(json.dumps(data)), sort_keys=False, allow_unicode=False, width=120))
    else:
        write(render_text(system, layout(args.root)))
    return 0


def printable(value: Any) -> str:
    """One line of terminal-safe text: control characters dropped, tabs and newlines become spaces."""
    from iosched.system.source import clean

    return " ".join(clean(str(value)).split())


def render_text(system, layout_name: str) -> str:
    host = system.host
    release = host.os_release.get("PRETTY_NAME") or host.os_release.get("NAME") or "?"
    lines = [
        f"Source          {printable(system.source)} ({layout_name})",
        f"Host            {printable(host.hostname or '?')}",
        f"Distribution    {printable(release)}" + (f" (KB: {host.distro})" if host.distro else " (not in the KB)"),
        f"Kernel          {printable(host.kernel or '?')} {printable(host.arch or '')}".rstrip(),
        f"Virtualization  {printable(host.virtualization or '?')}",
        f"Command line    {printable(host.cmdline or '?')}",
        "Writeback       " + (printable(" ".join(f"{k}={v}" for k, v in sorted(system.sysctls.items()))) or "?"),
        f"Mounts          {len(system.mounts)}",
        "",
        _table(system.devices),
    ]
    if system.tuners:
        lines += ["", "Other tuners:"]
        for tuner in system.tuners:
            state = "" if tuner.active else " (not active)"
            settings = ", ".join(f"{k}={v}" for k, v in tuner.settings.items()) or "no block or writeback settings"
            lines.append("  " + printable(f"{tuner.kind} {tuner.name}{state}: {settings}"))
    if system.missing:
        lines += ["", "Not found in this capture:", *(f"  {printable(m)}" for m in system.missing)]
    return "\n".join(lines)


def _table(devices) -> str:
    """One row per device; the unattached loop devices in one line below."""
    from iosched.system import loops

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
    cells = [[printable(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    table = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(table + below)
