"""``iosched advise`` on one host with many disks, in every format, as a ratio to the same host with two.

Run: python bench/host_disks.py [--disks 2 50 200] [--runs N]. The host is a real capture's probe document
(``iosched probe --root`` of tests/observe/captures/sos-rhel7-physical-hdd) with its second disk copied under new
names, serials and WWNs: a storage server whose disks are alike. Each run is a fresh ``iosched advise --context``
process (median of --runs). A format whose work grows faster than the disks (a step placed once for each file,
say) shows as a growing ms a disk. Target: ms a disk flat from the middle size to the largest.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CAPTURE = Path(__file__).resolve().parents[1] / "tests/observe/captures/sos-rhel7-physical-hdd"
FORMATS = ("markdown", "json", "sh", "ansible")
IOSCHED = [sys.executable, "-m", "iosched"]


def with_disks(document: dict[str, Any], count: int) -> dict[str, Any]:
    """The probe document with ``count`` whole disks: its own, then copies of its last one."""
    found = copy.deepcopy(document)
    disks = [d for d in found["devices"] if d["kind"] == "disk"]
    names = {d["name"] for d in found["devices"]}
    spare = (f"sd{''.join(p)}" for n in (1, 2, 3) for p in itertools.product(string.ascii_lowercase, repeat=n))
    for i, name in enumerate(n for n in spare if n not in names):
        if len(disks) >= count:
            break
        disk = {**copy.deepcopy(disks[-1]), "name": name, "serial": f"BENCH{i:06d}", "wwn": f"0x5000c5{i:010x}",
                "holders": []}  # fmt: skip
        found["devices"].append(disk)
        disks.append(disk)
    return found


def timed(argv: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--disks", type=int, nargs="+", default=[2, 50, 200])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    probed = subprocess.run([*IOSCHED, "probe", "--root", str(CAPTURE), "--format", "json"], check=True,
                            capture_output=True, text=True)  # fmt: skip
    document = json.loads(probed.stdout)
    sizes = sorted(set(args.disks))
    ms: dict[tuple[int, str], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in sizes:
            path = Path(tmp) / f"{count}.json"
            path.write_text(json.dumps(with_disks(document, count)))
            for fmt in FORMATS:
                argv = [*IOSCHED, "advise", "--context", str(path), "--workload", "db", "--format", fmt]
                subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)  # warm-up: byte-code and KB caches
                ms[count, fmt] = timed(argv, args.runs) * 1000
    print(
        f"one host, its disks alike; median of {args.runs} fresh processes; ms a disk: beyond the {sizes[0]}-disk host"
    )
    print(f"{'disks':>6} {'format':>9} {'ms':>9} {'x ' + str(sizes[0]) + ' disks':>12} {'ms a disk':>10}")
    for count in sizes:
        for fmt in FORMATS:
            base = ms[sizes[0], fmt]
            extra = (ms[count, fmt] - base) / (count - sizes[0]) if count > sizes[0] else float("nan")
            print(f"{count:6d} {fmt:>9} {ms[count, fmt]:9.1f} {ms[count, fmt] / base:12.2f} {extra:10.2f}")


if __name__ == "__main__":
    main()
