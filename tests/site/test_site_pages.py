"""The page generator, shortcodes, links and charts, without building the site."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.kinds import BY_SLUG as KINDS
from iosched.render import find
from iosched.render.chart import bar_chart
from iosched.render.links import absolute, anchor, location, page_url, relative
from iosched.render.reference import CHART_CLASS, escape_tags
from iosched.sitegen.hooks import write_changed
from iosched.sitegen.pages import render_all
from iosched.sitegen.shortcodes import UnknownId, expand

ID = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._=-]{0,79}", fullmatch=True)


@pytest.fixture(scope="module")
def generated(kb) -> dict[str, str]:
    return render_all(kb)


def test_every_entity_has_a_page_and_anchor(kb, generated: dict[str, str]) -> None:
    for entity in kb.index.values():
        page, frag = location(entity)
        assert page in generated, entity.id
        if frag:
            assert f"{{ #{frag} }}" in generated[page], f"{entity.id}: no anchor #{frag} on {page}"


def test_anchors_are_unique_per_page(generated: dict[str, str]) -> None:
    for page, text in generated.items():
        anchors = re.findall(r"\{ #([^ }]+) \}", text)
        assert len(anchors) == len(set(anchors)), page


def test_every_list_kind_is_on_the_site(kb, generated: dict[str, str]) -> None:
    for kind in KINDS:
        for entity in kb.entities(kind):
            assert entity.id == find(kb, entity.id).id


def test_cli_page_documents_every_command(generated: dict[str, str]) -> None:
    from iosched.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name in commands:
        assert f"`iosched {name}`" in generated["reference/cli.md"], name


def test_matrix_covers_every_preset_and_workload(kb, generated: dict[str, str]) -> None:
    pytest.importorskip("iosched.engine")
    matrix = generated["reference/matrix.md"]
    for entity in (*kb.section("hardware"), *kb.section("workloads")):
        assert f"#{anchor(entity.id)})" in matrix, entity.id


def test_shortcode_expands_to_a_link_and_fails_on_unknown_ids(kb) -> None:
    entity = kb.section("elevators")[0]
    text = expand(f"see <!-- kb:{entity.id} --> here", kb, "concepts.md")
    assert f"]({relative('concepts.md', entity)})" in text
    assert "<!--" not in text
    with pytest.raises(UnknownId, match="no-such-id"):
        expand("<!-- kb:no-such-id -->", kb, "index.md")


def test_kb_text_cannot_inject_html_but_code_and_charts_stay() -> None:
    chart = f"<figure {CHART_CLASS}>\n<svg></svg>\n</figure>"
    block = f"under /sys/block/<disk>/queue, `cat <x>`, <https://kernel.org>\n\n{chart}\n\n```sh\necho <y>\n```"
    out = escape_tags(block)
    assert "/sys/block/&lt;disk>/" in out
    assert "`cat <x>`" in out and "<https://kernel.org>" in out and chart in out and "echo <y>" in out
    assert escape_tags(out) == out
    wildcards = escape_tags("**Devices:** sd*, vd* and /sys/block/*/queue")
    assert wildcards == "**Devices:** sd\\*, vd\\* and /sys/block/\\*/queue"


def test_the_build_fails_on_an_unknown_shortcode(kb, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from mkdocs.exceptions import PluginError

    from iosched.sitegen import hooks

    monkeypatch.setattr(hooks, "_kb", kb)
    page = SimpleNamespace(file=SimpleNamespace(src_uri="concepts.md"))
    elevator = kb.section("elevators")[0]
    assert "<!--" not in hooks.on_page_markdown(f"<!-- kb:{elevator.id} -->", page, {}, None)
    with pytest.raises(PluginError, match="no-such-id"):
        hooks.on_page_markdown("<!-- kb:no-such-id -->", page, {}, None)


def test_pages_are_written_only_when_changed(tmp_path: Path) -> None:
    pages = {"reference/a.md": "A\n", "reference/sub/b.md": "B\n"}
    assert sorted(write_changed(tmp_path, pages)) == sorted(pages)
    stamp = (tmp_path / "reference/a.md").stat().st_mtime_ns
    assert write_changed(tmp_path, pages) == []
    assert (tmp_path / "reference/a.md").stat().st_mtime_ns == stamp
    assert write_changed(tmp_path, {"reference/a.md": "A2\n"}) == ["reference/a.md", "reference/sub/b.md"]
    assert not (tmp_path / "reference/sub/b.md").exists()


def test_absolute_links_follow_the_configured_base(kb, monkeypatch: pytest.MonkeyPatch) -> None:
    entity = kb.section("sources")[0]
    monkeypatch.setenv("IOSCHED_SITE_URL", "https://docs.example/iosched")
    assert absolute(entity) == f"https://docs.example/iosched/reference/sources/#{anchor(entity.id)}"
    monkeypatch.delenv("IOSCHED_SITE_URL")
    assert absolute(entity) is None


@given(ID)
def test_anchor_is_a_clean_html_id(ident: str) -> None:
    assert re.fullmatch(r"[a-z0-9_-]+", anchor(ident))


@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=12))
def test_page_url_is_a_directory(parts: list[str]) -> None:
    page = "/".join(p.replace("/", "_") for p in parts) + ".md"
    assert page_url(page).endswith("/") or page_url(page) == ""


label = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20)
values = st.one_of(st.none(), st.integers(-(10**9), 10**9), st.floats(-1e9, 1e9, allow_nan=False))


def _rows(columns: list[str]) -> st.SearchStrategy:
    row = st.tuples(label, st.lists(values, min_size=len(columns), max_size=len(columns)))
    return st.tuples(st.just(columns), st.lists(row, min_size=1, max_size=6))


@given(st.lists(label, min_size=1, max_size=4).flatmap(_rows))
def test_chart_is_well_formed_svg_with_one_bar_per_value(data) -> None:
    columns, rows = data
    svg = bar_chart(columns, rows, "caption <&>")
    root = ET.fromstring(svg)
    bars = root.findall("{http://www.w3.org/2000/svg}rect")
    assert len(bars) == sum(v is not None for _, vals in rows for v in vals)
    width = float(root.get("width"))
    for bar in bars:
        x, w = float(bar.get("x")), float(bar.get("width"))
        assert w >= 0 and x >= 0 and x + w <= width + 0.5
    assert "\n\n" not in svg
