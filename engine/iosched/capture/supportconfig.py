"""A SUSE supportconfig directory as a :class:`~iosched.capture.source.TextSource`.

supportconfig (openSUSE/supportutils, ``bin/supportconfig``) writes sections into ``*.txt`` files, each opened by
a ``#==[ Kind ]====#`` line and a ``# label`` line: ``Command`` sections hold a command's output, ``Configuration
File`` sections a file's content (comment lines dropped; ``# /path - File not found`` when there was none). Those
become the command outputs and files of the source, so the same readers serve a supportconfig, a sosreport and a
live root. ``_log_cmd`` (bin/supportconfig.rc) writes its label from ``CMDLINE=($@)``: the shell has split the
command into words and expanded its globs, so the scheduler grep is labelled ``grep '' /sys/block/sda/queue/scheduler
/sys/block/sdb/queue/scheduler ...``; a label is looked up without its ``2>/dev/null`` redirection. Two facts are
adapted: the ``grep '' /sys/block/*/queue/scheduler`` lines of fs-diskio.txt become ``sys/block/*/queue/scheduler``
files, and the ``# Virtualization`` summary becomes a ``systemd-detect-virt`` answer.
"""

from __future__ import annotations

import re
from pathlib import Path

from iosched.capture import listings
from iosched.capture.source import TextSource, TreeSource, normalize_command

REPORT_FILES = ("basic-environment.txt", "boot.txt", "env.txt", "fs-diskio.txt", "hardware.txt", "lvm.txt",
                "memory.txt", "mpio.txt", "udev.txt", "tuned.txt", "plugin-saptune.txt",
                "plugin-iosched.txt")  # fmt: skip
MAX_REPORT_BYTES = 16 * 1024 * 1024
MARKER = "basic-environment.txt"
SCHEDULER_GREP = "grep '' /sys/block/*/queue/scheduler"
_HEADER = re.compile(r"^#==\[ ?(.+?) ?\]=*#?\s*$")
_SCHEDULER_GREP_EXPANDED = re.compile(r"grep '' (?:/sys/block/\S+/queue/scheduler ?)+")
_REDIRECTION = re.compile(r" \d?>(?:&\d|/dev/null)(?= |$)")
FILE_KINDS = ("Configuration File", "File Content", "File")
HYPERVISORS = (("KVM", "kvm"), ("Xen", "xen"), ("VMware", "vmware"), ("Microsoft", "microsoft"),
               ("Sun VirtualBox", "oracle"))  # fmt: skip


def is_supportconfig(root: Path) -> bool:
    return (root / MARKER).is_file()


def sections(text: str) -> list[tuple[str, str, str]]:
    """(kind, label, body) of every section; the body without its trailing blank lines."""
    found: list[tuple[str, str, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        header = _HEADER.match(lines[i])
        if header is None:
            if found:
                found[-1][2].append(lines[i])
            i += 1
            continue
        label = lines[i + 1][1:].strip() if i + 1 < len(lines) and lines[i + 1].startswith("#") else ""
        found.append((header.group(1).strip(), label, []))
        i += 2 if label else 1
    return [(kind, label, "\n".join(body).strip("\n") + "\n") for kind, label, body in found]


def read_supportconfig(root: Path) -> TextSource:
    tree = TreeSource(root)
    files: dict[str, str] = {}
    outputs: dict[str, str] = {}
    summary = ""
    for name in REPORT_FILES:
        text = tree.text(name, limit=MAX_REPORT_BYTES)
        for kind, label, body in sections(text or ""):
            if kind in FILE_KINDS:
                path = _file_label(label)
                if path:
                    files.setdefault(path, body)
            elif kind == "Command" and label:
                outputs.setdefault(_command_key(label), body)
            elif kind == "System" and label == "Virtualization":
                summary = summary or body
    virt = _virtualization(summary, outputs.get("uname -a", ""))
    if virt:
        outputs.setdefault("systemd-detect-virt --vm", virt)
    for device, line in listings.scheduler_lines(outputs.get(SCHEDULER_GREP, "")).items():
        files.setdefault(f"sys/block/{device}/queue/scheduler", line + "\n")
    source = TextSource(files, outputs)
    source.refused.extend(tree.refused)
    return source


def _command_key(label: str) -> str:
    """A command label as a lookup key: the scheduler grep whatever the shell expanded its glob to, redirections
    dropped."""
    key = normalize_command(_REDIRECTION.sub("", label))
    return SCHEDULER_GREP if _SCHEDULER_GREP_EXPANDED.fullmatch(key) else key


def _file_label(label: str) -> str | None:
    """``/etc/os-release`` or ``cat /etc/os-release`` -> ``etc/os-release``; None for missing or partial files."""
    path = label.removeprefix("cat ").strip()
    if not path.startswith("/") or " " in path:
        return None
    return path.strip("/")


def _virtualization(body: str, uname: str) -> str:
    """supportconfig's summary as systemd-detect-virt would answer; "" when it cannot tell."""
    hypervisor = re.search(r"^Hypervisor:\s*(.+)$", body, re.MULTILINE)
    identity = re.search(r"^Identity:\s*(.+)$", body, re.MULTILINE)
    if hypervisor is None:
        return ""
    if identity and "Server" in identity.group(1):
        return "none"  # a hypervisor host (Dom0, a VMware or VirtualBox host) runs on the hardware
    if hypervisor.group(1).startswith("None"):
        return "" if "s390" in uname else "none"  # supportconfig does not look for z/VM
    return next((virt for prefix, virt in HYPERVISORS if hypervisor.group(1).startswith(prefix)), "vm-other")
