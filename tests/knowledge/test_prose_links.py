"""Links in KB prose: an overlay's ``javascript:`` (or any scheme but http(s) and mailto) link is refused by
``kb check`` at load, and the site drops any such link that reaches a page another way."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from iosched.cli import main
from iosched.kbfiles import bundled_kb
from iosched.knowledge.kbload import load
from iosched.sitegen.hooks import safe_links

HOSTILE = [
    "See [the docs](javascript:alert(document.cookie)).",
    "See [the docs](<javascript:alert(1)>).",
    "See ![x](data:text/html;base64,PHNjcmlwdD4=).",
    "See [the docs](JaVaScRiPt:alert(1)).",
    "See [the docs](jav&#x61;script:alert(1)).",
    "See [the docs](javascript&colon;alert(1)).",
    "See [the docs][1].\n\n[1]: javascript:alert(1)",
    "See <vbscript:msgbox(1)>.",
]
HARMLESS = [
    "See [the docs](https://docs.kernel.org/block/). Ratio: 3:1, at 10:00.",
    "Write to [the list](mailto:linux-block@vger.kernel.org).",
    "See [the tunables](../reference/tunables.md#read_ahead_kb) and [above](#top).",
    "A time 12:30 and a URL-like word javascript without a link.",
]


def _layer(tmp_path: Path, texts: list[str]) -> Path:
    """One overlay layer with a file per text (``case-N.yaml``, a topic whose summary and section say it): one
    load checks every text, and each diagnostic names the file of its text."""
    layer = tmp_path / "layer"
    layer.mkdir(exist_ok=True)
    for n, text in enumerate(texts):
        topic = {"id": f"local-topic-{n}", "title": "Local", "summary": text, "sources": ["linux-doc-queue-sysfs"],
                 "sections": [{"title": "More", "text": text}]}  # fmt: skip
        (layer / f"case-{n}.yaml").write_text(yaml.safe_dump({"topics": [topic]}, allow_unicode=True))
    return layer


def _by_case(diagnostics: list, texts: list[str]) -> dict[str, list]:
    """Each text's diagnostics (those naming its file); a diagnostic of no case's file fails the test."""
    found: dict[str, list] = {text: [] for text in texts}
    for d in diagnostics:
        cases = [n for n in range(len(texts)) if Path(d.file).name == f"case-{n}.yaml"]
        assert cases, f"a diagnostic of no case: {d}"
        found[texts[cases[0]]].append(d)
    return found


def test_kb_check_refuses_a_link_that_is_not_http_mailto_or_relative(tmp_path: Path, capsys) -> None:
    _, diagnostics = load([bundled_kb(), _layer(tmp_path, HOSTILE)])
    for text, found in _by_case(diagnostics, HOSTILE).items():
        assert found and all("only http(s), mailto and relative links" in d.message for d in found), (text, found)
    assert main(["kb", "check", "--kb", str(tmp_path / "layer")]) == 1
    said = capsys.readouterr().out
    assert all(f"case-{n}.yaml" in said for n in range(len(HOSTILE))), said


def test_a_rule_action_note_is_prose_too(tmp_path: Path) -> None:
    rule = {
        "id": "IOS950", "name": "local", "summary": "Local policy.", "severity": "recommend", "priority": 99,
        "when": {"fact": "hw", "eq": "ssd"}, "rationale": "Local.", "sources": ["linux-doc-queue-sysfs"],
        "actions": [{"set": "queue.scheduler", "to": "none", "note": HOSTILE[0]}],
        "examples": [{"context": {"hw": "ssd"}, "expect": "fires"}, {"context": {"hw": "hdd"}, "expect": "silent"}],
    }  # fmt: skip
    layer = tmp_path / "layer"
    layer.mkdir()
    (layer / "overlay.yaml").write_text(yaml.safe_dump({"rules": [rule]}))
    _, diagnostics = load([bundled_kb(), layer])
    assert [d.code for d in diagnostics] == ["KB012"] and "only http(s)" in diagnostics[0].message, diagnostics
    rule["actions"][0]["note"] = HARMLESS[0]
    (layer / "overlay.yaml").write_text(yaml.safe_dump({"rules": [rule]}))
    assert load([bundled_kb(), layer])[1] == []


def test_http_mailto_and_relative_links_pass(tmp_path: Path) -> None:
    _, diagnostics = load([bundled_kb(), _layer(tmp_path, HARMLESS)])
    assert not diagnostics, diagnostics


@pytest.mark.parametrize(
    "attribute",
    ['href="javascript:alert(1)"', "href='jav&#x61;script:alert(1)'", 'src="data:text/html,x"',
     'href="&#10;javascript:alert(1)"', "HREF=javascript:alert(1)"],
)  # fmt: skip
def test_the_site_drops_a_link_of_another_scheme(attribute: str) -> None:
    page = f'<p><a {attribute} title="t">x</a> <a href="https://kernel.org/">k</a> <a href="../x/#y">r</a></p>'
    assert safe_links(page) == '<p><a title="t">x</a> <a href="https://kernel.org/">k</a> <a href="../x/#y">r</a></p>'


AFTER_PARSING = [
    "See [the docs][r].\n\n[r]:\n    javascript:alert(1)",  # the target on the line after its label
    "See [the docs][r].\n\n[r]:\n\tJaVaScRiPt:alert(1) 'title'",
    'See [the docs](https://kernel.org/){: onmouseover="alert(1)" }.',
    "See [the docs](https://kernel.org/){ onclick='alert(1)' }.",
    'A paragraph with an attribute list.\n{: onmouseover="alert(1)" }',
]


def test_kb_check_reads_links_and_attributes_as_the_site_renders_them(tmp_path: Path, capsys) -> None:
    """Forms a pattern on the source missed: the rendered page's href and every attribute are checked."""
    _, diagnostics = load([bundled_kb(), _layer(tmp_path, AFTER_PARSING)])
    for text, found in _by_case(diagnostics, AFTER_PARSING).items():
        assert found and all(("only http(s)" in d.message or "event handler" in d.message) for d in found), text
    assert main(["kb", "check", "--kb", str(tmp_path / "layer")]) == 1
    said = capsys.readouterr().out
    assert all(f"case-{n}.yaml" in said for n in range(len(AFTER_PARSING))), said


