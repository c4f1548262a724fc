"""Block devices for ``iosched bench``: name checks, schedulers and their tunables, data detection,
and throw-away loop devices on filled image files. Nothing here writes to a real device's data."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from iosched.grammar import device_name
from iosched.measure.failure import MeasureError

SYS_BLOCK = Path("/sys/block")
_SIZE = re.compile(r"^(\d+)([KMGT]?)(i?B)?$", re.IGNORECASE)

# (offset, magic, what): signatures in the first 68 KiB that mean "this device holds data".
SIGNATURES = (
    (510, b"\x55\xaa", "an MBR partition table or boot sector"),
    (512, b"EFI PART", "a GPT partition table"),
    (1080, b"\x53\xef", "an ext2/3/4 file system"),
    (0, b"XFSB", "an XFS file system"),
    (65600, b"_BHRfS_M", "a btrfs file system"),
    (536, b"LVM2 001", "an LVM physical volume"),
    (0, b"LUKS\xba\xbe", "a LUKS container"),
    (4086, b"SWAPSPACE2", "swap space"),
    (4086, b"SWAP-SPACE", "swap space"),
    (3, b"NTFS    ", "an NTFS file system"),
    (82, b"FAT32   ", "a FAT32 file system"),
    (4096, b"\xfc\x4e\x2b\xa9", "an MD RAID member"),
)
HEAD_BYTES = 68 * 1024


def check_name(name: str) -> str:
    """A kernel block device name such as ``sda``, ``nvme0n1`` or ``loop3``; a ``/dev/`` prefix is accepted."""
    bare = name.removeprefix("/dev/")
    if not device_name(bare):
        raise MeasureError(f"not a block device name: {name!r} (expected e.g. sda, nvme0n1, loop0)")
    return bare


def parse_size(text: str) -> int:
    """``64M``, ``1G``, ``512MiB`` or bytes, at least 16 MiB; MeasureError otherwise."""
    match = _SIZE.match(text.strip())
    if not match:
        raise MeasureError(f"not a size: {text!r} (expected e.g. 64M or 1G)")
    value: int = int(match.group(1)) * 1024 ** " KMGT".index((match.group(2) or " ").upper())
    if value < 16 * 2**20:
        raise MeasureError(f"size {text} is too small (at least 16M)")
    return value


def parse_schedulers(line: str) -> tuple[list[str], str | None]:
    """``none [mq-deadline] kyber`` -> (["none", "mq-deadline", "kyber"], "mq-deadline")."""
    names, current = [], None
    for word in line.split():
        bare = word.strip("[]")
        if word.startswith("["):
            current = bare
        names.append(bare)
    return names, current


def signature(head: bytes) -> str | None:
    """What the first bytes of a device say it holds, or None."""
    for offset, magic, what in SIGNATURES:
        if head[offset : offset + len(magic)] == magic:
            return what
    return None


def queue(device: str) -> Path:
    path = SYS_BLOCK / device / "queue"
    if not path.is_dir():
        raise MeasureError(f"no such block device: {device}")
    return path


def schedulers(device: str) -> tuple[list[str], str | None]:
    return parse_schedulers((queue(device) / "scheduler").read_text())


def set_scheduler(device: str, name: str) -> str:
    """Switch and read back; returns the scheduler now active."""
    (queue(device) / "scheduler").write_text(name)
    return schedulers(device)[1] or ""


def tunables(device: str) -> dict[str, str]:
    """The active scheduler's tunables (``queue/iosched/*``)."""
    directory = queue(device) / "iosched"
    if not directory.is_dir():
        return {}
    return {p.name: p.read_text().strip() for p in sorted(directory.iterdir()) if p.is_file()}


def restore(device: str, scheduler: str | None, saved: dict[str, str]) -> list[str]:
    """Put the original scheduler and its tunables back; returns problems (empty when all went well)."""
    problems = []
    if scheduler:
        try:
            if set_scheduler(device, scheduler) != scheduler:
                problems.append(f"{device}: scheduler did not switch back to {scheduler}")
        except OSError as exc:
            problems.append(f"{device}: cannot restore scheduler {scheduler}: {exc}")
    for name, value in saved.items():
        path = queue(device) / "iosched" / name
        with contextlib.suppress(OSError):
            if path.read_text().strip() != value:
                try:
                    path.write_text(value)
                except OSError as exc:
                    problems.append(f"{device}: cannot restore iosched/{name}={value}: {exc}")
    return problems


def holds_data(device: str) -> list[str]:
    """Reasons to believe ``device`` holds data: partitions, holders, mounts, signatures."""
    reasons = []
    base = SYS_BLOCK / device
    parts = sorted(p.name for p in base.iterdir() if (p / "partition").is_file()) if base.is_dir() else []
    if parts:
        reasons.append(f"it has partitions ({', '.join(parts)})")
    holders = base / "holders"
    if holders.is_dir() and any(holders.iterdir()):
        reasons.append(f"it is held by {', '.join(sorted(p.name for p in holders.iterdir()))}")
    with contextlib.suppress(OSError):
        names = {f"/dev/{device}", *(f"/dev/{p}" for p in parts)}
        for line in Path("/proc/mounts").read_text().splitlines():
            if line.split(" ", 1)[0] in names:
                reasons.append(f"{line.split()[0]} is mounted on {line.split()[1]}")
    found = _blkid(device)
    if found:
        reasons.append(f"blkid finds {found}")
    else:
        try:
            with open(f"/dev/{device}", "rb") as fh:
                what = signature(fh.read(HEAD_BYTES))
        except OSError as exc:
            raise MeasureError(f"cannot read /dev/{device}: {exc.strerror or exc}") from None
        if what:
            reasons.append(f"its first sectors hold {what}")
    return reasons


