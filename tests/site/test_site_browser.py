"""The built site in headless Chromium, served on loopback: search, copy button, no request elsewhere."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from iosched.render.links import anchor, location, page_url

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]  # fmt: skip

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (bash .ci/system-deps)"),
]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def served(built_site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture()
def browser_page(served: str) -> Iterator[tuple[object, list[str]]]:
    from playwright.sync_api import sync_playwright

    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context()
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.rstrip("/"))
            context.on("request", lambda request: requests.append(request.url))
            page = context.new_page()
            page.set_default_timeout(20_000)
            yield page, requests
        finally:
            browser.close()
    outside = [
        u for u in requests if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"
    ]
    assert not outside, f"requests left 127.0.0.1: {outside}"


def test_search_finds_read_expire_and_opens_it(kb, served: str, browser_page) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page, requests = browser_page
    found = [t for t in kb.index.values() if hasattr(t, "tunable") and t.tunable.name == "read_expire"]
    assert found, "the KB has no read_expire tunable"
    pages = {page_url(location(t)[0]) for t in found}
    page.goto(served, wait_until="networkidle")  # the search worker has fetched its index
    search = page.locator("input.md-search__input")
    result = page.locator(f".md-search-result__link[href*='#{anchor('read_expire')}']").first
    for _ in range(5):  # type again if the worker was still building its index
        search.click()
        search.fill("")
        search.press_sequentially("read_expire", delay=40)
        with contextlib.suppress(PlaywrightTimeout):
            result.wait_for(timeout=4_000)
            break
    result.click()
    page.wait_for_url(f"**#{anchor('read_expire')}")
    assert urlsplit(page.url).path.lstrip("/") in pages
    assert page.locator(f"[id='{anchor('read_expire')}']").is_visible()
    assert any(u.endswith("search_index.json") for u in requests)


def test_copy_button_copies_the_exact_command(kb, served: str, browser_page) -> None:
    page, _ = browser_page
    distro = next(d for d in kb.section("distributions") if d.grub_update)
    page.goto(served + page_url(location(distro)[0]))
    block = page.locator("pre", has_text=distro.grub_update).first
    block.scroll_into_view_if_needed()
    block.hover()
    block.locator("button[data-md-type='copy'], button.md-clipboard").first.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == distro.grub_update.strip()


def test_pages_load_offline_with_the_palette_toggle(kb, served: str, browser_page) -> None:
    page, requests = browser_page
    elevator = kb.section("elevators")[0]
    page.goto(served + page_url(location(elevator)[0]))
    page.locator("label[for='__palette_1']").first.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    assert len(requests) > 3
