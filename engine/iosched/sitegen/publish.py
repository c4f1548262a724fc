"""What a site build is: public (a non-local https URL, the canonical address of every page) or a local preview
(no canonical URL, every page says so), and the KB and date it was built from, which every page shows.

A public build is asked for by ``$IOSCHED_SITE_URL``, the variable that also makes the command line link to the
site; without it ``mkdocs build`` makes a preview. ``mkdocs serve`` always makes a preview.
"""

from __future__ import annotations

import ipaddress
import os
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from iosched.errors import SiteUrlError
from iosched.render.links import SITE_URL_ENV, site_base

LOCAL_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".lan", ".home.arpa", ".test", ".example")
"""Host names that no reader outside the builder's network can open (RFC 6761, RFC 6762, RFC 8375)."""


@dataclass(frozen=True)
class Build:
    """The canonical base URL (None: a local preview) and the build date (UTC, ISO 8601)."""

    url: str | None
    date: str

    @property
    def preview(self) -> bool:
        return self.url is None


def local_reason(url: str) -> str | None:
    """Why ``url`` cannot be a public site's canonical address, or None when it can."""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return "not https"
    host = (parts.hostname or "").rstrip(".").lower()
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith(LOCAL_SUFFIXES) or "." not in host:
            return f"{host or 'no host'} is a local name"
        return None
    if not address.is_global:
        return f"{host} is not a public address"
    return None


def build_date() -> str:
    """Today in UTC, or the day ``$SOURCE_DATE_EPOCH`` names (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return time.strftime("%Y-%m-%d", time.gmtime(int(epoch) if epoch.isdigit() else None))


def this_build(command: str) -> Build:
    """The build ``mkdocs COMMAND`` makes; a public one refuses a URL no reader could open (SiteUrlError)."""
    if command == "serve":
        return Build(None, build_date())
    url = site_base()
    if url is not None and (why := local_reason(url)):
        raise SiteUrlError(
            f"${SITE_URL_ENV}={url} cannot be a public site's canonical URL ({why}): "
            f"give its public https address, or unset it for a local preview build"
        )
    return Build(url, build_date())
