"""Running ``iosched bench``: every scheduler the device offers, each workload, in rotated rounds.

Safety: writes only with a device that holds no data (or with ``destructive``); the original
scheduler and its tunables are restored on success, error, Ctrl-C and SIGTERM; results and the
manifest are written after every run, so an interrupted bench keeps what it measured.
"""

from __future__ import annotations

import contextlib
import platform
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from iosched.errors import UsageError
from iosched.measure import device as dev
from iosched.measure import manifest
from iosched.measure.fiojobs import BY_NAME, WORKLOADS, Workload, command


@dataclass
class Config:
    device: str | None
    loop_size: int | None
    output: Path
    runtime: int = 3
    rounds: int = 3
    size: int | None = None
    workloads: list[str] = field(default_factory=lambda: [w.name for w in WORKLOADS])
    schedulers: list[str] | None = None
    destructive: bool = False
    rate_iops: int = 1000


Progress = Callable[[str], None]


def validate(config: Config) -> None:
    """Everything that can be checked before touching a device."""
    if (config.device is None) == (config.loop_size is None):
        raise UsageError("give a DEVICE or --loop SIZE (not both)")
    if config.device is not None:
        config.device = dev.check_name(config.device)
    if not 1 <= config.runtime <= 3600:
        raise UsageError("--runtime must be 1..3600 seconds")
    if not 1 <= config.rounds <= 100:
        raise UsageError("--rounds must be 1..100")
    if not 1 <= config.rate_iops <= 10_000_000:
        raise UsageError("--latency-iops must be 1..10000000")
    unknown = [w for w in config.workloads if w not in BY_NAME]
    if unknown:
        raise UsageError(f"unknown workload(s) {', '.join(unknown)} (have: {', '.join(BY_NAME)})")
    if config.output.exists() and (not config.output.is_dir() or any(config.output.iterdir())):
        raise UsageError(f"{config.output} exists and is not an empty directory")


def preflight() -> str:
    """Root and fio are needed; returns fio's version."""
    import os

    if os.geteuid() != 0:
        raise UsageError("bench needs root (it switches schedulers and uses direct I/O on a block device)")
    if not shutil.which("fio"):
        raise UsageError("fio is not installed (Debian/Ubuntu: apt-get install fio)")
    done = subprocess.run(["fio", "--version"], capture_output=True, text=True, timeout=30, check=False)
    return done.stdout.strip() or "fio (unknown version)"


def rotated(items: list[str], round_: int) -> list[str]:
    """The order of round ``round_`` (1-based): each round starts one further along."""
    shift = (round_ - 1) % len(items) if items else 0
    return items[shift:] + items[:shift]


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind like Ctrl-C, so ``finally`` blocks restore the device."""

    def handler(signum, frame):
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, handler) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def run(config: Config, progress: Progress) -> tuple[Path, list[str]]:
    """Run the bench; returns the output directory and problems met while restoring (if any)."""
    validate(config)
    fio_version = preflight()
    with _terminate_as_interrupt():
        if config.loop_size is not None:
            with dev.loop_device(config.loop_size) as loop:
                return _run_on(loop, config, fio_version, progress, loop=True)
        return _run_on(config.device or "", config, fio_version, progress, loop=False)


def _run_on(device: str, config: Config, fio_version: str, progress: Progress, *, loop: bool) -> tuple[Path, list[str]]:
    available, original = dev.schedulers(device)
    if not available:
        raise UsageError(f"{device} offers no I/O scheduler choice")
    chosen = config.schedulers or available
    missing = [s for s in chosen if s not in available]
    if missing:
        raise UsageError(f"{device} does not offer {', '.join(missing)} (it offers: {', '.join(available)})")
    workloads = [BY_NAME[w] for w in config.workloads]
    if not loop and not config.destructive and (reasons := dev.holds_data(device)):
        workloads = [w for w in workloads if not w.writes]
        progress(f"{device} holds data ({'; '.join(reasons)}): only read workloads run; --destructive to write")
        if not workloads:
            raise UsageError(f"{device} holds data and no read-only workload was chosen")
    size = config.size or _device_size(device)
    saved = dev.tunables(device)
    config.output.mkdir(parents=True, exist_ok=True)
    record = manifest.Manifest(
        device=device, kernel=platform.release(), fio_version=fio_version, original_scheduler=original or "",
        schedulers=chosen, workloads=[w.name for w in workloads], runtime=config.runtime, rounds=config.rounds,
        size=str(size), loop=loop, started=_now(),
    )  # fmt: skip
    path = config.output / manifest.NAME
    manifest.write(path, record)
    problems: list[str] = []
    try:
        _rounds(device, chosen, workloads, size, config, record, path, progress)
        record.complete = True
    finally:
        problems = dev.restore(device, original, saved)
        record.finished = _now()
        manifest.write(path, record)
    return config.output, problems


def _rounds(device: str, chosen: list[str], workloads: list[Workload], size: int, config: Config,
            record: manifest.Manifest, path: Path, progress: Progress) -> None:  # fmt: skip
    total = config.rounds * len(chosen) * len(workloads)
    done, started = 0, time.monotonic()
    for round_ in range(1, config.rounds + 1):
        for scheduler in rotated(chosen, round_):
            before = dev.set_scheduler(device, scheduler)
            if before != scheduler:
                raise UsageError(f"{device}: switching to {scheduler} did not take (reads back {before})")
            for workload in rotated([w.name for w in workloads], round_):
                eta = _eta(time.monotonic() - started, done, total, config.runtime)
                progress(f"[{done + 1}/{total}] round {round_} {scheduler} {workload} (ETA {eta})")
                name = f"{workload}-{scheduler}-r{round_}.json"
                dev.drop_caches()
                args = command(BY_NAME[workload], device, runtime=config.runtime, size=size,
                               output=str(config.output / name), rate_iops=config.rate_iops)  # fmt: skip
                result = subprocess.run(args, capture_output=True, text=True, timeout=config.runtime * 10 + 120,
                                        check=False)  # fmt: skip
                if result.returncode != 0:
                    raise UsageError(f"fio failed on {workload}/{scheduler}: {_last_line(result.stderr)}")
                after = dev.schedulers(device)[1] or ""
                record.runs.append(manifest.Run(name, scheduler, workload, round_, before, after))
                manifest.write(path, record)
                done += 1


def _device_size(device: str) -> int:
    sectors = int((dev.SYS_BLOCK / device / "size").read_text().strip() or 0)
    if sectors <= 0:
        raise UsageError(f"{device} has size 0")
    return min(sectors * 512, 4 * 2**30)  # a 4 GiB region is plenty for these workloads


def _eta(elapsed: float, done: int, total: int, runtime: int) -> str:
    per_run = elapsed / done if done else runtime + 1.0
    seconds = int(per_run * (total - done))
    return f"{seconds // 60}m{seconds % 60:02d}s"


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
