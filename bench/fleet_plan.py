"""Fleet planning speed: N hosts planned in memory, as a ratio to one `iosched advise` process.

Run: python bench/fleet_plan.py [--hosts 10000 100000]. The hosts are the real Ansible fact documents and
captures of the test suite, repeated with other names and, for one in three, another active scheduler, so
that memoisation sees a realistic mix of identical and different devices.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sample_systems():
    from iosched.fleet.ansible_facts import read_facts
    from iosched.observe.reader import read_root

    systems = [f.system for d in ("cache", "tree", "console") for f in read_facts(ROOT / "tests/fleet/ansible" / d)
               if f.system is not None]  # fmt: skip
    systems += [read_root(p) for p in sorted((ROOT / "tests/observe/captures").iterdir()) if p.is_dir()]
    return systems


def varied(system, n: int):
    if n % 3:
        return system
    devices = tuple(d.replace(scheduler=d.schedulers[n % len(d.schedulers)]) if d.schedulers else d
                    for d in system.devices)  # fmt: skip
    return system.replace(devices=devices)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hosts", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    from iosched.knowledge.context import Context
    from iosched.knowledge.kbcache import load_checked
    from iosched.planning.fleetplan import Planner, outcome, plan_set, plan_set_key, summarise

    kb = load_checked()
    systems = sample_systems()
    one = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "iosched", "advise", "--hw", "ssd", "--workload", "db", "--format",
                        "json"], check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        one.append(time.perf_counter() - start)
    advise_s = sorted(one)[2]
    print(f"one iosched advise process: {advise_s * 1000:.1f} ms (median of 5); {len(systems)} sample hosts")
    for n in args.hosts:
        hosts = [varied(systems[i % len(systems)], i // len(systems)) for i in range(n)]
        planner = Planner(kb)
        user = Context(workload="db")
        start = time.perf_counter()
        planned = [planner.host(f"host{i}", system, user) for i, system in enumerate(hosts)]
        sets = {plan_set_key(h.plan): plan_set(h.plan) for h in planned if h.plan is not None}
        summarise([outcome(h, plan_set_key(h.plan) if h.plan else None) for h in planned], sets)
        took = time.perf_counter() - start
        print(
            f"{n:>7} hosts planned in {took:6.2f} s = {took / advise_s:7.1f} x one advise process "
            f"({n / took:,.0f} hosts/s; target: 10,000 under 100 x, 100,000 under 30 s)"
        )


if __name__ == "__main__":
    main()
