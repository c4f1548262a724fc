"""``iosched fleet PATH...``: plan many hosts from Ansible facts, probe documents and captured roots."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from iosched.cli import format_option, path_argument, write_rendered
from iosched.cli.commands.advise import PERSIST_HELP, persist_option
from iosched.errors import UsageError
from iosched.knowledge.normalise import option
from iosched.render import documents, formats
from iosched.vocab import CACHES, GOALS

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from iosched.fleet.pool import Needs


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
    format_option(p, formats.FLEET, "output format (default: text); json is one document with every host's plans; "
                  "jsonl is JSON Lines, each distinct plan set once and each host as its number and its disks' "
                  "serials and WWNs")  # fmt: skip
    p.add_argument("--out", type=path_argument, metavar="DIR", help="with --format ansible (required): write DIR/"
                   "iosched.yml, a playbook applying the role iosched.tuning.iosched, and DIR/inventory, a group per "
                   "distinct plan with its group_vars")  # fmt: skip
    p.add_argument("--jobs", type=_jobs, metavar="N", help="processes that read and plan hosts (default: one per "
                   "core; a small fleet is planned in one)")  # fmt: skip
    p.set_defaults(func=cmd_fleet)


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1024:
        raise argparse.ArgumentTypeError(f"not a number of processes from 1 to 1024: {text!r}")
    return int(text)


def _progress() -> Any:
    """A rich progress bar on a terminal's stderr, else None (stdout carries only the result)."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    return Progress(console=Console(stderr=True), transient=True)


def cmd_fleet(args: argparse.Namespace) -> int:
    from iosched.fleet.pool import LOST, PoolLost, Request, run
    from iosched.knowledge.kbcache import load_checked
    from iosched.knowledge.normalise import spelt, unknown, workload_spellings
    from iosched.planning.fleetplan import one_per_name, summarise

    if (args.format == "ansible") != (args.out is not None):
        raise UsageError("--format ansible writes a directory: give it --out DIR (and --out only with it)")
    kb = load_checked(args.kb)
    spellings = workload_spellings(kb.section("workloads"))
    mapping = None
    if args.workloads:
        from iosched.fleet.inventory import InventoryError
        from iosched.fleet.workloads import WorkloadMapError, read_workload_map

        try:
            mapping = read_workload_map(args.workloads, spellings)
        except (WorkloadMapError, InventoryError) as exc:
            raise UsageError(str(exc)) from None
    if args.workload and spelt(args.workload, spellings) is None:
        raise UsageError(unknown("workload", args.workload, sorted(set(spellings.values())), spellings))
    request = Request(workload=args.workload, goal=args.goal, cache=args.cache, persist=args.persist,
                      workloads=mapping)  # fmt: skip
    bar, task = _progress(), None

    def started(total: int) -> None:
        nonlocal task
        if bar is not None:
            bar.start()
            task = bar.add_task("planning hosts", total=total)

    def advance(done: int) -> None:
        if bar is not None and task is not None:
            bar.advance(task, done)

    workers_lost = 0

    def lost(workers: int) -> None:
        nonlocal workers_lost
        workers_lost = workers

    try:
        found, sets = run(kb, args.paths, request, _needs(args.format), jobs=args.jobs,
                          started=started, advance=advance, lost=lost)  # fmt: skip
    except PoolLost as exc:
        print(f"iosched: fleet: {exc}; nothing was written", file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.stop()
    hosts = one_per_name(found, sets)
    planned = documents.FleetPlans(hosts=hosts, sets=sets, summary=summarise(hosts, sets))
    options = formats.Options(encoding=sys.stdout.encoding, errors=sys.stdout.errors or "strict")
    rendered = formats.FLEET.render(kb, planned, args.format, options)
    if rendered.files is not None:
        _write_tree(args.out, rendered.notes, rendered.files)
    else:
        write_rendered(rendered, args.format)
    return _report_lost(workers_lost, sum(1 for h in found if h.error == LOST))


def _needs(fmt: str) -> Needs:
    """What the output in ``fmt`` needs of each plan set: the JSON outputs write their text; a playbook renders the
    plans; the Markdown report only counts and lists each set's changes. All but ``--format json`` state hosts
    alike but for their disks' serials and WWNs once, and each host's own identifiers apart."""
    from iosched.fleet.pool import Needs

    by_format = {"json": Needs(text=True), "jsonl": Needs(text=True, shared=True),
                 "ansible": Needs(plans=True, shared=True)}  # fmt: skip
    return by_format.get(fmt, Needs(shared=True))


def _write_tree(out: Path, notes: Iterable[str], files: Iterable[tuple[str, str]]) -> None:
    """Write ``(path, text)`` under ``out``; a group's variables left from an earlier run are removed (their
    group is gone from the inventory). Each file is written whole (a temporary file renamed over it). What the
    tree leaves out (``notes``) is told first; a tree that cannot be made is a usage error, and nothing is
    written (every name and value is checked before the first file)."""
    import os

    from iosched.render.plan_ansible import PlaybookError

    for note in notes:
        print(f"iosched: {note}", file=sys.stderr)
    files = iter(files)
    try:
        first = next(files)
    except PlaybookError as exc:
        raise UsageError(str(exc)) from None
    stale = set(out.glob("inventory/group_vars/iosched_plan_*.yml"))
    try:
        for path, text in [first, *files]:
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.partial")
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, target)
            stale.discard(target)
        for old in stale:
            old.unlink()
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None


def _report_lost(workers: int, hosts: int) -> int:
    """One line when worker processes ended without their results; exit status 1 when hosts were not planned
    for it (they are in the output with the error :data:`~iosched.fleet.pool.LOST`), else 0."""
    if not workers:
        return 0
    lost = f"{workers} worker process{'es' if workers > 1 else ''} ended without a result (killed: out of memory?)"
    if not hosts:
        print(f"iosched: fleet: {lost}; their hosts were read again and every host is planned", file=sys.stderr)
        return 0
    print(f"iosched: fleet: {lost}; {hosts} host{'s' if hosts > 1 else ''} lost twice, not planned", file=sys.stderr)
    return 1
