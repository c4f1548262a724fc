"""What a running ``iosched bench`` has changed, on disk, so that a bench killed outright is undone by the next.

Before its first change a bench writes ``/run/iosched/bench-PID.json``: the device, its original scheduler
and tunables, and the loop image it creates. A bench that ends in any way but SIGKILL or a power cut undoes
its changes and removes the file itself. The next bench finds the files of processes that are gone, undoes
what they record and says so. ``/run`` is emptied at boot, as are the scheduler settings it protects.
The files are read back as untrusted input: every field is checked before it is used.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from iosched.grammar import DEVICE, matches
from iosched.measure.bench import device as dev
from iosched.measure.failure import MeasureError
from iosched.measure.schedulers import valid_name

STATE_DIR = Path("/run/iosched")
_TUNABLE = re.compile(r"[a-z][a-z0-9_]{0,63}")
_VALUE = re.compile(r"[\x20-\x7e]{0,64}")


@dataclass
class State:
    """One bench's changes; empty fields are changes not (yet) made."""

    pid: int
    started: int  # the process's start time in clock ticks after boot: a reused pid has another
    image: str = ""
    device: str = ""
    scheduler: str = ""
    tunables: dict[str, str] = field(default_factory=dict)


def process_start(pid: int) -> int | None:
    """Field 22 of /proc/PID/stat (start time), or None when the process is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def path_for(pid: int, directory: Path = STATE_DIR) -> Path:
    return directory / f"bench-{pid}.json"


def save(state: State, directory: Path = STATE_DIR) -> None:
    """Write ``state`` atomically (a reader sees the old or the new file, never half of one)."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = path_for(state.pid, directory)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(state)), encoding="utf-8")
    os.replace(tmp, target)


def remove(pid: int, directory: Path = STATE_DIR) -> None:
    with contextlib.suppress(FileNotFoundError):
        path_for(pid, directory).unlink()


def parse(text: str, where: str) -> State:
    """A state read back; MeasureError for anything that is not exactly what ``save`` writes."""
    try:
        doc = json.loads(text) if len(text) < 65536 else None
    except (ValueError, RecursionError):
        doc = None
    if not isinstance(doc, dict) or set(doc) != set(State.__dataclass_fields__):
        raise MeasureError(f"{where}: not a bench state file")
    state = State(**doc)
    checks = {
        "pid": isinstance(state.pid, int) and not isinstance(state.pid, bool) and state.pid > 0,
        "started": isinstance(state.started, int) and not isinstance(state.started, bool),
        "image": state.image == "" or (isinstance(state.image, str) and dev.is_image(Path(state.image))),
        "device": state.device == "" or matches(DEVICE, state.device),
        "scheduler": state.scheduler == "" or valid_name(state.scheduler),
        "tunables": isinstance(state.tunables, dict) and all(_tunable(k, v) for k, v in state.tunables.items()),
    }
    bad = [name for name, ok in checks.items() if not ok]
    if bad:
        raise MeasureError(f"{where}: bad field {bad[0]!r}")
    return state


def _tunable(name: object, value: object) -> bool:
    return (
        isinstance(name, str)
        and bool(_TUNABLE.fullmatch(name))
        and isinstance(value, str)
        and bool(_VALUE.fullmatch(value))
    )


def others(directory: Path = STATE_DIR) -> tuple[list[tuple[Path, State | None]], list[State]]:
    """The state files of other benches: (those whose process is gone, with None for an unreadable file;
    the running ones)."""
    stale: list[tuple[Path, State | None]] = []
    running: list[State] = []
    for path in sorted(directory.glob("bench-*.json")) if directory.is_dir() else []:
        try:
            state = parse(path.read_text(encoding="utf-8", errors="replace"), str(path))
        except (MeasureError, OSError):
            stale.append((path, None))
            continue
        if state.pid == os.getpid():
            continue
        if process_start(state.pid) == state.started:
            running.append(state)
        else:
            stale.append((path, state))
    return stale, running


def undo(state: State) -> tuple[list[str], bool]:
    """Undo what ``state`` records: the scheduler and tunables put back, the loop image discarded. Returns what
    was done (problems included) and whether the loop image is gone (else the state must stay for a retry)."""
    done = []
    if state.device and state.scheduler:
        try:
            problems = dev.restore(state.device, state.scheduler, state.tunables)
        except MeasureError as exc:  # the device is gone
            problems = [str(exc)]
        done += problems or [f"restored {state.device} to {state.scheduler}"
                             + (f" with {len(state.tunables)} tunable(s)" if state.tunables else "")]  # fmt: skip
    if not state.image:
        return done, True
    discarded, problems = dev.discard_image(Path(state.image))
    return done + discarded + problems, not problems
