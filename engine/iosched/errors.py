"""Exceptions that the CLI maps to exit codes (2: bad input or usage; 1: an invalid KB)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from iosched.diagnostics import Diagnostic


class UsageError(Exception):
    """Bad input from the user: one line on stderr, exit 2."""


class SiteUrlError(ValueError):
    """The configured site URL is not one a link may carry."""


class KbInvalid(Exception):
    """The KB (bundled or layered with --kb) has problems; the CLI prints them and exits 1."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{len(diagnostics)} problem(s) in the KB")
        self.diagnostics = diagnostics


def larger_than(limit: int) -> str:
    """``larger than 64 KiB``: a size limit in the largest unit it is a whole number of."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"larger than {limit // size} {unit}"
    return f"larger than {limit} bytes"
