"""The site, built once per session with ``mkdocs build --strict``, its HTML parsed, served on loopback and
opened in headless Chromium."""

from __future__ import annotations

import functools
import json
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
    """One headless Chromium for the session's browser tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def tab(chromium: Any, served: str) -> Iterator[tuple[Any, Any]]:
    """One context and page for a module's browser tests, each given it as a new one would be (browser_page):
    a new page costs Chromium more than a second of CPU, a navigation on this one a fraction of that."""
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.rstrip("/"))
        page = context.new_page()
        page.set_default_timeout(20_000)
        yield context, page
    finally:
        context.close()


JSON = "application/json"
VIEWPORT = {"width": 1280, "height": 720}
"""A new context's viewport, which each test starts with."""


@pytest.fixture(scope="session")
def empty_search_index(built_site: Path) -> str:
    """The site's search index with no page in it (its own configuration): building the real one costs Chromium
    about a second on each page load, which only the search tests need (searching_page)."""
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    return json.dumps({"config": index["config"], "docs": []})


def _opened(tab: tuple[Any, Any], served: str, index: str | None) -> Iterator[tuple[object, list[str]]]:
    """The module's page, blank and with nothing from an earlier test (no cookie, storage or cache, the first
    viewport), and the URLs it requests; fails if any request left 127.0.0.1 or a script failed. With an
    ``index``, the site's search index reads as that text."""
    context, page = tab
    page.goto("about:blank")
    cdp = context.new_cdp_session(page)
    cdp.send("Network.clearBrowserCache")
    cdp.send("Storage.clearDataForOrigin", {"origin": served.rstrip("/"), "storageTypes": "all"})
    cdp.detach()
    context.clear_cookies()
    page.set_viewport_size(VIEWPORT)
    requests: list[str] = []
    errors: list[str] = []

    def requested(request: Any) -> None:
        requests.append(request.url)

    def failed(error: Any) -> None:
        errors.append(str(error))

    context.on("request", requested)
    page.on("pageerror", failed)
    if index is not None:
        context.route("**/search/search_index.json", lambda route: route.fulfill(body=index, content_type=JSON))
    try:
        yield page, requests
    finally:
        context.unroute_all()
        context.remove_listener("request", requested)
        page.remove_listener("pageerror", failed)
        for other in context.pages[1:]:  # what a test opened is closed, as its context would have been
            other.close()
    outside = [
        u for u in requests if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"
    ]
    assert not outside, f"requests left 127.0.0.1: {outside}"
    assert not errors, f"script errors: {errors}"


@pytest.fixture()
def browser_page(tab: tuple[Any, Any], served: str, empty_search_index: str) -> Iterator[tuple[object, list[str]]]:
    """The module's page for one test, its search index empty (_opened)."""
    yield from _opened(tab, served, empty_search_index)


@pytest.fixture()
def searching_page(tab: tuple[Any, Any], served: str) -> Iterator[tuple[object, list[str]]]:
    """The module's page for one test that searches: the site's own search index (_opened)."""
    yield from _opened(tab, served, None)
