"""The built reference: a page per release and per setting, old anchors kept, removed things marked and ranked
after current ones in the search index, the navigation grouped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sitehtml import Page, html_path, local_target

from iosched.knowledge.kinds import BY_SLUG
from iosched.knowledge.schema import inherited
from iosched.render.links import anchor, location, page_url
from iosched.sitegen import advisor, currency, releases
from iosched.sitegen import pages as sitepages


def _built(entity: Any) -> str:
    return html_path(page_url(location(entity)[0]))


def _moved(page: Page, ident: str) -> str | None:
    """The href of the link on ``page`` that keeps the anchor ``ident`` for the site's script to follow."""
    return next((v for tag, attr, v, attrs in page.refs if tag == "a" and attr == "href"
                 and attrs.get("id") == anchor(ident) and "data-ios-moved" in attrs), None)  # fmt: skip


@pytest.fixture(scope="module")
def search_index(built_site: Path) -> dict[str, dict[str, Any]]:
    """The first search entry of each page, by its location."""
    docs = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    first: dict[str, dict[str, Any]] = {}
    for doc in docs:
        first.setdefault(doc["location"].split("#")[0], doc)
    return first


def test_every_release_has_its_page_with_what_sets_each_default(kb, pages: dict[str, Page]) -> None:
    distros = kb.section("distributions")
    assert distros
    for distro in distros:
        page = pages[_built(distro)]
        text = " ".join(page.text)
        assert distro.name in text and str(distro.kernel) in text, distro.id
        base = kb.get(distro.facts_from) if distro.facts_from else None
        facts = inherited(distro, base) if base is not None else distro
        set_by = {(r[0], r[1]): r[2] for r in page.rows if len(r) > 2}
        for row in facts.default_schedulers:  # every row: its devices, its elevator and what sets it
            cell = set_by.get((row.devices, row.elevator), "")
            assert cell.startswith(releases.VIA[row.via]), (distro.id, row)
            writers = [u.path for u in facts.udev_rules if f'ATTR{{queue/scheduler}}="{row.elevator}"' in u.content]
            assert row.via != "udev" or all(path in cell for path in writers), (distro.id, row, cell)
        if facts.cgroup_default:
            assert releases.HIERARCHY[facts.cgroup_default].split(":")[0] in text, distro.id
        scoped = [c for c in kb.section("caveats") if c.scope and distro.lineage & set(c.scope.distributions)]
        assert all(c.title in text for c in scoped), distro.id
        presets = [(v, attrs) for tag, _, v, attrs in page.refs if "data-ios-preset" in attrs]
        assert [attrs["data-ios-preset"] for _, attrs in presets] == [releases.preset(distro)], distro.id
        assert local_target(_built(distro), presets[0][0]) == (html_path(page_url(advisor.PAGE)), "")


def test_releases_are_listed_by_family_and_keep_their_old_anchors(kb, pages: dict[str, Page]) -> None:
    index_page = html_path(page_url(sitepages.page_of(BY_SLUG["distributions"])))
    index = pages[index_page]
    text = index.text
    for distro in kb.section("distributions"):
        href = _moved(index, distro.id)
        assert href is not None, f"#{anchor(distro.id)} is gone from the releases' index"
        assert local_target(index_page, href) == (_built(distro), "")
        family = releases.FAMILIES[distro.family]
        assert text.index(family) < text.index(distro.name), distro.id


@pytest.mark.parametrize("slug", sorted(sitepages.MOVED - {"tunables"}))
def test_a_kind_that_left_its_shared_page_keeps_every_anchor(kb, pages: dict[str, Page], slug: str) -> None:
    index_page = html_path(page_url(sitepages.page_of(BY_SLUG[slug])))
    for entity in kb.entities(slug):
        href = _moved(pages[index_page], entity.id)
        assert href is not None, f"{slug}: #{anchor(entity.id)} is gone"
        assert local_target(index_page, href) == (_built(entity), "")


def test_a_tunables_old_anchor_on_its_elevator_leads_to_its_page(kb, pages: dict[str, Page]) -> None:
    for ref in kb.entities("tunables"):
        href = _moved(pages[_built(ref.elevator)], ref.tunable.name)
        assert href is not None and local_target(_built(ref.elevator), href) == (_built(ref), ""), ref.id


def test_removed_things_are_marked_and_ranked_after_current_ones(kb, pages, search_index) -> None:
    removed = current = 0
    for slug in currency.NAMED:
        for entity in kb.entities(slug):
            doc = search_index[page_url(location(entity)[0])]
            until = currency.removed_in(entity)
            if until is not None:
                removed += 1
                assert f"Removed in Linux {until}" in pages[_built(entity)].text, entity.id
                assert doc["boost"] < 1 and not doc.get("tags"), entity.id
            else:
                current += 1
                assert doc["boost"] > 1 and set(currency.names(kb, entity)) <= set(doc["tags"]), entity.id
    assert removed and current


def test_a_current_page_is_found_by_the_names_of_what_it_replaced(kb, search_index) -> None:
    replaced = [e for e in kb.section("elevators") if currency.successor(kb, e) is not None]
    assert replaced, "the KB has no removed elevator with a successor"
    for old in replaced:
        new = currency.successor(kb, old)
        assert old.name in search_index[page_url(location(new)[0])]["tags"], (old.id, new.id)


def test_each_tunable_page_has_the_era_table_of_its_name(kb, pages: dict[str, Page]) -> None:
    by_name: dict[str, list[Any]] = {}
    for ref in kb.entities("tunables"):
        by_name.setdefault(ref.tunable.name, []).append(ref)
    shared = {name: refs for name, refs in by_name.items() if len(refs) > 1}
    assert shared, "no tunable name is in two elevators"
    for refs in shared.values():
        for ref in refs:
            elevators = [r[0] for r in pages[_built(ref)].rows if r[-1] in ("current", "removed")]
            assert elevators == [r.elevator.name for r in refs], ref.id


def test_navigation_groups_every_reference_page_once() -> None:
    nav = sitepages.nav()
    titles = [next(iter(entry)) for entry in nav]
    assert "Reference" not in titles and len(titles) == len(set(titles))
    listed = [page for entry in nav[1:] for group in entry.values() for item in group for page in item.values()]
    expected = [sitepages.page_of(k) for k in BY_SLUG.values() if k.section or k.own_pages]
    expected += [f"{sitepages.REFERENCE}/{name}" for name, _ in sitepages.EXTRA]
    assert sorted(listed) == sorted(expected)
    group_of = {page: group for entry in nav[1:] for group, items in entry.items() for item in items
                for page in item.values()}  # fmt: skip
    for annotating, annotated in (("disagreements", "elevators"), ("caveats", "persistence"), ("evidence", "rules")):
        pair = [group_of[sitepages.page_of(BY_SLUG[slug])] for slug in (annotating, annotated)]
        assert pair[0] == pair[1], (annotating, annotated)
