"""Distribution name and version, as Ansible or ``/etc/os-release`` spell them, to a KB distribution id.

``name`` is Ansible's ``ansible_distribution`` (``SLES``, ``SLES_SAP``, ``RedHat``, ``CentOS``, ``Ubuntu`` ...) or
os-release's ``ID`` (``sles``, ``rhel``, ``ubuntu`` ...), in any case; ``version`` is
``ansible_distribution_version`` or ``VERSION_ID``. Both sources spell versions alike: SLES 12 SP5 is ``12.5``
(SP0 is ``12``), RHEL 9.3 is ``9.3``, Ubuntu 24.04 is ``24.04``, Debian 12 is ``12`` or ``12.5``, Fedora 40 ``40``.

Rebuilds of RHEL map to the RHEL release they rebuild (CentOS 7 is ``rhel7``): CentOS Linux, Rocky Linux,
AlmaLinux and Scientific Linux ship the RHEL kernel with its default elevators, tuned and boot loader tools.
Ansible names CentOS Stream ``CentOS`` too, so it maps the same way. Oracle Linux does not map: it boots the
Unbreakable Enterprise Kernel by default, whose block layer is not RHEL's.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_FAMILIES = {
    "sles": "sles",
    "sles_sap": "sles",
    "suse linux enterprise server": "sles",
    "redhat": "rhel",
    "rhel": "rhel",
    "red hat enterprise linux": "rhel",
    "red hat enterprise linux server": "rhel",
    "centos": "rhel",
    "rocky": "rhel",
    "almalinux": "rhel",
    "scientific": "rhel",
    "ubuntu": "ubuntu",
    "debian": "debian",
    "fedora": "fedora",
}
_VERSION = re.compile(r"(\d{1,4})(?:\.(\d{1,4}))?")


def family(name: object) -> str | None:
    """The KB distribution family (``sles``, ``rhel``, ``ubuntu``, ``debian``, ``fedora``) of a distribution name."""
    return _FAMILIES.get(name.strip().lower()) if isinstance(name, str) else None


def distro_id(name: object, version: object, known_ids: Collection[str]) -> str | None:
    """The KB id of a release (``SLES`` ``12.5`` is ``sles12sp5``) when ``known_ids`` holds it, else None."""
    fam = family(name)
    match = _VERSION.match(version.strip()) if isinstance(version, str) else None
    if fam is None or match is None:
        return None
    major, minor = int(match[1]), int(match[2]) if match[2] else None
    match fam:
        case "sles":
            candidate = f"sles{major}sp{minor}" if minor else f"sles{major}"
        case "ubuntu":
            candidate = f"ubuntu{major:02d}{minor:02d}" if minor is not None else None
        case _:
            candidate = f"{fam}{major}"
    return candidate if candidate in known_ids else None
