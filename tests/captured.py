"""Copies of the capture fixtures for tests that change what a capture shows."""

from __future__ import annotations

import shutil
from pathlib import Path

CAPTURES = Path(__file__).parent / "observe" / "captures"


def copy_capture(name: str, dest: Path, **hw_queues: int) -> Path:
    """The capture ``name`` copied to ``dest``, each disk named in ``hw_queues`` showing that many hardware queues
    under ``sys/block/DISK/mq/``. sos copies ``queue/`` but not ``mq/``; without the count a virtual disk's
    scheduler is left alone (IOS150), so tests that need a plan to change give the disk the queues it has."""
    shutil.copytree(CAPTURES / name, dest, symlinks=True)
    for disk, count in hw_queues.items():
        for n in range(count):
            (dest / f"sys/block/{disk}/mq/{n}").mkdir(parents=True, exist_ok=True)
    return dest
