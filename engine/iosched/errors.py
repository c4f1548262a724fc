"""Exceptions that the CLI maps to exit codes (2: bad input or usage)."""


class UsageError(Exception):
    """Bad input from the user: one line on stderr, exit 2."""
