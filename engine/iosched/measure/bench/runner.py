"""Running ``iosched bench``: every scheduler the device offers, each workload, in interleaved rotated rounds.

Safety: writes only with a device that holds no data (or with ``destructive``); the original scheduler
and its tunables are restored on success, error, Ctrl-C and SIGTERM, and recorded beforehand in a state
file so that the next bench restores them after a SIGKILL (``benchstate``); fio dies with the bench;
results and the manifest are written after every run, so an interrupted bench keeps what it measured.

Soundness: a loop image is filled before it is attached and an empty device is written once before the
rounds (a never-written region reads faster than data); schedulers take turns on every workload of every
round and their order rotates from round to round; the default number of rounds is enough for an exact test to reach
significance, and fewer is said to be unable to.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import NoReturn

from iosched.measure.bench import benchstate, manifest
from iosched.measure.bench import device as dev
from iosched.measure.bench.fiojobs import BY_NAME, WORKLOADS, Workload, command, precondition
from iosched.measure.failure import MeasureError
from iosched.measure.judging import stats
from iosched.measure.judging.judgement import ALPHA, MIN_RUNS

ROUNDS = 5  # 5 + 5 runs: the smallest exact p is 0.008, well below ALPHA


@dataclass
class Config:
    device: str | None
    loop_size: int | None
    output: Path
    runtime: int = 3
    rounds: int = ROUNDS
    size: int | None = None
    workloads: list[str] = field(default_factory=lambda: [w.name for w in WORKLOADS])
    schedulers: list[str] | None = None
    destructive: bool = False
    rate_iops: int = 1000


Progress = Callable[[str], None]


def validate(config: Config) -> None:
    """Everything that can be checked before touching a device."""
    if (config.device is None) == (config.loop_size is None):
        raise MeasureError("give a DEVICE or --loop SIZE (not both)")
    if config.device is not None:
        config.device = dev.check_name(config.device)
    if not 1 <= config.runtime <= 3600:
        raise MeasureError("--runtime must be 1..3600 seconds")
    if not 1 <= config.rounds <= 100:
        raise MeasureError("--rounds must be 1..100")
    if not 1 <= config.rate_iops <= 10_000_000:
        raise MeasureError("--latency-iops must be 1..10000000")
    unknown = [w for w in config.workloads if w not in BY_NAME]
    if unknown:
        raise MeasureError(f"unknown workload(s) {', '.join(unknown)} (have: {', '.join(BY_NAME)})")
    if config.output.exists() and (not config.output.is_dir() or any(config.output.iterdir())):
        raise MeasureError(f"{config.output} exists and is not an empty directory")
    if config.loop_size is not None:
        dev.check_room(Path(tempfile.gettempdir()), config.loop_size)


def reach(rounds: int) -> str | None:
    """Why ``rounds`` rounds cannot give a verdict, or None when they can."""
    needed = max(stats.runs_needed(ALPHA), MIN_RUNS)
    if rounds >= needed:
        return None
    return (f"with {rounds} round(s) no scheduler can be shown better or worse (the smallest p {rounds} + "
            f"{rounds} runs can give is {stats.smallest_p(rounds, rounds):.3f}, above {ALPHA}); "
            f"use --rounds {needed} or more")  # fmt: skip


def preflight() -> str:
    """Root and fio are needed; returns fio's version."""
    if os.geteuid() != 0:
        raise MeasureError("bench needs root (it switches schedulers and uses direct I/O on a block device)")
    if not shutil.which("fio"):
        raise MeasureError("fio is not installed (Debian/Ubuntu: apt-get install fio)")
    done = subprocess.run(["fio", "--version"], capture_output=True, text=True, timeout=30, check=False)
    return done.stdout.strip() or "fio (unknown version)"


def rotated(items: list[str], round_: int) -> list[str]:
    """The order of round ``round_`` (1-based): each round starts one further along."""
    shift = (round_ - 1) % len(items) if items else 0
    return items[shift:] + items[:shift]


