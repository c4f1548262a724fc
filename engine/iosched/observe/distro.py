"""Ansible's distribution facts as os-release fields, and the KB distribution id they name.

Ansible reads ``/etc/os-release`` (or the release files before it) and names the result its own way:
``ansible_distribution`` ``SLES``, ``RedHat``, ``CentOS``, ``Ubuntu`` ...; ``ansible_distribution_version`` spells
the version as ``VERSION_ID`` does (SLES 12 SP5 is ``12.5``, SP0 ``12``; RHEL 9.3 ``9.3``; Ubuntu ``24.04``; Debian
``12`` or ``12.5``; Fedora ``40``). :func:`os_release` turns them back into os-release's ``ID`` and ``VERSION_ID``,
so that one mapping, :func:`iosched.observe.classify.distro_id`, gives the KB id for probed hosts and Ansible hosts
alike (RHEL rebuilds to ``rhelN``, SLES for SAP to ``slesNNspN``).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from iosched.observe.classify import distro_id as os_release_distro_id

ANSIBLE_IDS = {
    "SLES": "sles", "SLES_SAP": "sles_sap", "SLED": "sled", "SL-Micro": "sl-micro", "openSUSE Leap": "opensuse-leap",
    "openSUSE Tumbleweed": "opensuse-tumbleweed", "RedHat": "rhel", "CentOS": "centos", "Rocky": "rocky",
    "AlmaLinux": "almalinux", "OracleLinux": "ol", "Scientific": "scientific", "Fedora": "fedora", "Amazon": "amzn",
    "Ubuntu": "ubuntu", "Debian": "debian", "Linuxmint": "linuxmint", "Linux Mint": "linuxmint",
}  # fmt: skip
"""``ansible_distribution`` to os-release ``ID`` where they differ by more than case (system/distribution.py)."""
REDHAT_NAME_IDS = {"Red Hat Enterprise Linux": "rhel", "CentOS": "centos", "CentOS Linux": "centos",
                   "CentOS Stream": "centos", "Rocky Linux": "rocky", "AlmaLinux": "almalinux",
                   "Oracle Linux Server": "ol", "Scientific Linux": "scientific", "Fedora": "fedora"}  # fmt: skip
"""Release names (os-release ``NAME``, /etc/redhat-release) of RHEL and its relatives, to os-release ``ID``."""
OS_RELEASE_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
VERSION_ID = re.compile(r"\d{1,4}(?:\.\d{1,4}){0,3}")


def os_release(name: object, version: object) -> dict[str, str]:
    """os-release ``ID`` and ``VERSION_ID`` for Ansible's distribution and version, or {} when they are not valid."""
    if not isinstance(name, str) or not isinstance(version, str):
        return {}
    ident = ANSIBLE_IDS.get(name, name.strip().lower().replace(" ", "-"))
    if not OS_RELEASE_ID.fullmatch(ident) or not VERSION_ID.fullmatch(version.strip()):
        return {}
    return {"ID": ident, "VERSION_ID": version.strip()}


def distro_id(name: object, version: object, known_ids: Collection[str], kernel: str | None = None) -> str | None:
    """The KB id of an Ansible distribution and version (``SLES`` ``12.5`` is ``sles12sp5``), or None; ``kernel``
    is the running kernel release where it decides (Oracle Linux on its Red Hat Compatible Kernel is RHEL)."""
    return os_release_distro_id(os_release(name, version), known_ids, kernel)
