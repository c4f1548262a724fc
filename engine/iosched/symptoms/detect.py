"""Which format a pasted or captured text is, by its content (never by its file name)."""

from __future__ import annotations

from collections.abc import Callable

from iosched.errors import larger_than
from iosched.symptoms import diskstats, hungtask, iostat, proc, sar, vmstat1
from iosched.symptoms.series import Reading, empty

MAX_BYTES = 64 * 1024 * 1024

Reader = Callable[[str, str], Reading]

FORMATS: tuple[tuple[str, Callable[[str], bool], Reader], ...] = (
    ("iostat JSON", lambda t: t.lstrip().startswith("{") and '"sysstat"' in t[:2000], iostat.read_json),
    ("sadf -d", sar.looks_like_sadf, sar.read_sadf),
    ("iostat -x", iostat.looks_like, iostat.read_text),
    ("sar -d", sar.looks_like_sar, sar.read_sar),
    ("vmstat 1", vmstat1.looks_like, vmstat1.read),
    ("/proc/diskstats", diskstats.looks_like, diskstats.read),
    ("/proc/pressure/io", proc.looks_like_psi, proc.read_psi),
    ("/proc/meminfo", proc.looks_like_meminfo, proc.read_meminfo),
    ("/proc/vmstat", proc.looks_like_vmstat, proc.read_vmstat),
    ("hung-task reports", hungtask.looks_like, hungtask.read),
    ("/proc/PID/stack samples", hungtask.looks_like_stacks, hungtask.read_stacks),
)  # fmt: skip
"""In the order they are tried: the more specific first (a kernel log can quote anything)."""

KNOWN = ", ".join(name for name, _, _ in FORMATS)


def read_bytes(data: bytes, source: str) -> Reading:
    """The reading of one input; a text iosched does not read gives a reading with one ``missing`` line."""
    if len(data) > MAX_BYTES:
        return empty(source, "unknown", larger_than(MAX_BYTES))
    if b"\0" in data[:65536]:
        return empty(source, "unknown", "binary data (a sar data file? give the text of "
                     "'sar -d -p -f FILE' or 'sadf -d FILE -- -d -p')")  # fmt: skip
    return read_text(data.decode("utf-8", errors="replace"), source)


def read_text(text: str, source: str) -> Reading:
    text = text.replace("\r\n", "\n")
    for _name, looks, read in FORMATS:
        if looks(text):
            return read(text, source)
    return empty(source, "unknown", f"not a format iosched reads ({KNOWN})")
