"""Where the bundled KB and the compiled-KB cache live (plain strings: pathlib costs start-up time)."""

from __future__ import annotations

import os

AnyPath = str | os.PathLike[str]
"""A file or directory as the caller has it: a string or a ``pathlib.Path``."""


def bundled_kb() -> str:
    """The KB shipped in the wheel (``iosched/_kb``), or ``kb/`` of a source checkout."""
    packaged = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_kb")
    if os.path.isdir(packaged):
        return packaged
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    return os.path.join(checkout, "kb")


def cache_dir() -> str:
    """``$IOSCHED_CACHE_DIR``, else ``$XDG_CACHE_HOME/iosched``, else ``~/.cache/iosched``."""
    if explicit := os.environ.get("IOSCHED_CACHE_DIR"):
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "iosched")
