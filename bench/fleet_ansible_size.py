"""The size of a fleet's Ansible output: one playbook carrying every plan's tasks, against the variables tree
of ``iosched fleet --format ansible --out DIR`` (the tasks once, in the iosched.tuning collection).

Run: python bench/fleet_ansible_size.py [--hosts 1000] [--serials]. Writes the bench fleet of
bench/fleet_files.py (the same real fact documents, varied the same way, seed 42) as a jsonfile fact cache, runs
``iosched fleet --format ansible --out DIR`` on it, and renders the same hosts' plans as the one playbook
(:func:`iosched.render.plan_ansible.stream`, what ``fleet --format ansible`` wrote before the tree). Prints the
bytes and lines of each, the tree's share of the playbook, and the size of the collection's role. Target: the tree
under 10% of what ``fleet --format ansible`` wrote for 1,000 hosts before the tree (:data:`BEFORE`).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from fleet_files import distributions, real_documents, variant, write_cache

ROOT = Path(__file__).resolve().parents[1]
ROLE = ROOT / "ansible_collections/iosched/tuning/roles/iosched"
BEFORE = 3_862_368
"""Bytes of the one playbook that ``fleet --format ansible`` wrote for the 1,000 hosts of this bench (66,794 lines)
before it wrote the tree, the plans' file contents and warnings in every play that had them; measured once, at
the commit before the collection. The playbook this script renders now shares those texts as the tree does."""


def measure(files: list[Path]) -> tuple[int, int]:
    """Bytes and lines of ``files``."""
    data = [f.read_bytes() for f in files]
    return sum(map(len, data)), sum(d.count(b"\n") for d in data)


def playbook(cache: Path, workload: str) -> str:
    """The one playbook of every host's plans, as ``fleet --format ansible`` wrote it to stdout."""
    from iosched.fleet.pool import Needs, Request, run
    from iosched.knowledge.kbcache import load_checked
    from iosched.planning.fleetplan import one_per_name, targetable
    from iosched.render.plan_ansible import stream

    kb = load_checked(None)
    found, sets = run(kb, [cache], Request(workload=workload, goal=None, cache=None, persist=None, workloads=None),
                      Needs(plans=True), jobs=1)  # fmt: skip
    hosts = [targetable(h) for h in one_per_name(found, sets)]
    return "".join(stream(kb, ((h.name, h.plans, sets[h.plans].plans) for h in hosts if h.plans is not None)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hosts", type=int, default=1_000)
    parser.add_argument("--workload", default="db")
    parser.add_argument("--serials", action="store_true", help="disks with serial numbers (no two hosts alike)")
    args = parser.parse_args()
    rng = random.Random(42)
    docs, distros = real_documents(False), distributions()
    texts = [json.dumps(variant(docs[i % len(docs)], rng.choice(distros), rng, args.serials), indent=4, sort_keys=True)
             for i in range(256)]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        cache, out = Path(tmp) / "cache", Path(tmp) / "out"
        cache.mkdir()
        write_cache(cache, args.hosts, texts)
        subprocess.run([sys.executable, "-m", "iosched", "fleet", str(cache), "--workload", args.workload,
                        "--format", "ansible", "--out", str(out)], check=True, stderr=subprocess.DEVNULL)  # fmt: skip
        tree = sorted(p for p in out.rglob("*") if p.is_file())
        tree_bytes, tree_lines = measure(tree)
        groups = len(list(out.glob("inventory/group_vars/iosched_plan_*.yml")))
        text = playbook(cache, args.workload)
    book_bytes, book_lines = len(text.encode()), text.count("\n")
    role_bytes, role_lines = measure(sorted(p for p in ROLE.rglob("*") if p.is_file()))
    print(f"{args.hosts} hosts, {groups} distinct plans")
    print(f"{'output':<44} {'bytes':>10} {'lines':>8} {'share':>7}")
    print(f"{'one playbook (every plan with its tasks)':<44} {book_bytes:>10,} {book_lines:>8,} {'100%':>7}")
    print(f"{'variables tree (inventory, group_vars, play)':<44} {tree_bytes:>10,} {tree_lines:>8,} "
          f"{tree_bytes / book_bytes:>7.1%}")  # fmt: skip
    print(f"{'the role, once per controller':<44} {role_bytes:>10,} {role_lines:>8,}")
    print(f"target (1,000 hosts, no serials): under 10% of {BEFORE:,} bytes, the playbook fleet --format ansible "
          f"wrote for these hosts before the tree (the tree: {tree_bytes / BEFORE:.1%})")  # fmt: skip


if __name__ == "__main__":
    main()
