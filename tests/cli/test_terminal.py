"""The text format on a real terminal (a pty of 80 columns): every command arrives whole, on one line."""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios

import pytest

from iosched.knowledge.context import Context
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.steps import kind_of

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b\]8;[^\x1b]*\x1b\\\\")
CASES = [
    ["--hw", "virtual", "--workload", "db", "--distro", "ubuntu1604", "--device", "sda"],
    [
        "--hw",
        "hdd",
        "--workload",
        "batch",
        "--distro",
        "sles12sp5",
        "--device",
        "sdb",
        "--serial",
        "WDC_WD40EFRX-68N32N0_WD-WCC7K4ABCDEF",
    ],
    [
        "--hw",
        "san",
        "--workload",
        "db",
        "--fs",
        "ext4",
        "--mount-options",
        "rw,nobarrier",
        "--mountpoint",
        "/var/lib/pgsql",
    ],
]


def _on_a_terminal(argv: list[str], columns: int) -> str:
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    proc = subprocess.Popen([sys.executable, "-m", "iosched", *argv], stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(leader)
    assert proc.returncode == 0
    return ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")


@pytest.mark.parametrize("args", CASES, ids=lambda a: a[1])
def test_commands_are_never_wrapped_at_80_columns(kb, args: list[str]) -> None:
    screen = _on_a_terminal(["advise", *args], 80)
    lines = {line.strip() for line in screen.splitlines()}
    flags = dict(zip(args[::2], args[1::2], strict=True))
    ctx = Context.from_mapping({k.removeprefix("--").replace("-", "_"): v for k, v in flags.items()})
    plan = advise(kb, ctx)
    assert plan.steps
    commands = []
    for step in plan.steps:
        kind = kind_of(step)
        commands += [kind.apply(step), kind.verify(step)]
    for content in files([plan]).values():
        commands.append(content)
    for command in commands:  # the answer's commands carry a comment; files are installed one printf word a line
        for line in command.splitlines():
            assert any(line.strip() in shown for shown in lines), f"{line!r} is not whole on the screen"
    assert max(len(line) for line in commands for line in line.splitlines()) > 80


@pytest.mark.parametrize("kind", ["tunables", "rules", "caveats", "sysctls"])
def test_list_shows_every_id_whole_at_80_columns(kb, kind: str) -> None:
    screen = _on_a_terminal(["list", kind], 80)
    words = {word for line in screen.splitlines() for word in line.split()}
    ids = [entity.id for entity in kb.entities(kind)]
    assert ids
    assert [i for i in ids if i not in words] == [], "ids cut or wrapped on the screen"
    assert max(len(line.rstrip()) for line in screen.splitlines()) <= 80


def test_probe_fits_80_columns_and_keeps_every_cell_whole(kb) -> None:
    from pathlib import Path

    from iosched.observe.reader import read_root

    root = Path(__file__).resolve().parents[1] / "observe" / "captures" / "sos-rhel8-kvm-lvm"
    screen = _on_a_terminal(["probe", "--root", str(root)], 80)
    lines = screen.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    words = {word for line in lines for word in line.split()}
    system = read_root(root)
    for device in system.devices:
        assert device.name in words
        assert all(name in words for name in device.schedulers), device.name
    assert "HWQ" in words and "MODEL" in words, "columns that do not fit go to a further block"