@pytest.mark.parametrize("text", AFTER_PARSING + HOSTILE)
def test_without_python_markdown_the_source_is_read_by_pattern(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """kb check without the site's extra: the same texts are refused."""
    import sys

    from iosched.grammar import link_problem

    monkeypatch.setitem(sys.modules, "markdown", None)  # import markdown raises ImportError
    assert link_problem(text) is not None
    for harmless in HARMLESS:
        assert link_problem(harmless) is None


@settings(max_examples=200, deadline=None)
@given(
    scheme=st.sampled_from(["javascript", "JavaScript", "vbscript", "data", "file", "http", "https", "mailto"]),
    gap=st.sampled_from([" ", "\n    ", "\n\t", "  \n   "]),
    attribute=st.sampled_from(["", ' title="t"', " onmouseover=alert(1)", " .note", ' onClick="x"']),
)
def test_a_link_is_refused_exactly_when_its_page_would_run_script(scheme: str, gap: str, attribute: str) -> None:
    """A reference-style link and an inline one with an attribute list: refused when the rendered page has a
    link of a scheme other than http(s) and mailto, or an event handler."""
    from iosched.grammar import link_problem

    reference = f"See [the docs][r].\n\n[r]:{gap}{scheme}:x/y"
    inline = f"See [the docs](https://kernel.org/){{:{attribute} }}."
    assert (link_problem(reference) is None) == (scheme.lower() in ("http", "https", "mailto"))
    assert (link_problem(inline) is None) == ("on" not in attribute.lower())


def test_the_prose_is_rendered_with_the_sites_extensions() -> None:
    from iosched.grammar import SITE_EXTENSIONS

    config = (Path(__file__).parents[2] / "mkdocs.yml").read_text()
    listed = config.split("markdown_extensions:\n", 1)[1].split("\n\n", 1)[0]
    names = [line.strip()[2:].rstrip(":") for line in listed.splitlines() if line.strip().startswith("- ")]
    assert tuple(names) == SITE_EXTENSIONS


def test_the_site_drops_an_event_handler() -> None:
    page = '<p><a href="https://kernel.org/" onmouseover="alert(1)" ONCLICK=x>k</a></p>'
    assert safe_links(page) == '<p><a href="https://kernel.org/">k</a></p>'