def _blkid(device: str) -> str | None:
    if not shutil.which("blkid"):
        return None
    done = subprocess.run(["blkid", "-p", "-o", "export", f"/dev/{device}"], capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip
    fields = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    kinds = [f"{k}={fields[k]}" for k in ("TYPE", "PTTYPE") if k in fields]
    return ", ".join(kinds) or None


IMAGE_PREFIX = "iosched-bench-"
IMAGE_NAME = "disk.img"
_FILL_BLOCK = 1024 * 1024


def image_directory() -> Path:
    """A fresh directory for a loop image (under TMPDIR, like every temporary file)."""
    return Path(tempfile.mkdtemp(prefix=IMAGE_PREFIX))


def is_image(path: Path) -> bool:
    """Whether ``path`` is where ``iosched bench`` puts a loop image: TMPDIR/iosched-bench-*/disk.img."""
    return (path.is_absolute() and path.name == IMAGE_NAME and path.parent.name.startswith(IMAGE_PREFIX)
            and ".." not in path.parts)  # fmt: skip


def check_room(directory: Path, size: int) -> None:
    """MeasureError when a loop image of ``size`` bytes does not fit in ``directory``."""
    free = shutil.disk_usage(directory).free
    if size > free:
        raise MeasureError(f"a {size // 2**20} MiB loop image does not fit in {directory} ({free // 2**20} MiB "
                           "free); use a smaller --loop or another TMPDIR")  # fmt: skip


def fill(image: Path, size: int) -> None:
    """Write ``size`` bytes of incompressible data to ``image``: a sparse file reads its holes faster than
    any disk reads data, and the first scheduler measured would win by reading them."""
    check_room(image.parent, size)
    block = os.urandom(_FILL_BLOCK)
    try:
        with image.open("wb") as fh:
            for offset in range(0, size, _FILL_BLOCK):
                fh.write(block[: min(_FILL_BLOCK, size - offset)])
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise MeasureError(f"cannot write the loop image {image}: {exc.strerror or exc}") from None


def attach(image: Path) -> str:
    """Attach ``image`` to a free loop device; its name. An interruption waits for losetup to finish, so that a
    loop device it attaches is there to be found and detached."""
    if not shutil.which("losetup"):
        raise MeasureError("losetup is not installed (util-linux)")
    with subprocess.Popen(["losetup", "--find", "--show", str(image)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:  # fmt: skip
        try:
            stdout, stderr = proc.communicate(timeout=60)
        except BaseException:
            proc.wait(timeout=60)
            raise
    if proc.returncode != 0:
        raise MeasureError(f"losetup failed: {stderr.strip() or proc.returncode}")
    return check_name(stdout.strip())


def loops_of(image: Path) -> list[str]:
    """The loop devices backed by ``image`` (also when it was deleted meanwhile)."""
    found = []
    for backing in sorted(SYS_BLOCK.glob("loop*/loop/backing_file")):
        with contextlib.suppress(OSError):
            if backing.read_text().strip().removesuffix(" (deleted)") == str(image):
                found.append(backing.parent.parent.name)
    return found


def discard_image(image: Path) -> tuple[list[str], list[str]]:
    """Detach every loop device of ``image`` and remove its directory: (what was done, what could not be)."""
    done, problems = [], []
    for name in loops_of(image):
        for _ in range(50):  # a device closed a moment ago may still be busy
            result = subprocess.run(["losetup", "-d", f"/dev/{name}"], capture_output=True, text=True, timeout=60,
                                    check=False)  # fmt: skip
            if result.returncode == 0 or name not in loops_of(image):
                done.append(f"detached {name}")
                break
            time.sleep(0.1)
        else:
            problems.append(f"cannot detach {name}: {result.stderr.strip() or result.returncode}")
    if problems:
        return done, problems  # the image stays, so that the next bench finds the loop device and retries
    if image.parent.is_dir():
        shutil.rmtree(image.parent, ignore_errors=True)
        done.append(f"removed {image.parent}")
    return done, problems


@contextlib.contextmanager
def loop_device(size: int, before_writing: Callable[[Path], None] | None = None) -> Iterator[str]:
    """A loop device on a filled image of ``size`` bytes in a fresh temporary directory; detached and removed
    afterwards. ``before_writing(image)`` is called before the image is written (to record where it is)."""
    image = image_directory() / IMAGE_NAME
    try:
        if before_writing is not None:
            before_writing(image)
        fill(image, size)
        yield attach(image)
    finally:
        discard_image(image)  # what cannot be discarded stays, for the caller to see (and retry)


def drop_caches() -> bool:
    """``sync; echo 3 > /proc/sys/vm/drop_caches``; False when not permitted."""
    os.sync()
    try:
        Path("/proc/sys/vm/drop_caches").write_text("3")
    except OSError:
        return False
    return True
