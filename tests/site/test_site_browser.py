"""The built site in headless Chromium, served on loopback: search, copy button, no request elsewhere."""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit

from browser import MARKS

from iosched.render.links import anchor, location, page_url

pytestmark = MARKS


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


def test_opened_from_disk_every_page_says_how_to_serve_it(built_site, served: str, browser_page) -> None:
    """From file:// a browser fetches nothing, so search, the advisor and folder links cannot work: every page
    says so and how to serve the site; served over HTTP it says nothing of the kind."""
    page, _ = browser_page
    page.goto(served, wait_until="load")
    assert page.locator("[data-ios-from-disk]").count() == 0
    disk = page.context.browser.new_context().new_page()
    for html in ("index.html", "reference/advisor/index.html", "reference/sysctls/index.html"):
        disk.goto((built_site / html).as_uri(), wait_until="load")
        banner = disk.locator("[data-ios-from-disk]")
        banner.wait_for(timeout=10_000)
        assert "make serve" in banner.inner_text(), html


def _plan_links(served: str) -> list[str]:
    """The links ``iosched advise`` prints to the site at ``served``, as a user runs it."""
    import os
    import re
    import subprocess
    import sys

    argv = [sys.executable, "-m", "iosched", "advise", "--hw", "virtual", "--workload", "db", "--format", "markdown"]
    proc = subprocess.run(
        argv, env={**os.environ, "IOSCHED_SITE_URL": served}, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return re.findall(rf"\]\(({re.escape(served)}[^)\s]+)\)", proc.stdout)


def test_a_plan_link_opens_a_page_that_shows_the_same_kb(kb, served: str, browser_page) -> None:
    page, _ = browser_page
    links = _plan_links(served)
    assert links and all(f"?kb={kb.version}" in link for link in links), links
    page.goto(links[0])
    footer = page.locator("[data-ios-build]")
    footer.scroll_into_view_if_needed()
    assert footer.is_visible() and footer.locator("[data-ios-kb]").inner_text() == kb.version
    assert page.locator("[data-ios-kb-check='same']").count() == 1
    assert page.locator("[data-ios-kb-check='other']").count() == 0
    assert page.locator("[data-ios-preview]").is_visible()


def test_a_link_from_another_kb_is_warned_about(kb, served: str, browser_page) -> None:
    page, _ = browser_page
    other = "0" * len(kb.version) if kb.version != "0" * len(kb.version) else "1" * len(kb.version)
    page.goto(_plan_links(served)[0].replace(f"?kb={kb.version}", f"?kb={other}"))
    warning = page.locator("[data-ios-kb-check='other']")
    assert warning.is_visible()
    assert other in warning.inner_text() and kb.version in warning.inner_text()
