"""``iosched fleet`` end to end from a jsonfile fact cache on disk, as ratios to one ``iosched advise`` process.

Run: python bench/fleet_files.py [--hosts 1000 10000 100000] [--gather] [--serials] [--format jsonl]. Writes N
fact-cache files into a temporary directory, from the real fact documents of tests/fleet/ansible/cache (and, with
--gather, this machine's own, gathered by ``ansible localhost -c local -m setup``), varied per host: name,
distribution (the real distribution facts of tests/fleet/ansible/distribution), kernel patch level,
elevators, rotational flags, extra disks and, on every host, the free space of its mounts (which differs
between any two real hosts). Each run is a fresh ``iosched fleet`` process writing to a pipe;
its wall time and peak memory (max RSS) are printed against an ``iosched advise`` process run just before it: the
median of --repeat such pairs, and the range of their ratios, with the output's size a host. Targets: 100,000 hosts
(with --serials too) under 30 s and 1 GiB, 10,000 hosts under 50 x one advise process, output at most 2 KiB a host
(--format jsonl).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests/fleet/ansible"
ELEVATORS = ("mq-deadline", "none", "bfq", "kyber", "cfq", "deadline", "noop")
PLACEHOLDER = "HOST-NAME-PLACEHOLDER"
FREE_PLACEHOLDER = 987654321987654
SERIAL_PLACEHOLDER = "SERIAL-PLACEHOLDER"
VARIANTS = 256


def real_documents(gather: bool) -> list[dict[str, Any]]:
    """The real jsonfile cache documents that describe disks, and this machine's facts when asked."""
    docs = [json.loads(p.read_bytes()) for p in sorted((FIXTURES / "cache").iterdir()) if p.is_file()]
    if gather:
        docs.append(gathered())
    return [d for d in docs if isinstance(d.get("ansible_devices"), dict) and d["ansible_devices"]]


