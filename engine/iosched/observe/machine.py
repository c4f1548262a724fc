"""The host itself: kernel release, architecture, name, command line, distribution and hypervisor."""

from __future__ import annotations

import re

from iosched.capture.source import Source
from iosched.observe.release import read_release
from iosched.observe.virt import read_virtualization
from iosched.records.system import Host

KERNEL_RELEASE = re.compile(r"\d+\.\d+[A-Za-z0-9._+~-]{0,62}")
ARCHES = frozenset({
    "x86_64", "i386", "i586", "i686", "aarch64", "armv7l", "armv6l", "s390x", "s390", "ppc64le", "ppc64", "ppc",
    "riscv64", "loongarch64", "mips64", "mips", "sparc64", "ia64",
})  # fmt: skip
HOSTNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}")
MAX_CMDLINE = 4096


def read_host(src: Source) -> tuple[Host, list[str]]:
    missing: list[str] = []
    uname = (src.command("uname -a") or "").split()
    kernel = _first_valid(KERNEL_RELEASE, src.value("proc/sys/kernel/osrelease"), src.command("uname -r"),
                          uname[2] if len(uname) > 2 else None)  # fmt: skip
    if kernel is None:
        missing.append("kernel release (proc/sys/kernel/osrelease, uname -a)")
    arch = src.value("proc/sys/kernel/arch")
    if arch not in ARCHES:
        arch = next((word for word in reversed(uname) if word in ARCHES), None)
    if arch is None:
        missing.append("architecture (proc/sys/kernel/arch, uname -a)")
    os_release, gaps = read_release(src)
    missing += gaps
    virtualization = read_virtualization(src)
    if virtualization is None:
        missing.append("virtualization (DMI, proc/cpuinfo, systemd-detect-virt)")
    cmdline = src.value("proc/cmdline")
    if cmdline is None:
        missing.append("kernel command line (proc/cmdline)")
    hostname = _first_valid(HOSTNAME, src.value("proc/sys/kernel/hostname"), src.value("etc/hostname"),
                            src.command("hostname"), uname[1] if len(uname) > 1 else None)  # fmt: skip
    host = Host(
        kernel=kernel,
        os_release=os_release,
        virtualization=virtualization,
        arch=arch,
        cmdline=cmdline[:MAX_CMDLINE] if cmdline else None,
        hostname=hostname,
    )
    return host, missing


def _first_valid(pattern: re.Pattern[str], *candidates: str | None) -> str | None:
    for candidate in candidates:
        value = (candidate or "").strip()
        if pattern.fullmatch(value):
            return value
    return None
