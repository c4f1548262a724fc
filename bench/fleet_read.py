"""Reading Ansible facts for ``iosched fleet``: hosts per second, and the share of the fleet budget it takes.

Run: python bench/fleet_read.py [--hosts N] [--fixture FILE]. Writes N fact-cache files in a temporary directory,
each a real fixture (tests/fleet/ansible/cache/x00scs00l373 by default) varied per host: hostname, kernel
patch level, elevators, rotational flags and a number of extra disks. Then it times, in one process, the stages
of ``read_facts``: listing and reading the files, JSON parsing (the whole document by the standard library, by
orjson when installed, by msgspec; then only the facts iosched reads, as fleet does), and the whole conversion to
System objects. With ``--wrapped`` the files are written as ansible-core 2.19+ writes
them (``s1_<host>`` holding ``{"__payload__": "<JSON text>"}``). Times are CPU time of this process (user +
system), so that other work on the machine does not count. The fleet budget is 100,000 hosts planned in 30 s on
2 cores, 60 CPU seconds; the ratio printed is the CPU time to read 100,000 hosts over that budget.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from iosched.fleet.ansible_docs import decode_json, read_regular, selected
from iosched.fleet.ansible_facts import fact_files, read_facts

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests/fleet/ansible/cache/x00scs00l373"
FLEET_HOSTS = 100_000
FLEET_BUDGET_CPU_S = 2 * 30.0
ELEVATORS = ("mq-deadline", "none", "bfq", "kyber")


def varied(facts: dict, index: int, rng: random.Random) -> dict:
    """A copy of one host's facts that looks like another host of the same fleet."""
    host = copy.deepcopy(facts)
    host["ansible_hostname"] = f"host{index:06d}"
    host["ansible_kernel"] = f"5.14.0-{rng.randint(1, 600)}.el9.x86_64"
    devices = host.get("ansible_devices", {})
    template = next((d for name, d in devices.items() if name.startswith(("sd", "vd", "nvme"))), None)
    for n in range(rng.randint(0, 6) if template else 0):
        devices[f"sdx{n}"] = copy.deepcopy(template)
    for device in devices.values():
        if device.get("scheduler_mode"):
            device["scheduler_mode"] = rng.choice(ELEVATORS)
        device["rotational"] = rng.choice(("0", "1"))
    return host


def timed(label: str, hosts: int, action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    seconds = time.process_time() - start
    projected = seconds / hosts * FLEET_HOSTS
    print(f"{label:38} {hosts / seconds:10.0f} {projected:10.1f} {projected / FLEET_BUDGET_CPU_S:8.2f}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hosts", type=int, default=5000)
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--wrapped", action="store_true", help="the cache form of ansible-core 2.19+")
    args = parser.parse_args()
    facts = json.loads(args.fixture.read_bytes())
    rng = random.Random(42)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        for index in range(args.hosts):
            text = json.dumps(varied(facts, index, rng), indent=4, sort_keys=True)  # as the jsonfile cache writes
            name = f"host{index:06d}.example.com"
            if args.wrapped:  # PluginInterposer._encode, then the jsonfile plugin's dump
                text, name = json.dumps({"__payload__": json.dumps(json.loads(text))}, indent=4), f"s1_{name}"
            (directory / name).write_text(text)
        files = fact_files(directory)
        blobs = [read_regular(f, 1 << 24) for f in files]
        size = sum(len(b) for b in blobs) / len(blobs) / 1024
        print(f"{args.hosts} fact files of {size:.0f} KiB on average (from {args.fixture.name})")
        print(f"{'stage (one core)':38} {'hosts/s':>10} {'CPU s/100k':>10} {'x budget':>8}")
        timed("list and read files", args.hosts, lambda: [read_regular(f, 1 << 24) for f in fact_files(directory)])
        timed("json.loads (stdlib)", args.hosts, lambda: [json.loads(b) for b in blobs])
        try:
            import orjson
        except ImportError:
            print(f"{'orjson.loads':38} {'(not installed)':>10}")
        else:
            timed("orjson.loads", args.hosts, lambda: [orjson.loads(b) for b in blobs])
        timed("decode_json (msgspec, whole document)", args.hosts, lambda: [decode_json(b) for b in blobs])
        timed("selected (facts read; what fleet uses)", args.hosts, lambda: [selected(b) for b in blobs])
        hosts = []
        timed("read_facts (files to System)", args.hosts, lambda: hosts.extend(read_facts(directory, ())))
        errors = [h for h in hosts if h.error]
        assert len(hosts) == args.hosts and not errors, errors[:3]


if __name__ == "__main__":
    main()
