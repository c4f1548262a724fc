"""``iosched explain`` and ``iosched list``: facts come from the KB, bad input exits 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from iosched.cli import main
from iosched.knowledge.kinds import BY_SLUG as KINDS
from iosched.render.links import absolute
from iosched.render.reference import value_text

SITE = "https://iosched.example/docs/"


@pytest.fixture(autouse=True)
def published_site(monkeypatch: pytest.MonkeyPatch) -> None:
    """Links need a configured public site; these tests check them against one."""
    monkeypatch.setenv("IOSCHED_SITE_URL", SITE)


def test_without_a_site_url_output_has_plain_ids_and_no_local_links(kb, capsys, monkeypatch) -> None:
    monkeypatch.delenv("IOSCHED_SITE_URL")
    code, out, _ = run(capsys, "explain", "mq-deadline.read_expire", "--format", "markdown")
    assert code == 0 and "](" not in out.replace("](https://github.com", "").split("**Sources")[0]
    assert "127.0.0.1" not in out and "localhost" not in out
    code, out, _ = run(capsys, "explain", "mq-deadline.read_expire", "--format", "json")
    assert json.loads(out)["url"] is None


def test_without_a_site_url_every_list_has_plain_ids(kb, capsys, monkeypatch) -> None:
    from iosched.knowledge.kinds import KINDS

    monkeypatch.delenv("IOSCHED_SITE_URL")
    for kind in KINDS:
        code, out, _ = run(capsys, "list", kind.slug, "--format", "markdown")
        assert code == 0 and "](None)" not in out and "](" not in out.replace("](https://", ""), kind.slug


def test_site_url_flag_wins_and_a_bad_one_is_refused(kb, capsys) -> None:
    code, out, _ = run(capsys, "explain", "IOS101", "--format", "json", "--site-url", "https://docs.example.org/io")
    assert (
        code == 0 and json.loads(out)["url"] == f"https://docs.example.org/io/reference/rules/IOS101/?kb={kb.version}"
    )
    code, _, err = run(capsys, "explain", "IOS101", "--site-url", "javascript:alert(1)")
    assert code == 2 and err.count("\n") == 1 and "site URL" in err


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_tunable_json_matches_the_kb(kb, capsys) -> None:
    ref = kb.get("mq-deadline.read_expire")
    code, out, _ = run(capsys, "explain", "mq-deadline.read_expire", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == ref.id
    assert data["elevator"] == ref.elevator.name
    assert (data["default"], data["unit"]) == (ref.tunable.default, ref.tunable.unit)
    assert tuple(data["sources"]) == ref.tunable.sources
    assert data["url"] == absolute(ref, version=kb.version)


def test_explain_tunable_text_shows_every_fact(kb, capsys) -> None:
    ref = kb.get("mq-deadline.read_expire")
    t = ref.tunable
    code, out, _ = run(capsys, "explain", ref.id, "--format", "markdown")
    assert code == 0
    assert f"**Default:** {value_text(t.default, t.unit)}" in out
    assert f"**Unit:** {t.unit}" in out
    if t.since:
        assert str(t.since) in out
    if t.range and t.range.min is not None:
        assert value_text(t.range.min) in out
    for scoped in t.defaults:
        assert value_text(scoped.value, t.unit) in out
    for caveat in t.caveats:
        assert absolute(kb.get(caveat), version=kb.version) in out
    for item in kb.section("disagreements"):
        if item.subject == ref.id:
            assert absolute(item, version=kb.version) in out
    for source in t.sources:
        assert f"]({absolute(kb.get(source), version=kb.version)})" in out


def test_every_entity_can_be_explained(kb) -> None:
    """Every id renders as explain renders it (in this process: the KB is loaded once, not once per id)."""
    from iosched.render import find
    from iosched.render.formats import entry_document as as_json
    from iosched.render.reference import cli_style, render

    style = cli_style(SITE, kb.version)
    for ident, entity in kb.index.items():
        assert find(kb, ident) is entity, ident
        out = render(kb, entity, style)
        assert out.startswith("#"), ident
        assert not any(mark in out for mark in ("{ #", "!!! ", "<figure", '=== "')), f"{ident}: site markup"
        assert json.loads(json.dumps(as_json(entity, SITE), ensure_ascii=False))["id"] == entity.id


@pytest.mark.parametrize("slug", sorted(KINDS))
def test_one_entity_of_each_kind_round_trips_through_the_cli(kb, capsys, slug: str) -> None:
    """The command itself, per kind: what the in-process rendering above checks is what explain prints."""
    from iosched.render.reference import cli_style, render

    entity = kb.entities(slug)[0]
    code, out, err = run(capsys, "explain", entity.id, "--format", "markdown")
    assert (code, err) == (0, "") and out.strip() == render(kb, entity, cli_style(SITE, kb.version)).strip()
    code, out, _ = run(capsys, "explain", entity.id, "--format", "json")
    assert code == 0 and json.loads(out)["id"] == entity.id


@pytest.mark.parametrize("spelling", ["elevator=", "nr_requests", "ios101"])
def test_explain_accepts_the_spellings_people_type(kb, capsys, spelling: str) -> None:
    expected = {"elevator=": "elevator", "nr_requests": "queue.nr_requests", "ios101": "IOS101"}[spelling]
    assert kb.get(expected) is not None
    code, out, _ = run(capsys, "explain", spelling, "--format", "json")
    assert code == 0 and json.loads(out)["id"] == expected


def test_explain_rule_by_name(kb, capsys) -> None:
    rule = kb.section("rules")[0]
    code, out, _ = run(capsys, "explain", rule.name, "--format", "json")
    assert code == 0 and json.loads(out)["id"] == rule.id


def test_every_kb_check_code_can_be_explained(capsys) -> None:
    from iosched.diagnostics import CODES

    for code, text in CODES.items():
        rc, out, _ = run(capsys, "explain", code.lower(), "--format", "json")
        assert rc == 0 and json.loads(out) == {"id": code, "kind": "kb check code", "summary": text}
        rc, out, _ = run(capsys, "explain", code, "--format", "markdown")
        assert rc == 0 and out.startswith(f"# {code}\n") and text[1:] in out


def test_unknown_id_is_one_line_with_close_matches(capsys) -> None:
    code, out, err = run(capsys, "explain", "mq-deadline.read_expir")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "mq-deadline.read_expire" in err


@pytest.mark.parametrize("kind", list(KINDS))
def test_list_json_is_every_entity_of_the_kind(kb, capsys, kind: str) -> None:
    code, out, _ = run(capsys, "list", kind, "--format", "json")
    assert code == 0
    assert [item["id"] for item in json.loads(out)] == [e.id for e in kb.entities(kind)]


def test_list_elevators_table_has_all_eight(kb, capsys) -> None:
    names = [e.name for e in kb.section("elevators")]
    assert len(names) == 8
    code, out, _ = run(capsys, "list", "elevators", "--format", "markdown")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("| [")]
    assert len(rows) == 8
    assert all(f"`{name}`" in out for name in names)


def test_list_unknown_kind_exits_2(capsys) -> None:
    code, _, err = run(capsys, "list", "gadgets")
    assert code == 2 and err.count("\n") == 1


def test_links_use_the_configured_site(kb, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IOSCHED_SITE_URL", "https://iosched.example/docs/")
    rule = kb.section("rules")[0]
    _, out, _ = run(capsys, "explain", rule.id, "--format", "markdown")
    assert f"https://iosched.example/docs/reference/sources/?kb={kb.version}#" in out


def test_explain_does_not_import_rich_off_a_terminal() -> None:
    code = (
        "import sys; from iosched.cli import main; rc = main(['explain', 'mq-deadline']); "
        "print('RICH' if 'rich' in sys.modules else 'PLAIN', rc)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip().splitlines()[-1] == "PLAIN 0", proc.stderr
