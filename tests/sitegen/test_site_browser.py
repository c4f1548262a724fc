"""The built site in headless Chromium, served on loopback: search, release pages, copy button, no request
elsewhere."""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser import MARKS

from iosched.knowledge.kinds import BY_SLUG
from iosched.render.links import anchor, location, page_url
from iosched.sitegen import advisor, currency, releases
from iosched.sitegen.grid import distro_key
from iosched.sitegen.pages import page_of

pytestmark = MARKS


def test_search_finds_read_expire_and_opens_a_current_page(kb, served: str, searching_page) -> None:
    page, requests = searching_page
    found = [t for t in kb.entities("tunables") if t.tunable.name == "read_expire"]
    current = {page_url(location(t)[0]) for t in found if currency.removed_in(t) is None}
    assert current, "the KB has no current read_expire tunable"
    page.goto(served, wait_until="networkidle")  # the search worker has fetched its index
    first = _results(page, "read_expire")[0]
    assert first in current
    page.locator(".md-search-result__item > .md-search-result__link").first.click()
    page.wait_for_url(f"**/{first}*")
    assert "read_expire" in page.locator("h1").inner_text()
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
    from_disk = page.context.browser.new_context()
    try:
        disk = from_disk.new_page()
        for html in ("index.html", "reference/advisor/index.html", "reference/sysctls/index.html"):
            disk.goto((built_site / html).as_uri(), wait_until="load")
            banner = disk.locator("[data-ios-from-disk]")
            banner.wait_for(timeout=10_000)
            assert "make serve" in banner.inner_text(), html
    finally:
        from_disk.close()


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


def test_an_old_anchor_keeps_the_kb_of_the_link_that_led_to_it(kb, served: str, browser_page) -> None:
    """A plan's link to an old anchor (a release on the one distributions page) moves to the release's own page
    with its ?kb=, so the page still warns that the plan came from another KB."""
    page, _ = browser_page
    distro = _release(kb, "rhel")
    other = "0" * len(kb.version) if kb.version != "0" * len(kb.version) else "1" * len(kb.version)
    page.goto(f"{served}{page_url(page_of(BY_SLUG['distributions']))}?kb={other}#{anchor(distro.id)}")
    page.wait_for_url(f"{served}{page_url(location(distro)[0])}?kb={other}")
    assert page.locator("[data-ios-kb-check='other']").is_visible()


def _results(page: Any, query: str) -> list[str]:
    """The URL paths of the search results for ``query``, best first (typed again while the worker builds its
    index)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    search = page.locator("input.md-search__input")
    links = page.locator(".md-search-result__item > .md-search-result__link")
    for _ in range(5):
        search.click()
        search.fill(query[:-1])  # no keyup: the search does not run for it
        search.press(query[-1])  # one keyup, one search
        with contextlib.suppress(PlaywrightTimeout):
            links.first.wait_for(timeout=4_000)
            return [urlsplit(h).path.lstrip("/") for h in _settled(page, links)]
    raise AssertionError(f"no search result for {query!r}")


def _settled(page: Any, links: Any) -> list[str]:
    """The results' hrefs once two reads a quarter of a second apart agree: the list may still be drawn when
    the first result shows."""
    script = "ls => ls.map(l => l.href)"
    before, after = None, links.evaluate_all(script)
    while after != before:
        page.wait_for_timeout(250)
        before, after = after, links.evaluate_all(script)
    return list(after)


def _release(kb: Any, family: str) -> Any:
    """The last release of a family in the KB whose id is the family's name (``rhel10``, not ``ol9``)."""
    return [d for d in kb.section("distributions") if d.family == family and d.id.startswith(family)][-1]


RELEASE_QUERIES = {
    "rhel": lambda d: releases.short_name(d),  # rhel 9
    "sles": lambda d: releases.short_name(d),  # sles 15 sp4
    "ubuntu": lambda d: " ".join(d.name.split()[:2]),  # Ubuntu 22.04
}


@pytest.mark.parametrize("family", sorted(RELEASE_QUERIES))
def test_a_release_page_from_its_old_anchor_to_the_advisor_preset_to_it(kb, served: str, browser_page, family) -> None:
    """A link to the old single page's anchor opens the release's own page, which names what sets each device's
    elevator at boot and opens the advisor on that release."""
    page, _ = browser_page
    distro = _release(kb, family)
    index = page_url(page_of(BY_SLUG["distributions"]))
    page.goto(f"{served}{index}#{anchor(distro.id)}")
    page.wait_for_url(served + page_url(location(distro)[0]))
    assert page.locator("h1").inner_text().removesuffix("¶").strip() == distro.name
    row = (distro.default_schedulers or kb.get(distro.facts_from).default_schedulers)[0]
    assert page.locator("tr", has_text=releases.VIA[row.via]).first.is_visible()
    page.locator("a[data-ios-preset]").click()
    page.wait_for_url(f"**{page_url(advisor.PAGE)}#{releases.preset(distro)}")
    assert page.locator("[data-ios-setting]").input_value() == distro_key(distro.id)


def test_search_for_a_release_puts_its_page_first(kb, served: str, searching_page) -> None:
    page, _ = searching_page
    page.goto(served, wait_until="networkidle")
    for family, query in RELEASE_QUERIES.items():
        distro = _release(kb, family)
        assert _results(page, query(distro))[0] == page_url(location(distro)[0]), (family, query(distro))


def test_search_for_an_old_name_puts_the_current_page_first(kb, served: str, searching_page) -> None:
    """``noop`` and ``cfq`` open their successors, a removed elevator's tunable comes after its successor's,
    ``elevator=`` and ``nr_requests`` open their own pages."""
    page, _ = searching_page
    page.goto(served, wait_until="networkidle")
    old = [e for e in kb.entities("elevators") if currency.successor(kb, e) is not None]
    assert old
    for elevator in old:
        assert _results(page, elevator.name)[0] == page_url(location(currency.successor(kb, elevator))[0])
    moved_on = [t for t in kb.entities("tunables") if currency.successor(kb, t) is not None]
    assert moved_on
    for tunable in moved_on[:3]:
        found = _results(page, tunable.tunable.name)
        new, gone = (page_url(location(t)[0]) for t in (currency.successor(kb, tunable), tunable))
        assert currency.removed_in(_entity_at(kb, found[0])) is None, (tunable.id, found[:3])
        assert found.index(new) < found.index(gone), (tunable.id, found[:5])
    for ident, typed in (("elevator", "elevator="), ("queue.nr_requests", "nr_requests")):
        assert _results(page, typed)[0] == page_url(location(kb.get(ident))[0]), typed


def _entity_at(kb: Any, path: str) -> Any:
    """The entity whose own page is at a URL path."""
    return next(e for slug in currency.NAMED for e in kb.entities(slug) if page_url(location(e)[0]) == path)
