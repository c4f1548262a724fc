"""The one exception of the measurement library."""

from __future__ import annotations


class MeasureError(ValueError):
    """Input the measurements cannot use (a file, a name, a device, a setting); the message is one line."""