def gathered() -> dict[str, Any]:
    """This machine's facts as ``ansible -m setup`` writes them to a jsonfile cache."""
    ansible = Path(sys.executable).with_name("ansible")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ANSIBLE_CACHE_PLUGIN": "jsonfile", "ANSIBLE_CACHE_PLUGIN_CONNECTION": cache,
               "ANSIBLE_LOCALHOST_WARNING": "false"}  # fmt: skip
        subprocess.run([str(ansible), "localhost", "-c", "local", "-m", "setup"], env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        (file,) = Path(cache).iterdir()
        document = json.loads(file.read_bytes())
    # ansible-core 2.19 wraps the document: {"__payload__": "<the JSON text>"}
    return json.loads(document["__payload__"]) if "__payload__" in document else document


def distributions() -> list[dict[str, str]]:
    """The ``distribution*`` facts Ansible's own tests expect for real os-release files."""
    found = []
    for path in sorted((FIXTURES / "distribution").glob("*.json")):
        result = json.loads(path.read_bytes())["result"]
        found.append({f"ansible_{k}": v for k, v in result.items() if k.startswith("distribution")})
    return found


def variant(facts: dict[str, Any], distro: dict[str, str], rng: random.Random, serials: bool) -> dict[str, Any]:
    """Another host of the same fleet: another release, kernel patch, elevators, rotational flags, disks; with
    ``serials``, disks with serial numbers (which write_cache makes the host's own)."""
    host = copy.deepcopy(facts)
    host.update(distro)
    for key in ("ansible_hostname", "ansible_nodename", "ansible_fqdn"):
        host[key] = PLACEHOLDER
    if isinstance(host.get("ansible_kernel"), str):
        base = host["ansible_kernel"].split("-")[0]
        host["ansible_kernel"] = f"{base}-{rng.randint(1, 600)}-generic"
    devices = host["ansible_devices"]
    template = next((d for name, d in devices.items() if name.startswith(("sd", "vd", "xvd", "nvme"))), None)
    for _ in range(rng.randint(0, 6) if template else 0):
        name = next(f"sd{letter}" for letter in "bcdefghijklmnopqrstuvwxyz" if f"sd{letter}" not in devices)
        devices[name] = copy.deepcopy(template)
    for name, device in devices.items():
        if serials and name.startswith(("sd", "vd", "xvd", "nvme")):
            device["serial"] = f"{SERIAL_PLACEHOLDER}-{name}"
        if device.get("scheduler_mode"):
            device["scheduler_mode"] = rng.choice(ELEVATORS)
        device["rotational"] = rng.choice(("0", "1"))
    for mount in host.get("ansible_mounts", []):
        if "size_available" in mount:
            mount["size_available"] = FREE_PLACEHOLDER
    return host


def write_cache(directory: Path, hosts: int, texts: list[str]) -> int:
    """``hosts`` files as the jsonfile cache plugin names and writes them; the total size in bytes."""
    size = 0
    for index in range(hosts):
        name = f"host{index:06d}.example.com"
        text = texts[index % len(texts)].replace(PLACEHOLDER, name.split(".")[0])
        text = text.replace(SERIAL_PLACEHOLDER, f"S{index:08X}")
        data = text.replace(str(FREE_PLACEHOLDER), str(2**30 + index * 4096)).encode()
        (directory / name).write_bytes(data)
        size += len(data)
    return size


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and its children now (0 once it has exited). Only their own /proc files are
    read: a scan of every process would take CPU from the run it measures."""
    page = os.sysconf("SC_PAGE_SIZE")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0
    total = 0
    for each in (pid, *map(int, children)):
        try:
            total += int(Path(f"/proc/{each}/statm").read_text().split()[1]) * page
        except OSError:
            continue
    return total


def measured(argv: list[str], env: dict[str, str]) -> tuple[float, int, float, int]:
    """Wall seconds, peak memory, CPU seconds and output bytes of one process and its workers, its output sent
    to a pipe and counted. Memory is the largest sum of resident sizes seen (sampled every 50 ms; at least the
    largest single process's max RSS). CPU time does not grow when other work shares the machine; wall time does."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = [0]

    def sample() -> None:
        while proc.returncode is None:
            peak[0] = max(peak[0], tree_rss(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stdout is not None and proc.stderr is not None
    size = 0
    while chunk := proc.stdout.read(1 << 20):
        size += len(chunk)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    sampler.join()
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")
    return took, max(peak[0], usage.ru_maxrss * 1024), usage.ru_utime + usage.ru_stime, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hosts", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--gather", action="store_true", help="add this machine's facts (runs ansible)")
    parser.add_argument("--format", default="json", choices=("json", "jsonl", "markdown", "ansible"))
    parser.add_argument("--workload", default="db")
    parser.add_argument("--serials", action="store_true", help="give every host's disks serial numbers of their "
                        "own, as machines have (udev rules match them: hosts share no plans)")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=3, metavar="R", help="pairs of advise and fleet runs per size "
                        "(the machine is shared: a ratio is of one pair; the median of R is printed)")  # fmt: skip
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the caches to DIR/N and reuse them "
                        "in later runs (writing 100,000 files takes minutes on a slow disk)")  # fmt: skip
    args = parser.parse_args()
    rng = random.Random(42)
    docs, distros = real_documents(args.gather), distributions()
    texts = [json.dumps(variant(docs[i % len(docs)], rng.choice(distros), rng, args.serials), indent=4, sort_keys=True)
             for i in range(VARIANTS)]  # fmt: skip
    iosched = [sys.executable, "-m", "iosched"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    advise = [*iosched, "advise", "--hw", "ssd", "--workload", args.workload, "--format", "json"]
    measured(advise, env)  # warm-up: byte-code and KB caches
    print(f"{len(docs)} real fact documents x {len(distros)} distributions; each fleet run is paired with an advise "
          f"run just before it, {args.repeat} pairs per size (median, and the range of the paired ratios); targets: "
          "10,000 hosts under 50 x, 100,000 under 30 s and 1 GiB")  # fmt: skip
    print(f"{'hosts':>8} {'MiB on disk':>11} {'advise ms':>9} {'wall s':>7} {'x advise':>8} {'range':>11} "
          f"{'ms/host':>8} {'CPU s':>7} {'x advise':>8} {'MiB RSS':>8} {'x advise':>8} {'MiB out':>8} "
          f"{'KiB/host':>8}")  # fmt: skip
    for n in args.hosts:
        with tempfile.TemporaryDirectory() as tmp:
            cache = args.keep / f"{n}{'-serials' if args.serials else ''}" if args.keep else Path(tmp)
            if cache.is_dir() and sum(1 for _ in cache.iterdir()) == n:
                size = sum(p.stat().st_size for p in cache.iterdir())
            else:
                cache.mkdir(parents=True, exist_ok=True)
                size = write_cache(cache, n, texts)
            argv = [
                *iosched,
                "fleet",
                str(cache),
                "--workload",
                args.workload,
                "--format",
                args.format,
                *(["--out", f"{tmp}/out"] if args.format == "ansible" else []),
            ]  # a tree: MiB out is 0
            pairs = [(measured(advise, env), measured(argv, env)) for _ in range(args.repeat)]
        wall = statistics.median(f[0] for _, f in pairs)
        ratios = sorted(f[0] / a[0] for a, f in pairs)
        cpu = statistics.median(f[2] for _, f in pairs)
        cpu_ratio = statistics.median(f[2] / a[2] for a, f in pairs)
        rss, advise_rss = max(f[1] for _, f in pairs), max(a[1] for a, _ in pairs)
        spread = f"{ratios[0]:.1f}-{ratios[-1]:.1f}"
        print(f"{n:>8} {size / 2**20:>11.0f} {statistics.median(a[0] for a, _ in pairs) * 1000:>9.0f} {wall:>7.2f} "
              f"{statistics.median(ratios):>8.1f} {spread:>11} {wall / n * 1000:>8.3f} {cpu:>7.1f} {cpu_ratio:>8.1f} "
              f"{rss / 2**20:>8.0f} {rss / advise_rss:>8.1f} {pairs[0][1][3] / 2**20:>8.1f} "
              f"{pairs[0][1][3] / n / 1024:>8.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
