"""One command, one module: a run builds only its own command's parser, and parses exactly as the whole CLI."""

from __future__ import annotations

import argparse

import pytest

from iosched.cli import build_parser, command_names

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
