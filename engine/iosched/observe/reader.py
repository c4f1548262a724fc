"""``read_root``: everything iosched can learn about a host from a root directory.

The root is ``/`` on a live host, a copied tree, an extracted sosreport or a supportconfig directory, or any of
them as a tarball; the layout is recognised by what the directory holds. When the capture holds iosched's own
probe document (``iosched collect``, iosched's sos_extras definition or supportconfig plugin), that document is
the System, read as untrusted input; the files beside it are read only when it is absent or cannot be read.
Nothing is executed and nothing is written outside a temporary directory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from iosched.capture.source import MAX_REFUSED, PROBE_LIMIT, Source, TreeSource, mangle
from iosched.capture.supportconfig import is_supportconfig, read_supportconfig
from iosched.mechanisms.cmdline import read_cmdline_tuner
from iosched.mechanisms.ktune import is_tuned_02, read_ktune
from iosched.mechanisms.sysctld import read_sysctl_tuners
from iosched.mechanisms.tuned import read_tuned
from iosched.mechanisms.udev import read_udev_tuners
from iosched.observe.blockdevs import read_devices
from iosched.observe.machine import read_host
from iosched.observe.mounts import read_mounts
from iosched.observe.sap import read_sapconf, read_saptune
from iosched.observe.writeback import read_writeback
from iosched.records.system import Device, System, Tuner

MAX_MISSING = 300
EXTRAS = "sos_commands/sos_extras"
PROBE_FILE = "iosched-probe.json"
"""The probe document in a collected tree, at its top."""
PROBE_COMMAND = "iosched probe --format json"
"""The command whose output a sosreport (sos_extras) or a supportconfig plugin keeps."""


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
    """The System a root (or a capture's tarball) shows; what it does not show is listed in ``missing``.
    Raises ProbeError."""
    with root_directory(root) as tree:
        return read_source(open_source(tree), str(root))


@contextmanager
def root_directory(root: Path) -> Iterator[Path]:
    """The directory of a root: itself, or a capture's tarball unpacked for the time of the block.
    Raises ProbeError."""
    if not root.is_file():  # tarfile and tempfile are imported only for a tarball
        yield root
        return
    from iosched.observe.archive import ArchiveError, is_archive, unpacked

    if not is_archive(root):
        raise ProbeError(f"not a directory or a tarball: {root}")
    try:
        with unpacked(root) as tree:
            yield tree
    except ArchiveError as exc:
        raise ProbeError(str(exc)) from None


def probe_text(src: Source) -> str | None:
    """iosched's probe document in a capture: a collected tree's file, a supportconfig plugin's section, or the
    output sos_extras keeps under ``sos_commands/sos_extras/DEFINITION/`` (named after the command as sos mangles
    it, with whatever directory or interpreter the definition ran it by)."""
    text = src.text(PROBE_FILE, PROBE_LIMIT) or src.command(PROBE_COMMAND)
    if text is not None:
        return text
    suffix = mangle(PROBE_COMMAND)
    for definition in src.listdir(EXTRAS):
        for name in src.listdir(f"{EXTRAS}/{definition}"):
            if name.endswith(suffix) and (text := src.text(f"{EXTRAS}/{definition}/{name}", PROBE_LIMIT)):
                return text
    return None


def read_source(src: Source, name: str) -> System:
    """The System a source shows; ``name`` says where it came from. A probe document in the source wins; one
    that cannot be read is named in ``missing`` of the System read from the files."""
    text = probe_text(src)
    note = []
    if text is not None:  # json and the document's reader are imported only for a capture that holds one
        import json

        from iosched.observe.probejson import from_document

        try:
            return from_document(json.loads(text)).replace(source=name)
        except (ValueError, RecursionError) as exc:
            note = [f"iosched's probe document: {' '.join(str(exc).split())[:200]}"]
    host, missing = read_host(src)
    devices, gaps = read_devices(src)
    sysctls, sysctl_gaps = read_writeback(src)
    mounts, mount_gaps = read_mounts(src)
    tuners, tuner_gaps = read_tuners(src, host.cmdline, devices)
    missing = [*note, *missing, *gaps, *sysctl_gaps, *mount_gaps, *tuner_gaps, *src.refused]
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
