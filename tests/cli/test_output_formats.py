"""One registry (iosched.render.formats) says which formats each kind of document has and renders them;
every command offers exactly those formats, and `advise` and `verify` write what the registry returns (one
device, a host, a verify report)."""

from __future__ import annotations

from pathlib import Path

import pytest

from captured import copy_capture
from iosched.cli import build_parser, main
from iosched.diagnostics import CODES
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.engine import advise
from iosched.planning.hostplan import Verification, plan_host, verify
from iosched.render import formats
from iosched.render.reproduce import host_command

TESTS = Path(__file__).resolve().parents[1]
CAPTURE = TESTS / "observe" / "captures" / "sos-rhel8-kvm-lvm"
OPTIONS = formats.Options()
COMMANDS = {
    "advise": ((formats.PLAN, formats.HOST), ["--example", "nvme-db"]),
    "verify": ((formats.VERIFY,), ["--root", str(CAPTURE)]),
    "fleet": ((formats.FLEET,), [str(CAPTURE)]),
    "diagnose": ((formats.DIAGNOSIS,), [str(TESTS / "symptoms" / "fixtures" / "burst" / "iostat-x.json")]),
    "probe": ((formats.PROBE,), ["--root", str(CAPTURE)]),
    "list": ((formats.LISTING,), ["rules"]),
    "explain": ((formats.ENTRY, formats.CODE), ["mq-deadline.read_expire"]),
    "compare": ((formats.COMPARISON,), [str(TESTS / "measure" / "fixtures" / "bench-none-bfq")]),
    "kb check": ((formats.KB_CHECK,), []),
    "kb export": ((formats.KB_EXPORT,), []),
}
"""Each command with ``--format``: the kinds of document it writes, and a real input to write one from."""
NOT_RENDERED = {"collect": "its --format chooses the archive it writes from this machine's files: a tarball, or "
                "the sections of the supportconfig plugin"}  # fmt: skip


def _with_format(parser=None, words: tuple[str, ...] = ()):
    """``(command words, choices)`` of every command and subcommand of the CLI that has ``--format``."""
    for name, _, sub in (parser or build_parser()).commands:
        if choices := next((a.choices for a in sub._actions if a.dest == "format"), None):
            yield " ".join((*words, name)), tuple(choices)
        yield from _with_format(sub, (*words, name))


def test_every_command_offers_the_formats_its_documents_have_in_the_registry() -> None:
    found = dict(_with_format())
    assert found.keys() == COMMANDS.keys() | NOT_RENDERED.keys()
    for command, (registries, _) in COMMANDS.items():
        assert all(found[command] == r.names() for r in registries), command


@pytest.mark.parametrize(
    ("command", "fmt"), [(c, f) for c, (registries, _) in COMMANDS.items() for f in registries[0].names()]
)
def test_every_command_writes_every_format_of_its_registry(command: str, fmt: str, tmp_path, capsys) -> None:
    out = ["--out", str(tmp_path)] if (command, fmt) == ("fleet", "ansible") else []
    code = main([*command.split(), *COMMANDS[command][1], "--format", fmt, *out])
    written = capsys.readouterr()
    assert code in (0, 1), written.err  # 1: verify found the capture unlike its plan
    assert written.out.strip() or (out and (tmp_path / "iosched.yml").is_file())


@pytest.mark.parametrize("fmt", formats.CODE.names())
def test_explain_says_what_a_check_code_means_without_the_kb(fmt: str, tmp_path, capsys) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "rules.yaml").write_text("not: [a kb\n", encoding="utf-8")
    assert main(["explain", "KB101", "--kb", str(broken), "--format", fmt]) == 0
    assert CODES["KB101"].lower() in capsys.readouterr().out.lower()


@pytest.fixture(scope="module")
def example(kb):
    return kb.section("examples")[0]


def _choices(command: str) -> tuple[str, ...]:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if a.choices and command in a.choices).choices[command]
    return tuple(next(a for a in sub._actions if a.dest == "format").choices)


def test_plans_and_host_plans_have_the_formats_advise_offers() -> None:
    assert formats.PLAN.names() == formats.HOST.names() == _choices("advise")
    assert {"text", "markdown", "json", "sh", "ansible"} <= set(formats.PLAN.names())


@pytest.mark.parametrize("fmt", formats.PLAN.names())
def test_advise_writes_what_the_registry_renders(fmt: str, kb, example, capsys) -> None:
    rendered = formats.PLAN.render(kb, advise(kb, Context.from_mapping(example.context)), fmt, OPTIONS)
    assert rendered.markdown == (fmt in ("text", "markdown"))
    assert main(["advise", "--example", example.id, "--format", fmt]) == 0
    assert capsys.readouterr().out == rendered.text + ("" if rendered.text.endswith("\n") else "\n")


@pytest.mark.parametrize("fmt", formats.HOST.names())
def test_advise_on_a_host_writes_what_the_registry_renders(fmt: str, kb, capsys) -> None:
    system = read_root(CAPTURE)
    system = classified(system, {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")})
    again = host_command(["--root", str(CAPTURE.resolve())], {})  # as the command names itself
    rendered = formats.HOST.render(kb, plan_host(kb, system, Context()).replace(reproduce=again), fmt, OPTIONS)
    assert main(["advise", "--root", str(CAPTURE), "--format", fmt]) == 0
    assert capsys.readouterr().out == rendered.text + ("" if rendered.text.endswith("\n") else "\n")


def test_a_format_a_document_lacks_is_a_key_error(kb, example) -> None:
    with pytest.raises(KeyError):
        formats.PLAN.render(kb, advise(kb, Context.from_mapping(example.context)), "yaml", OPTIONS)


@pytest.mark.parametrize("fmt", formats.VERIFY.names())
def test_verify_writes_what_the_registry_renders_and_exits_by_compliance(fmt: str, kb, tmp_path, capsys) -> None:
    root = copy_capture(CAPTURE.name, tmp_path / CAPTURE.name, vdb=1)  # a plan to change on vdb
    system = read_root(root)
    system = classified(system, {d.id for d in kb.section("distributions")}, {h.id for h in kb.section("hardware")})
    host = plan_host(kb, system, Context())
    report = Verification(host=host, rows=tuple(verify(system, host)))
    rendered = formats.VERIFY.render(kb, report, fmt, OPTIONS)
    assert not report.compliant()  # the capture's admin udev rule undoes a change the plan makes
    assert main(["verify", "--root", str(root), "--format", fmt]) == 1
    assert capsys.readouterr().out == rendered.text + ("" if rendered.text.endswith("\n") else "\n")
    assert _choices("verify") == formats.VERIFY.names()
