"""iosched: Linux I/O scheduler and block-device tuning, from a sourced knowledge base."""

__version__ = "0.1.0"
