"""``read_root``: everything iosched can learn about a host from a root directory.

The root is ``/`` on a live host, a copied tree, an extracted sosreport or a supportconfig directory; the
layout is recognised by what the directory holds. Nothing is executed and nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from iosched.system.blockdevs import read_devices
from iosched.system.cmdline import read_cmdline_tuner
from iosched.system.host import read_host
from iosched.system.ktune import is_tuned_02, read_ktune
from iosched.system.model import Device, System, Tuner
from iosched.system.mounts import read_mounts
from iosched.system.sap import read_sapconf, read_saptune
from iosched.system.source import MAX_REFUSED, Source, TreeSource
from iosched.system.supportconfig import is_supportconfig, read_supportconfig
from iosched.system.sysctld import read_sysctl_tuners
from iosched.system.tuned import read_tuned
from iosched.system.udev import read_udev_tuners
from iosched.system.writeback import read_writeback

MAX_MISSING = 300


class ProbeError(Exception):
    """The root cannot be read at all (absent, not a directory)."""


def layout(root: Path) -> str:
    """``supportconfig``, ``sosreport`` or ``tree`` (a live root or a copied tree)."""
    if is_supportconfig(root):
        return "supportconfig"
    if (root / "sos_commands").is_dir():
        return "sosreport"
    return "tree"


def open_source(root: Path) -> Source:
    if not root.exists():
        raise ProbeError(f"no such directory: {root}")
    if not root.is_dir():
        raise ProbeError(f"not a directory: {root}")
    return read_supportconfig(root) if layout(root) == "supportconfig" else TreeSource(root)


def read_root(root: Path) -> System:
    """The System a root shows; what it does not show is listed in ``missing``. Raises ProbeError."""
    return read_source(open_source(root), str(root))


def read_source(src: Source, name: str) -> System:
    """The System a source shows; ``name`` says where it came from."""
    host, missing = read_host(src)
    devices, gaps = read_devices(src)
    sysctls, sysctl_gaps = read_writeback(src)
    mounts, mount_gaps = read_mounts(src)
    tuners, tuner_gaps = read_tuners(src, host.cmdline, devices)
    missing = [*missing, *gaps, *sysctl_gaps, *mount_gaps, *tuner_gaps, *src.refused]
    if len(missing) > MAX_MISSING or len(src.refused) >= MAX_REFUSED:
        missing = [*missing[:MAX_MISSING], "(more not listed)"]
    return System(
        host=host,
        devices=devices,
        sysctls=sysctls,
        mounts=mounts,
        tuners=tuners,
        missing=tuple(missing),
        source=name,
    )


def read_tuners(
    src: Source, cmdline: str | None, devices: Sequence[Device] = ()
) -> tuple[tuple[Tuner, ...], list[str]]:
    """Other tuners in the order they act: boot, sysctl.d, udev at device add, then the tuning daemons (tuned 0.2's
    ktune or TuneD 2, never both: tuned 0.2 answers ``tuned-adm active`` too)."""
    tuned, tuned_gaps = read_ktune(src, cmdline) if is_tuned_02(src) else read_tuned(src, devices)
    saptune, saptune_gaps = read_saptune(src)
    tuners = [*read_cmdline_tuner(cmdline), *read_sysctl_tuners(src), *read_udev_tuners(src, cmdline), *tuned, *saptune,
              *read_sapconf(src)]  # fmt: skip
    return tuple(tuners), [*tuned_gaps, *saptune_gaps]
