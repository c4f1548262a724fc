"""One command, one module: a run builds only its own command's parser, and parses exactly as the whole CLI."""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from iosched.cli import build_parser, command_names, main

ARGV = [
    ["advise", "--hw", "ssd", "--workload", "db", "--format", "json", "--kb", "."],
    ["explain", "mq-deadline.read_expire", "--format", "markdown"],
    ["list", "elevators"],
    ["kb", "check", "--format", "json"],
    ["verify", "--root", "/", "--hw", "ssd", "--workload", "db"],
    ["fleet", "facts/", "--format", "json"],
    ["probe", "--root", "/"],
    ["compare", "a.json", "b.json"],
]


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    return [name for name, _, _ in parser.commands]  # type: ignore[attr-defined]


def test_each_command_module_registers_the_command_of_its_name() -> None:
    for name in command_names():
        assert _commands(build_parser(name)) == [name]
    assert _commands(build_parser()) == command_names()


@pytest.mark.parametrize("argv", ARGV, ids=lambda a: a[0])
def test_one_command_parses_as_the_whole_command_line(argv: list[str]) -> None:
    assert argv[0] in command_names()
    alone, whole = vars(build_parser(argv[0]).parse_args(argv)), vars(build_parser().parse_args(argv))
    assert alone == whole


def test_an_unknown_command_is_told_the_real_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from iosched.cli import main

    assert main(["lst", "elevators"]) == 2
    err = capsys.readouterr().err
    assert all(f"'{name}'" in err for name in command_names())


def _catalogue(path, original: str, translated: str) -> None:
    """A GNU gettext .mo file holding one message (the format gettext.GNUTranslations reads)."""
    import struct

    ids, strs = original.encode(), translated.encode()
    header = 7 * 4  # then the table of originals and the table of translations, one (length, offset) each
    data = header + 2 * 8
    path.parent.mkdir(parents=True)
    path.write_bytes(
        struct.pack("<7I", 0x950412DE, 0, 1, header, header + 8, 0, 0)
        + struct.pack("<2I", len(ids), data)
        + struct.pack("<2I", len(strs), data + len(ids) + 1)
        + ids
        + b"\0"
        + strs
        + b"\0"
    )


def test_argparse_messages_are_still_translated(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue is looked up once, not at every message: a language that has one still gets it."""
    import gettext

    domain = gettext.textdomain()
    _catalogue(tmp_path / "xx" / "LC_MESSAGES" / f"{domain}.mo", "show this help message and exit", "HILFE")
    before = gettext.bindtextdomain(domain)
    monkeypatch.setenv("LANGUAGE", "xx")
    try:
        gettext.bindtextdomain(domain, str(tmp_path))
        assert "HILFE" in build_parser("list").format_help()
        monkeypatch.setenv("LANGUAGE", "yy")  # a language without a catalogue: the messages as written
        assert "show this help message and exit" in build_parser("list").format_help()
    finally:
        gettext.bindtextdomain(domain, before)
        build_parser("list")  # argparse's messages back to the default catalogue for the tests that follow


def _process(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter, with ``args`` as the command line it gives ``iosched``."""
    setup = f"import sys\nsys.argv = ['iosched', *{list(args)!r}]\n"
    return subprocess.run([sys.executable, "-c", setup + code], capture_output=True, text=True, timeout=120)


def test_the_console_script_and_python_m_run_the_process_entry() -> None:
    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["iosched"] == "iosched.__main__:run"
    module = subprocess.run([sys.executable, "-m", "iosched", "list", "elevators"], capture_output=True, text=True)
    assert module.returncode == 0 and "mq-deadline" in module.stdout


def test_the_process_sets_the_cycle_collector_aside_before_the_cli_is_imported() -> None:
    """What ``run`` finds when the CLI is imported, and what the ``atexit`` handlers see at the end; ``main``
    itself, which tests and callers use in-process, leaves the collector alone."""
    seen = (
        "import atexit, gc\nfrom iosched.__main__ import run\n"
        "atexit.register(lambda: print(gc.get_freeze_count() > 0, gc.get_threshold()[0], file=sys.stderr))\n"
        "assert 'argparse' not in sys.modules and 'iosched.cli' not in sys.modules\nrun()"
    )
    done = _process(seen, "list", "elevators", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == ["True", "20000"]
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    assert main(["list", "elevators", "--format", "json"]) == 0
    assert (gc.get_threshold(), gc.get_freeze_count()) == (threshold, frozen)


@pytest.mark.parametrize(
    ("args", "code"),
    [(["kb", "export"], 0), (["advise", "--workload", "postgress"], 2), (["explain", "no-such-id"], 2)],
)
def test_the_process_ends_with_the_commands_code_and_all_of_its_output(
    args: list[str], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """The process ends without tearing the interpreter down, after everything the command wrote reached the
    pipe (``kb export`` writes several times what a pipe holds), with the command's exit code."""
    done = _process("from iosched.__main__ import run\nrun()", *args)
    assert main(args) == code
    expected = capsys.readouterr()
    assert (done.returncode, done.stdout, done.stderr) == (code, expected.out, expected.err)
    assert len(done.stdout) > 8 * 64 * 1024 or code


def test_the_process_ends_as_usual_when_another_thread_still_runs() -> None:
    """A thread still running at the end is waited for, as the interpreter's own ending does: the thread prints
    once the main thread has finished (whatever the machine's load), so its line comes last or not at all."""
    code = (
        "import threading\nfrom iosched.__main__ import run\n"
        "threading.Thread(target=lambda: (threading.main_thread().join(), print('thread done', flush=True))).start()\n"
        "run()"
    )
    done = _process(code, "list", "elevators")
    assert done.returncode == 0 and done.stdout.endswith("thread done\n"), done.stderr


def test_a_run_imports_gettext_only_where_a_catalogue_exists(tmp_path: Path) -> None:
    """The CLI imports argparse without gettext (a tenth of a bare interpreter's start-up), and binds argparse's
    messages once: to the catalogue gettext was told of, or untranslated where there is none."""
    seen = "import atexit\natexit.register(lambda: print('gettext' in sys.modules, file=sys.stderr))\nrun()"
    plain = _process("from iosched.__main__ import run\n" + seen, "list", "--help")
    assert plain.returncode == 0 and "show this help message and exit" in plain.stdout, plain.stderr
    assert plain.stderr.split() == ["False"]
    _catalogue(tmp_path / "xx" / "LC_MESSAGES" / "messages.mo", "show this help message and exit", "HILFE")
    told = f"import gettext\ngettext.bindtextdomain('messages', {str(tmp_path)!r})\n"
    translated = subprocess.run(
        [sys.executable, "-c", f"import sys\nsys.argv = ['iosched', 'list', '--help']\n{told}"
         "from iosched.__main__ import run\n" + seen],
        capture_output=True, text=True, timeout=120, env={**os.environ, "LANGUAGE": "xx"},
    )  # fmt: skip
    assert translated.returncode == 0 and "HILFE" in translated.stdout, translated.stderr
    assert translated.stderr.split() == ["True"]
