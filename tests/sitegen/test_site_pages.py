"""The page generator, shortcodes, links and charts, without building the site."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.knowledge.context import Context, ContextError
from iosched.knowledge.kinds import BY_SLUG as KINDS
from iosched.planning.engine import advise
from iosched.render import find, plan_json
from iosched.render.chart import bar_chart
from iosched.render.links import absolute, anchor, location, page_url, relative
from iosched.render.reference import CHART_CLASS, escape_tags
from iosched.sitegen import advisor, grid, matrix
from iosched.sitegen.hooks import write_changed
from iosched.sitegen.markup import element, href
from iosched.sitegen.pages import render_all
from iosched.sitegen.shortcodes import SHORTCODE, UnknownId, expand
from iosched.steps import kind_of as step_kind

pytestmark = pytest.mark.xdist_group("sitegen")  # one worker generates the pages (and asks for every plan) once

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


def test_cli_page_lists_every_kb_check_code(generated: dict[str, str]) -> None:
    from iosched.diagnostics import CODES

    page = generated["reference/cli.md"]
    assert all(f"| `{code}` | {text} |" in page for code, text in CODES.items())


def test_matrix_covers_every_preset_and_workload(kb, generated: dict[str, str]) -> None:
    text = generated[matrix.PAGE]
    for entity in (*kb.section("hardware"), *kb.section("workloads")):
        assert f'href="{escape(href(matrix.PAGE, entity))}"' in text, entity.id


def test_a_matrix_cell_without_an_elevator_says_why(kb, generated: dict[str, str]) -> None:
    """A cell that names no elevator says why in its title and the legend: the device is bio-based there (the
    table's I/O path row says bio) and has no scheduler at all, not "no rule picks one"."""
    g = grid.grid(kb)
    bio = [o for o in g.outcomes.values() if not isinstance(o, str) and o.scheduler is None and o.io_path == "bio"]
    assert bio
    text = generated[matrix.PAGE]
    titles = re.findall(r'<td class="ios-none" title="([^"]*)">', text)
    assert titles and all("bio-based" in t for t in titles), set(titles)
    assert "no rule picks an elevator" not in text


def test_every_generated_page_opens_with_its_title(generated: dict[str, str]) -> None:
    """MkDocs names a page (browser title, search) after its first element only when that is the H1."""
    for page, text in generated.items():
        if page.endswith(".md"):
            body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S).lstrip("\n")
            assert body.startswith("# "), page


@pytest.mark.slow  # another interpreter generates every page: seconds
def test_generated_pages_are_deterministic(generated: dict[str, str]) -> None:
    """A fresh interpreter with another hash seed than this one's writes the same bytes."""
    script = (
        "import hashlib, json; from iosched.knowledge.kbload import load; from iosched.kbfiles import bundled_kb; "
        "from iosched.sitegen.pages import render_all; kb, _ = load([bundled_kb()]); "
        "print(hashlib.sha256(json.dumps(render_all(kb), sort_keys=True).encode()).hexdigest())"
    )
    ours = hashlib.sha256(json.dumps(generated, sort_keys=True).encode()).hexdigest()
    seed = "1" if os.environ.get("PYTHONHASHSEED") == "0" else "0"  # this one's is random, or the one it was given
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ours, f"PYTHONHASHSEED={seed} wrote different pages"


def _decoded(data: dict, setting: str, hw: str, workload: str) -> dict | str:
    """One choice of the advisor's JSON with its tables looked up."""
    s = data["strings"]
    pick = data["shown"][setting][data["hardware"].index(hw)][data["workloads"].index(workload)]
    if pick < 0:
        return s[-1 - pick]
    plan = dict(zip(data["fields"], data["plans"][pick], strict=True))
    steps = [data["steps"][i] for i in plan["steps"]]
    return {
        "scheduler": None if plan["scheduler"] is None else s[plan["scheduler"]],
        "rules": tuple(s[i] for i in plan["rules"]),
        "kernel": s[plan["kernel"]],
        "steps": [[s[t], s[c], s[v], s[e], None if u is None else s[u], [s[i] for i in b], bool(x)]
                  for t, c, v, e, u, b, _, x in steps],
        "warnings": [[s[i], s[r] or None, s[t]] for i, r, t, _ in (data["notices"][n] for n in plan["warnings"])],
        "advice": [[s[i], s[t]] for i, _, t, _ in (data["notices"][n] for n in plan["advice"])],
        "unchanged": [[s[t], s[v], [s[i] for i in b]] for t, v, b in plan["unchanged"]],
    }  # fmt: skip


def test_advisor_data_is_what_advise_computes(kb, generated: dict[str, str]) -> None:
    data = json.loads(generated[advisor.DATA])
    g = grid.grid(kb)  # the one the pages were generated from (this session's KB)
    assert sorted(data["shown"]) == sorted(setting.key for setting in g.settings)
    kinds = {bool(setting.kernel) for setting in g.settings}
    assert kinds == {True} | ({False} if kb.section("distributions") else set())
    for setting in g.settings:
        for hw in kb.section("hardware"):
            for wl in kb.section("workloads"):
                shown = _decoded(data, setting.key, hw.id, wl.id)
                try:
                    plan = advise(kb, Context(hw=hw.id, workload=wl.id, kernel=setting.kernel, distro=setting.distro))
                except ContextError as exc:
                    assert shown == str(exc)
                    continue
                doc = plan_json.document(kb, plan)
                distro = kb.get(setting.distro) if setting.distro else None
                steps = []
                for step, d in zip(plan.steps, doc["steps"], strict=True):
                    apply, undo, _ = step_kind(step).by_hand_pair(step, distro)
                    check = d["expected_already"]
                    steps.append([d["title"], apply, d["verify"], d["expect"], undo, d["because"], check])
                    if d["expected_already"]:  # checked first: its apply keeps what it finds, its undo restores it
                        assert apply != undo and "$was" in undo, (setting.key, hw.id, wl.id, d["title"])
                warnings = [[w["id"], w["risk"], w["text"]] for w in doc["warnings"]]
                advice = [[a["id"], a["text"]] for a in doc["advice"]]
                unchanged = [[u["step"]["target"], u["step"]["value"], u["step"]["because"]] for u in doc["unchanged"]]
                expected = {
                    "scheduler": plan.scheduler,
                    "rules": plan.scheduler_rules,
                    "kernel": plan.kernel,
                    "steps": steps,
                    "warnings": warnings,
                    "advice": advice,
                    "unchanged": unchanged,
                }
                assert shown == expected, (setting.key, hw.id, wl.id)


