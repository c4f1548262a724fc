"""The distribution release: ``/etc/os-release``, or the release files of systems older than it."""

from __future__ import annotations

import re

from iosched.capture.source import Source
from iosched.observe.distro import REDHAT_NAME_IDS

OS_RELEASE_FILES = ("etc/os-release", "usr/lib/os-release")
_KEY = re.compile(r"[A-Z][A-Z0-9_]{0,63}")
_REDHAT = re.compile(
    r"^(?P<name>Red Hat Enterprise Linux|CentOS(?: Linux| Stream)?|Rocky Linux|AlmaLinux|Oracle Linux Server|"
    r"Scientific Linux|Fedora)\b.*?\brelease (?P<version>\d+(?:\.\d+)*)"
)


def parse_os_release(text: str) -> dict[str, str]:
    """``KEY=value`` lines of an os-release file, shell quoting removed (os-release(5))."""
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if not sep or not _KEY.fullmatch(key):
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        fields[key] = re.sub(r"\\(.)", r"\1", value)[:256]
    return fields


def parse_suse_release(text: str) -> dict[str, str]:
    """``/etc/SuSE-release`` (SLES 11 and 12, openSUSE before Leap) as os-release fields."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    fields = dict(re.findall(r"^([A-Z]+)\s*=\s*(\S+)$", "\n".join(lines[1:]), re.MULTILINE))
    if not lines or "VERSION" not in fields:
        return {}
    title = re.sub(r"\s*\([^)]*\)$", "", lines[0])
    enterprise = "Enterprise Server" in title
    patch = fields.get("PATCHLEVEL", "0")
    version = f"{fields['VERSION']}.{patch}" if enterprise and patch != "0" else fields["VERSION"]
    return {
        "NAME": title,
        "ID": "sles" if enterprise else "opensuse",
        "VERSION_ID": version,
        "PRETTY_NAME": f"{title} SP{patch}" if enterprise and patch != "0" else title,
    }


def parse_redhat_release(text: str) -> dict[str, str]:
    """``/etc/redhat-release`` (RHEL 6 and its rebuilds) as os-release fields."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    match = _REDHAT.match(line)
    if not match:
        return {}
    ident = REDHAT_NAME_IDS[match.group("name")]
    fields = {"NAME": match.group("name"), "ID": ident, "VERSION_ID": match.group("version"), "PRETTY_NAME": line}
    if ident not in ("rhel", "fedora"):
        fields["ID_LIKE"] = "rhel fedora"
    return fields


def parse_debian_version(text: str) -> dict[str, str]:
    """``/etc/debian_version`` (``9.13``) as os-release fields; None for testing/sid names."""
    version = text.strip()
    if not re.fullmatch(r"\d+(?:\.\d+)*", version):
        return {}
    return {"NAME": "Debian GNU/Linux", "ID": "debian", "VERSION_ID": version.split(".")[0]}


def read_release(src: Source) -> tuple[dict[str, str], list[str]]:
    """os-release fields, from the first release file the source holds; and what is missing."""
    for rel in OS_RELEASE_FILES:
        text = src.text(rel)
        if text is not None and (fields := parse_os_release(text)):
            return fields, []
    for rel, parse in (
        ("etc/SuSE-release", parse_suse_release),
        ("etc/redhat-release", parse_redhat_release),
        ("etc/debian_version", parse_debian_version),
    ):
        text = src.text(rel)
        if text is not None and (fields := parse(text)):
            return fields, []
    return {}, ["distribution (etc/os-release)"]
