"""Exceptions that the CLI maps to exit codes (2: bad input or usage)."""


class UsageError(Exception):
    """Bad input from the user: one line on stderr, exit 2."""


class SiteUrlError(ValueError):
    """The configured site URL is not one a link may carry."""


def larger_than(limit: int) -> str:
    """``larger than 64 KiB``: a size limit in the largest unit it is a whole number of."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"larger than {limit // size} {unit}"
    return f"larger than {limit} bytes"
