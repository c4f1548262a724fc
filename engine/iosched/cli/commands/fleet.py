"""``iosched fleet PATH...``: plan many hosts from Ansible facts, probe documents and captured roots."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from iosched.cli import path_argument
from iosched.cli.commands.advise import PERSIST_HELP, persist_option
from iosched.cli.output import write, write_markdown
from iosched.errors import UsageError
from iosched.normalise import option
from iosched.vocab import CACHES, GOALS

if TYPE_CHECKING:
    from pathlib import Path

    from rich.progress import Progress, TaskID

    from iosched.fleet import FleetHost, Summary
    from iosched.kb import Kb
    from iosched.system.model import System

FORMATS = ("text", "markdown", "json", "ansible")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "fleet", parents=[common], help="plan many hosts: Ansible facts, probe JSON, captured roots",
        description="Plan every host found under PATH... as 'iosched advise --root' would. A PATH is an Ansible "
        "fact cache or --tree directory, a file of 'ansible -m setup' console output, an 'iosched probe "
        "--format json' document, or a captured root (a copied tree, a sosreport, a supportconfig). A host "
        "that cannot be read is reported and the run goes on.",
    )  # fmt: skip
    p.add_argument("paths", nargs="+", type=path_argument, metavar="PATH")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--workload", help="the workload of every host (iosched list workloads)")
    which.add_argument("--workloads", type=path_argument, metavar="FILE",
                       help="YAML map of host names, patterns or inventory groups to workloads")  # fmt: skip
    p.add_argument("--goal", type=option("goal", GOALS), choices=GOALS, help="objective (default: each workload's)")
    p.add_argument("--cache", type=option("cache", CACHES), choices=CACHES, help="write cache protection of every host")
    p.add_argument("--persist", type=persist_option, metavar="METHOD", help=PERSIST_HELP)
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.set_defaults(func=cmd_fleet)


def _inputs(paths: list[Path], distros: set[str]) -> Iterator[tuple[str, System | None, str | None]]:
    """(host name, System or None, error) for every host under the paths, in order."""
    from iosched.system.ansible import FactsError, iter_facts
    from iosched.system.probejson import ProbeDocumentError, from_document, looks_like
    from iosched.system.reader import ProbeError, layout, read_root
    from iosched.yamlsrc import YamlError, read

    for path in paths:
        if not path.exists():
            raise UsageError(f"no such file or directory: {path}")
        if (path.is_dir() and layout(path) != "tree") or (path / "sys" / "block").is_dir():
            try:
                system = read_root(path)
                yield system.host.hostname or path.name, system, None
            except ProbeError as exc:
                yield path.name, None, str(exc)
            continue
        if path.is_file() and path.suffix == ".json":
            try:
                data = read(path, 16 * 1024 * 1024).data
            except YamlError:
                data = None
            if looks_like(data):
                try:
                    system = from_document(data)
                    yield system.host.hostname or path.stem, system, None
                except ProbeDocumentError as exc:
                    yield path.stem, None, str(exc)
                continue
        try:
            for facts in iter_facts(path, distros):
                yield facts.name, facts.system, facts.error
        except FactsError as exc:
            yield path.name, None, str(exc)


def _progress(total_hint: int) -> tuple[Progress, TaskID] | None:
    """A rich progress bar on a terminal's stderr, else nothing (stdout carries only the result)."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    progress = Progress(console=Console(stderr=True), transient=True)
    progress.start()
    return progress, progress.add_task("planning hosts", total=total_hint or None)


def cmd_fleet(args: argparse.Namespace) -> int:
    from iosched.context import Context
    from iosched.fleet import FleetHost, Planner, one_per_name, summarise
    from iosched.kbcache import load_checked
    from iosched.normalise import spelt, unknown, workload_spellings

    kb = load_checked(args.kb)
    planner = Planner(kb)
    mapping = None
    if args.workloads:
        from iosched.system.inventory import InventoryError
        from iosched.system.workloads import WorkloadMapError, read_workload_map

        try:
            mapping = read_workload_map(args.workloads, workload_spellings(kb.section("workloads")))
        except (WorkloadMapError, InventoryError) as exc:
            raise UsageError(str(exc)) from None
    if args.workload and spelt(args.workload, workload_spellings(kb.section("workloads"))) is None:
        spellings = workload_spellings(kb.section("workloads"))
        raise UsageError(unknown("workload", args.workload, sorted(planner.workloads), spellings))
    hosts: list[FleetHost] = []
    bar = _progress(0)
    try:
        for name, system, error in _inputs(args.paths, planner.distros):
            if system is None:
                hosts.append(FleetHost(name=name, error=error or "no facts"))
                continue
            workload = mapping.workload_for(name) if mapping else args.workload
            user = Context(workload=workload, goal=args.goal, cache=args.cache, persist=args.persist)
            hosts.append(planner.host(name, system, user))
            if bar is not None:
                bar[0].advance(bar[1])
    finally:
        if bar is not None:
            bar[0].stop()
    hosts = one_per_name(hosts)
    summary = summarise(hosts)
    if args.format == "json":
        write(json.dumps(_document(kb, hosts, summary), indent=1, ensure_ascii=False))
    elif args.format == "ansible":
        from iosched.fleet import targetable
        from iosched.render.escape import untrusted
        from iosched.render.plan_ansible import PlaybookError
        from iosched.render.plan_ansible import render as as_ansible

        hosts = [targetable(h) for h in hosts]
        for h in hosts:
            if h.plan is None:
                print(f"iosched: {untrusted(h.name, 80)}: not in the playbook: {untrusted(h.error)}", file=sys.stderr)
        try:
            write(as_ansible(kb, [(h.name, h.plan.plans) for h in hosts if h.plan is not None]))
        except PlaybookError as exc:
            raise UsageError(str(exc)) from None
    else:
        from iosched.render.fleet_markdown import render as as_markdown

        write_markdown(as_markdown(hosts, summary), args.format)
    return 0


def _document(kb: Kb, hosts: list[FleetHost], summary: Summary) -> dict[str, Any]:
    from iosched.render.plan_json import document

    return {
        "hosts": [
            {
                "host": h.name,
                "distro": h.plan.host.get("distro") if h.plan else None,
                "kernel": h.plan.host.get("kernel") if h.plan else None,
                "workload": h.workload,
                "plans": [{"device": p.device, **document(kb, p)} for p in h.plan.plans] if h.plan else [],
                "skipped": [dict(s.fields()) for s in h.plan.skipped] if h.plan else [],
                "errors": [h.error] if h.error else [],
            }
            for h in hosts
        ],
        "summary": {
            "hosts": summary.hosts,
            "devices": summary.devices,
            "changes": summary.changes,
            "errors": summary.errors,
            "groups": [{"count": g.count, "changes": list(g.changes), "hosts": list(g.hosts)} for g in summary.groups],
        },
    }
