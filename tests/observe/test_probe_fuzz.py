"""Random partial or corrupt captures never crash the reader or the CLI, and never hang it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iosched.capture.source import MAX_BYTES
from iosched.cli import main
from iosched.observe.reader import read_root
from iosched.records.system import System
from probe_helpers import NAMES, capture, scratch

MUTATIONS = ("delete", "bytes", "text", "huge", "outside", "fifo", "directory", "deep", "self-link")
# Paths the reader looks at, to build captures from nothing.
PATHS = (
    "etc/os-release", "etc/SuSE-release", "etc/redhat-release", "proc/cmdline", "proc/mounts", "proc/cpuinfo",
    "proc/sysinfo", "proc/partitions", "proc/sys/kernel/osrelease", "proc/sys/vm/dirty_ratio",
    "sys/block/sda/queue/scheduler", "sys/block/sda/queue/rotational", "sys/block/sda/dev", "sys/block/sda/size",
    "sys/block/sda/holders/dm-0", "sys/block/dm-0/slaves/sda", "sys/block/dm-0/dm/uuid", "sys/block/sda/sda1/partition",
    "sys/class/block/sda1/partition", "sys/class/dmi/id/sys_vendor", "run/udev/data/b8:0",
    "etc/udev/rules.d/60-x.rules", "etc/sysctl.d/99-x.conf", "etc/tuned/active_profile",
    "etc/tuned/x/tuned.conf", "etc/sysconfig/saptune", "sos_commands/block/lsblk", "sos_commands/block/lsblk_-O_-P",
    "sos_commands/kernel/uname_-a", "sos_commands/devicemapper/dmsetup_info_-c", "basic-environment.txt",
    "fs-diskio.txt", "udev.txt", "hardware.txt", "memory.txt", "tuned.txt", "sos_commands/block/lsblk_-t",
    "etc/tune-profiles/active-profile", "etc/sysconfig/ktune", "etc/tune-profiles/x/ktune.sysconfig",
    "sos_commands/tuned/tuned-adm_active",
)  # fmt: skip
SAMPLES = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300),
    st.sampled_from(["[bfq] none\n", "none\n", "1\n", "include=x\n[disk]\nelevator=\x1b[2J\n",
                     "#==[ Command ]====#\n# uname -a\nLinux h 6.1 x\n", 'NAME="sda" KNAME="sda" PKNAME="sda"\n',
                     "NAME MAJ:MIN\n|-sda 8:0\n  `-sda 8:0\n", "E:ID_SERIAL=\x00\n"]),
)  # fmt: skip


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"probe took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def mutate(path: Path, how: str, data: bytes) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    if how == "bytes":
        path.write_bytes(data)
    elif how == "text":
        path.write_text(data.decode("utf-8", errors="replace") + "\n\x1b[31m\u202e")
    elif how == "huge":
        with path.open("wb") as fh:
            fh.truncate(MAX_BYTES * 20)
    elif how == "outside":
        path.symlink_to("/etc/passwd" if data[:1] < b"\x80" else "../" * 30 + "sys/block")
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "directory":
        (path / "queue").mkdir(parents=True)
        (path / "queue/scheduler").write_bytes(data)
    elif how == "deep":
        (path / ("d/" * 60)).mkdir(parents=True)
    elif how == "self-link":
        path.symlink_to(path.name)


def probe_everything(root: Path) -> None:
    with time_limit(60):
        system = read_root(root)
        assert isinstance(system, System)
        json.dumps(system.to_json())
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["probe", "--root", str(root)])
        assert code == 0 and err.getvalue() == "" and out.getvalue().strip()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(NAMES),
    changes=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(MUTATIONS), st.binary(min_size=1, max_size=200)),
                     min_size=1, max_size=12),
)  # fmt: skip
def test_corrupted_captures(name: str, changes: list[tuple[int, str, bytes]]) -> None:
    with scratch() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(capture(name), root, symlinks=True)
        entries = sorted(root.rglob("*"))
        for index, how, data in changes:
            target = entries[index % len(entries)]
            if target.parent.is_dir() and not target.parent.is_symlink():
                mutate(target, how, data)
        probe_everything(root)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=st.dictionaries(st.sampled_from(PATHS), st.one_of(SAMPLES, st.sampled_from(MUTATIONS)), max_size=16))
def test_partial_captures_from_nothing(files: dict[str, bytes | str]) -> None:
    with scratch() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        for rel, content in sorted(files.items()):
            path = root / rel
            if any(p.exists() and not p.is_dir() for p in path.parents):
                continue
            if isinstance(content, str) and content in MUTATIONS:
                mutate(path, content, b"x")
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        probe_everything(root)