def recover(progress: Progress) -> None:
    """Undo what benches killed before they could clean up left behind, and say so."""
    stale, _ = benchstate.others()
    for path, state in stale:
        done, finished = benchstate.undo(state) if state is not None else (["it was unreadable"], True)
        if finished:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        who = f"pid {state.pid}" if state is not None else path.name
        progress(f"an earlier bench ({who}) ended without cleaning up: {'; '.join(done) or 'nothing was left'}")


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind like Ctrl-C, so ``finally`` blocks restore the device."""

    def handler(signum: int, frame: object) -> NoReturn:
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
    if why := reach(config.rounds):
        progress(f"warning: {why}")
    fio_version = preflight()
    recover(progress)
    pid = os.getpid()
    state = benchstate.State(pid=pid, started=benchstate.process_start(pid) or 0)

    def remember(image: Path) -> None:
        state.image = str(image)
        _save(state)  # before the image is written
        progress(f"writing a {(config.loop_size or 0) // 2**20} MiB loop image (a sparse one would read its holes)")

    with _terminate_as_interrupt():
        try:
            if config.loop_size is None:
                return _run_on(config.device or "", config, fio_version, progress, state)
            with dev.loop_device(config.loop_size, remember) as loop:
                return _run_on(loop, config, fio_version, progress, state)
        finally:
            if state.image and Path(state.image).parent.exists():  # a loop device could not be detached
                progress(f"warning: {state.image} is still in use; the next bench will clean it up")
            else:
                benchstate.remove(pid)


def _save(state: benchstate.State) -> None:
    try:
        benchstate.save(state)
    except OSError as exc:
        raise MeasureError(f"cannot record the bench state in {benchstate.STATE_DIR}: {exc.strerror or exc}") from None


def _run_on(device: str, config: Config, fio_version: str, progress: Progress,
            state: benchstate.State) -> tuple[Path, list[str]]:  # fmt: skip
    loop = bool(state.image)
    busy = [s.pid for s in benchstate.others()[1] if s.device == device]
    if busy:
        raise MeasureError(f"another bench (pid {busy[0]}) is running on {device}")
    available, original = dev.schedulers(device)
    if not available:
        raise MeasureError(f"{device} offers no I/O scheduler choice")
    chosen = config.schedulers or available
    missing = [s for s in chosen if s not in available]
    if missing:
        raise MeasureError(f"{device} does not offer {', '.join(missing)} (it offers: {', '.join(available)})")
    workloads = [BY_NAME[w] for w in config.workloads]
    writable = loop or config.destructive or not (reasons := dev.holds_data(device))
    if not writable:
        workloads = [w for w in workloads if not w.writes]
        progress(f"{device} holds data ({'; '.join(reasons)}): only read workloads run; --destructive to write")
        if not workloads:
            raise MeasureError(f"{device} holds data and no read-only workload was chosen")
    size = _region(device, config.size)
    saved = dev.tunables(device)
    state.device, state.scheduler, state.tunables = device, original or "", saved
    _save(state)  # before the first change
    config.output.mkdir(parents=True, exist_ok=True)
    record = manifest.Manifest(
        device=device, kernel=platform.release(), fio_version=fio_version, original_scheduler=original or "",
        schedulers=chosen, workloads=[w.name for w in workloads], runtime=config.runtime, rounds=config.rounds,
        size=str(size), loop=loop, started=_now(), preconditioned=loop,
    )  # fmt: skip
    path = config.output / manifest.NAME
    manifest.write(path, record)
    problems: list[str] = []
    try:
        if writable and not loop:
            progress(f"writing the {size // 2**20} MiB region of {device} once before measuring")
            _fio(precondition(device, size=size), "the preconditioning write", config.runtime + size // 2**20)
            record.preconditioned = True
        _rounds(device, chosen, workloads, size, config, record, path, progress)
        record.complete = True
    finally:
        problems = dev.restore(device, original, saved)
        record.finished = _now()
        manifest.write(path, record)
    return config.output, problems


def _rounds(device: str, chosen: list[str], workloads: list[Workload], size: int, config: Config,
            record: manifest.Manifest, path: Path, progress: Progress) -> None:  # fmt: skip
    """Per round and workload, every scheduler back to back (so a drift of the device over time hits them
    alike), in an order that rotates from round to round (so none is always first after a switch)."""
    total = config.rounds * len(chosen) * len(workloads)
    done, started = 0, time.monotonic()
    for round_ in range(1, config.rounds + 1):
        for workload in rotated([w.name for w in workloads], round_):
            for scheduler in rotated(chosen, round_):
                before = dev.set_scheduler(device, scheduler)
                if before != scheduler:
                    raise MeasureError(f"{device}: switching to {scheduler} did not take (reads back {before})")
                eta = _eta(time.monotonic() - started, done, total, config.runtime)
                progress(f"[{done + 1}/{total}] round {round_} {workload} {scheduler} (ETA {eta})")
                name = f"{workload}-{scheduler}-r{round_}.json"
                dev.drop_caches()
                args = command(BY_NAME[workload], device, runtime=config.runtime, size=size,
                               output=str(config.output / name), rate_iops=config.rate_iops)  # fmt: skip
                _fio(args, f"fio on {workload}/{scheduler}", config.runtime * 10)
                after = dev.schedulers(device)[1] or ""
                record.runs.append(manifest.Run(name, scheduler, workload, round_, before, after))
                manifest.write(path, record)
                done += 1


def _fio(args: list[str], what: str, seconds: int) -> None:
    """Run fio; it dies with the bench (a SIGKILL of the bench must not leave it running), and on Ctrl-C or
    SIGTERM the bench waits until it is gone (its device is still open until then and could not be detached)."""
    with subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=_die_with_parent) as proc:  # fmt: skip
        try:
            _, stderr = proc.communicate(timeout=seconds + 120)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
    if proc.returncode != 0:
        raise MeasureError(f"{what} failed: {_last_line(stderr)}")


def _die_with_parent() -> None:
    """In the child, before exec: ask the kernel for SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def _region(device: str, wanted: int | None) -> int:
    """The bytes of ``device`` the workloads use: ``wanted`` (at most the device), else all of it up to 4 GiB."""
    sectors = int((dev.SYS_BLOCK / device / "size").read_text().strip() or 0)
    if sectors <= 0:
        raise MeasureError(f"{device} has size 0")
    if wanted is not None and wanted > sectors * 512:
        raise MeasureError(f"--size {wanted // 2**20} MiB is larger than {device} ({sectors * 512 // 2**20} MiB)")
    return wanted or min(sectors * 512, 4 * 2**30)  # a 4 GiB region is plenty for these workloads


def _eta(elapsed: float, done: int, total: int, runtime: int) -> str:
    per_run = elapsed / done if done else runtime + 1.0
    seconds = int(per_run * (total - done))
    return f"{seconds // 60}m{seconds % 60:02d}s"


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
