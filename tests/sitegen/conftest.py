"""The site, built once per session with ``mkdocs build --strict``, its HTML parsed, served on loopback and
opened in headless Chromium."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser import ARGS, CHROMIUM
from sitehtml import Page, parse

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` of the repository's site into a temporary directory, built by the site's bench
    script (one run), which this checks as tests/bench checks the others."""
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, str(ROOT / "bench/site_build.py"), "--runs", "1", "--keep", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "full site build" in proc.stdout, proc.stdout
    return out


@pytest.fixture(scope="session")
def pages(built_site: Path) -> dict[str, Page]:
    """Every built HTML page by its path relative to the site root."""
    return {p.relative_to(built_site).as_posix(): parse(p) for p in sorted(built_site.rglob("*.html"))}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def served(built_site: Path) -> Iterator[str]:
    """The built site on an ephemeral loopback port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """One headless Chromium for the session's browser tests (each test has a context of its own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture()
def browser_page(chromium: Any, served: str) -> Iterator[tuple[object, list[str]]]:
    """A Chromium page in a fresh context (no cookie, storage or cache from another test) and the URLs it
    requested; fails if any request left 127.0.0.1 or a script failed."""
    requests: list[str] = []
    errors: list[str] = []
    context = chromium.new_context()
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.rstrip("/"))
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(20_000)
        yield page, requests
    finally:
        context.close()
    outside = [
        u for u in requests if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"
    ]
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"script errors: {errors}"
