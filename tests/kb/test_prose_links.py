"""Links in KB prose: an overlay's ``javascript:`` (or any scheme but http(s) and mailto) link is refused by
``kb check`` at load, and the site drops any such link that reaches a page another way."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from iosched.cli import main
from iosched.kbfiles import bundled_kb
from iosched.kbload import load
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


def _layer(tmp_path: Path, text: str) -> Path:
    layer = tmp_path / "layer"
    layer.mkdir(exist_ok=True)
    topic = {"id": "local-topic", "title": "Local", "summary": text, "sources": ["linux-doc-queue-sysfs"],
             "sections": [{"title": "More", "text": text}]}  # fmt: skip
    (layer / "overlay.yaml").write_text(yaml.safe_dump({"topics": [topic]}, allow_unicode=True))
    return layer


@pytest.mark.parametrize("text", HOSTILE)
def test_kb_check_refuses_a_link_that_is_not_http_mailto_or_relative(tmp_path: Path, text: str, capsys) -> None:
    _, diagnostics = load([bundled_kb(), _layer(tmp_path, text)])
    assert diagnostics and all("only http(s), mailto and relative links" in d.message for d in diagnostics)
    assert main(["kb", "check", "--kb", str(tmp_path / "layer")]) == 1
    assert "overlay.yaml" in capsys.readouterr().out


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


@pytest.mark.parametrize("text", HARMLESS)
def test_http_mailto_and_relative_links_pass(tmp_path: Path, text: str) -> None:
    _, diagnostics = load([bundled_kb(), _layer(tmp_path, text)])
    assert not diagnostics, diagnostics


@pytest.mark.parametrize(
    "attribute",
    ['href="javascript:alert(1)"', "href='jav&#x61;script:alert(1)'", 'src="data:text/html,x"',
     'href="&#10;javascript:alert(1)"', "HREF=javascript:alert(1)"],
)  # fmt: skip
def test_the_site_drops_a_link_of_another_scheme(attribute: str) -> None:
    page = f'<p><a {attribute} title="t">x</a> <a href="https://kernel.org/">k</a> <a href="../x/#y">r</a></p>'
    assert safe_links(page) == '<p><a title="t">x</a> <a href="https://kernel.org/">k</a> <a href="../x/#y">r</a></p>'
