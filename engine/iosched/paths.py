"""Where the bundled KB and the compiled-KB cache live."""

from __future__ import annotations

import os
from pathlib import Path


def bundled_kb() -> Path:
    """The KB shipped in the wheel (``iosched/_kb``), or ``kb/`` of a source checkout."""
    packaged = Path(__file__).with_name("_kb")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "kb"


def cache_dir() -> Path:
    """``$IOSCHED_CACHE_DIR``, else ``$XDG_CACHE_HOME/iosched``, else ``~/.cache/iosched``."""
    if explicit := os.environ.get("IOSCHED_CACHE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "iosched"