def test_advisor_links_are_relative_and_named_in_the_kb(kb, generated: dict[str, str]) -> None:
    data = json.loads(generated[advisor.DATA])
    assert data["links"]
    for ident, (target, _) in data["links"].items():
        assert target == href(advisor.PAGE, kb.get(ident)), ident
        assert not urlsplit(target).scheme and not target.startswith("/"), target


def test_kernel_eras_merge_only_kernels_with_the_same_answers(kb) -> None:
    g = grid.grid(kb)  # the one the pages were generated from (this session's KB)
    eras = [s for s in g.settings if s.kernel]
    assert g.default in eras
    for older, newer in itertools.pairwise(eras):
        differ = [
            (hw.id, wl.id)
            for hw in kb.section("hardware")
            for wl in kb.section("workloads")
            if grid.answers(g.outcome(older, hw.id, wl.id)) != grid.answers(g.outcome(newer, hw.id, wl.id))
        ]
        assert differ, f"{older.label} and {newer.label} give the same answers: they are one era"


text_or_markup = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(text_or_markup, text_or_markup)
def test_markup_escapes_text_and_attributes(text: str, value: str) -> None:
    from html.parser import HTMLParser

    class Read(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.tags: list[tuple[str, dict[str, str | None]]] = []
            self.data = ""

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append((tag, dict(attrs)))

        def handle_data(self, data: str) -> None:
            self.data += data

    parser = Read()
    parser.feed(element("span", escape(text), title=value, data_x=value))
    parser.close()
    assert parser.tags == [("span", {"title": value, "data-x": value})]
    assert parser.data == text


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
    assert absolute(entity, version=kb.version) == (
        f"https://docs.example/iosched/reference/sources/?kb={kb.version}#{anchor(entity.id)}"
    )
    monkeypatch.delenv("IOSCHED_SITE_URL")
    assert absolute(entity, version=kb.version) is None


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


def test_the_concepts_page_links_every_topic(kb) -> None:
    from pathlib import Path

    concepts = (Path(__file__).resolve().parents[2] / "site" / "concepts.md").read_text()
    assert {t.id for t in kb.section("topics")} <= set(SHORTCODE.findall(concepts))


def test_cause_pages_show_their_examples_as_examples_without_a_chart(kb, generated: dict[str, str]) -> None:
    """A cause's examples are the facts its rule is tested on: a chart of them would read as measurements."""
    causes = kb.section("causes")
    assert causes
    for cause in causes:
        page, _ = location(cause)
        text = generated[page]
        start = text.index(f"{cause.id} `{cause.name}`")
        section = text[start : text.find("\n# ", start) if "\n# " in text[start:] else len(text)]
        assert "<svg" not in section and CHART_CLASS not in section, cause.id
        assert "not measurements" in section, cause.id


@pytest.mark.parametrize(
    "url",
    ["http://docs.example.org/", "https://localhost:8000/", "https://127.0.0.1/", "https://10.1.2.3/x/",
     "https://[::1]/", "https://docs/", "https://iosched.local/", "https://site.internal/", "https://a.localhost/"],
)  # fmt: skip
def test_a_public_build_refuses_a_local_canonical_url(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from iosched.errors import SiteUrlError
    from iosched.sitegen.publish import this_build

    monkeypatch.setenv("IOSCHED_SITE_URL", url)
    with pytest.raises(SiteUrlError, match="IOSCHED_SITE_URL") as refused:
        this_build("build")
    assert "\n" not in str(refused.value)
    assert this_build("serve").preview  # mkdocs serve is always a preview, whatever the variable says


def test_a_build_is_public_with_a_public_https_url_and_a_preview_without(monkeypatch: pytest.MonkeyPatch) -> None:
    from iosched.sitegen.publish import this_build

    monkeypatch.setenv("IOSCHED_SITE_URL", "https://iosched.example.org/docs")
    public = this_build("build")
    assert (public.url, public.preview) == ("https://iosched.example.org/docs/", False)
    monkeypatch.delenv("IOSCHED_SITE_URL")
    assert this_build("gh-deploy").preview and this_build("build").url is None
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    assert this_build("build").date == "1970-01-01"


def test_mkdocs_stops_with_one_line_and_exit_2_on_a_local_public_url(tmp_path: Path) -> None:
    env = {**os.environ, "IOSCHED_SITE_URL": "http://127.0.0.1:8000/", "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = Path(sys.executable).with_name("mkdocs")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [str(mkdocs), "build", "--strict", "-q", "-f", str(root / "mkdocs.yml"), "-d", str(tmp_path / "out")],
        cwd=root, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    said = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert proc.returncode == 2 and len(said) == 1 and "IOSCHED_SITE_URL" in said[0], proc.stdout + proc.stderr
    assert not (tmp_path / "out").exists()
