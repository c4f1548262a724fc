"""Measured evidence: an input to advise beside the context, produced from benchmark results."""

from __future__ import annotations

from iosched.struct import Struct


class Evidence(Struct):
    """What measurements on the user's own system say.

    ``best`` is a scheduler that the measurements show significantly better than the baseline, or None when
    no scheduler separated from the noise; ``summary`` is one human line per finding, for the plan.
    """

    best: str | None = None
    summary: tuple[str, ...] = ()
