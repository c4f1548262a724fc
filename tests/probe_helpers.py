"""Captured and constructed host trees (see captures/README.md), and raw reads that do not use the reader."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

CAPTURES = Path(__file__).parent / "observe" / "captures"
NAMES = sorted(p.name for p in CAPTURES.iterdir() if p.is_dir())


def capture(name: str) -> Path:
    return CAPTURES / name


def bracketed(line: str) -> str | None:
    """The active elevator of a raw ``queue/scheduler`` line."""
    match = re.search(r"\[([^\]]+)\]", line)
    return match.group(1) if match else None


def raw_schedulers(root: Path) -> dict[str, str]:
    """Device name -> the raw text of its ``sys/block/NAME/queue/scheduler`` file."""
    return {p.parts[-3]: p.read_text() for p in sorted(root.glob("sys/block/*/queue/scheduler"))}


def scratch() -> tempfile.TemporaryDirectory[str]:
    """A temporary directory, in memory (/dev/shm) when the machine has it: fuzzing copies many small trees."""
    shm = Path("/dev/shm")
    return tempfile.TemporaryDirectory(dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)


def decisive(kb: object, fs: str, options: str) -> str:
    """What a plan's context keeps of a mount's options (``rw,noatime,nobarrier`` -> ``rw,nobarrier``): the access
    mode and the options the KB describes for ``fs``, in the order the kernel showed them."""
    known = {"rw", "ro"} | {o.option for o in kb.section("mount_options") if o.filesystem == fs}  # type: ignore[attr-defined]
    return ",".join(o for o in options.split(",") if o in known)
