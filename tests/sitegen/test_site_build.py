"""The built site: a page per elevator, tunables with default and unit, no broken link or external asset."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from sitehtml import Page, html_path, local_target

from iosched.render import find
from iosched.render.links import anchor, location, page_url
from iosched.sitegen.shortcodes import SHORTCODE


def _plain(value: object) -> str:
    """How a KB value reads in the HTML table (code spans lose their backticks)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


def _page_of(entity: object) -> str:
    return html_path(page_url(location(entity)[0]))


def test_a_page_for_each_elevator(kb, pages: dict[str, Page]) -> None:
    elevators = kb.section("elevators")
    assert elevators, "the KB has no elevators"
    index = pages[html_path("reference/elevators/")]
    listed = {row[0] for row in index.rows[1:]}
    for elevator in elevators:
        page = pages[_page_of(elevator)]
        assert any(elevator.title in t for t in page.text), elevator.name
        assert elevator.name in listed


def test_every_tunable_has_its_page_and_a_row_on_its_elevators_page(kb, pages: dict[str, Page]) -> None:
    tunables = kb.entities("tunables")
    assert tunables
    for ref in tunables:
        own = pages[_page_of(ref)]
        assert any(ref.tunable.summary.split()[0] in t for t in own.text), ref.id
        elevator = pages[_page_of(ref.elevator)]
        assert anchor(ref.tunable.name) in elevator.ids, ref.id  # a link to the old section still lands
        rows = [r for r in elevator.rows if r and r[0] == ref.tunable.name]
        assert rows, f"{ref.id}: no row in the tunables table"
        _, default, unit, *_ = rows[0]
        assert (default, unit) == (_plain(ref.tunable.default), ref.tunable.unit), ref.id


def test_every_entity_has_its_anchor(kb, pages: dict[str, Page]) -> None:
    for entity in kb.index.values():
        page, frag = location(entity)
        built = pages[html_path(page_url(page))]
        assert not frag or frag in built.ids, f"{entity.id}: no #{frag} on {page}"


def test_no_broken_internal_links_or_anchors(built_site: Path, pages: dict[str, Page]) -> None:
    broken = []
    for name, page in pages.items():
        for tag, attr, value, _ in page.refs:
            target = local_target(name, value)
            if target is None:
                continue
            path, frag = target
            if not (built_site / path).exists():
                broken.append(f"{name}: <{tag} {attr}={value!r}> -> missing {path}")
            elif frag and path in pages and frag not in pages[path].ids:
                broken.append(f"{name}: <{tag} {attr}={value!r}> -> no #{frag} in {path}")
    assert not broken, "\n".join(broken[:40])


_ASSET_TAGS = {("script", "src"), ("img", "src"), ("iframe", "src"), ("source", "src"), ("video", "src"),
               ("audio", "src"), ("embed", "src")}  # fmt: skip
_EXTERNAL = re.compile(r"^(?:https?:)?//(?!127\.0\.0\.1[:/])", re.I)


def test_no_external_asset(built_site: Path, pages: dict[str, Page]) -> None:
    found = []
    for name, page in pages.items():
        for tag, attr, value, attrs in page.refs:
            is_asset = (tag, attr) in _ASSET_TAGS or (tag == "link" and attrs.get("rel") not in ("canonical",))
            if is_asset and _EXTERNAL.match(value):
                found.append(f"{name}: <{tag} {attr}={value}>")
    for css in built_site.rglob("*.css"):
        found += [f"{css.name}: {m}" for m in re.findall(r"url\(\s*['\"]?((?:https?:)?//[^)'\"]+)", css.read_text())]
    assert not found, "\n".join(found)


def test_shortcodes_link_to_their_entities(kb, pages: dict[str, Page]) -> None:
    site = Path(__file__).resolve().parents[2] / "site"
    checked = 0
    for source in sorted(site.glob("*.md")):
        built = html_path("" if source.stem == "index" else f"{source.stem}/")
        targets = {local_target(built, value) for _, _, value, _ in pages[built].refs}
        for ident in SHORTCODE.findall(source.read_text(encoding="utf-8")):
            page, frag = location(find(kb, ident))
            assert (html_path(page_url(page)), frag) in targets, f"{source.name}: kb:{ident}"
            checked += 1
    assert checked


def _title(path: Path) -> str:
    found = re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8"), re.S)
    assert found, path
    return html.unescape(found[1]).strip()


def test_page_titles_keep_the_kb_names(kb, built_site: Path) -> None:
    """``mq-deadline`` stays ``mq-deadline`` in the browser title and search, not "Mq deadline"."""
    for entity, name in [*((e, e.name) for e in kb.section("elevators")), *((r, r.name) for r in kb.section("rules"))]:
        title = _title(built_site / _page_of(entity))
        assert title.startswith(f"{entity.id}") and name in title, (entity.id, title)
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    titles = {doc["location"]: doc["title"] for doc in index["docs"]}
    for elevator in kb.section("elevators"):
        assert elevator.name in titles[page_url(location(elevator)[0])], elevator.name


def test_advisor_links_lead_to_built_pages(built_site: Path, pages: dict[str, Page]) -> None:
    from iosched.sitegen import advisor

    page = html_path(page_url(advisor.PAGE))
    data = json.loads((built_site / advisor.DATA).read_text(encoding="utf-8"))
    assert data["links"]
    for ident, (target, _) in data["links"].items():
        path, frag = local_target(page, target)
        assert path in pages, (ident, target)
        assert not frag or frag in pages[path].ids, (ident, target)


def test_every_page_names_its_kb_and_date_and_a_preview_says_so(kb, built_site: Path) -> None:
    """The fixture builds without ``$IOSCHED_SITE_URL``: a local preview, with no canonical URL anywhere."""
    import time

    files = sorted(built_site.rglob("*.html"))
    assert files
    day = time.strftime("%Y-%m-%d", time.gmtime((built_site / "index.html").stat().st_mtime))
    checked = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(built_site).as_posix()
        if "md-footer" not in text:  # a redirect stub, not a page of the theme
            continue
        assert f'<meta name="iosched-kb" content="{kb.version}">' in text, name
        assert f"<code data-ios-kb>{kb.version}</code>" in text, name
        assert f'datetime="{day}"' in text, name
        assert "data-ios-preview" in text and 'rel="canonical"' not in text, name
        checked += 1
    assert checked > len(files) // 2
    assert "<loc>" not in (built_site / "sitemap.xml").read_text(encoding="utf-8")
