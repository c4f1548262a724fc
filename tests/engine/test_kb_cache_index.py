"""A damaged index in the user's KB cache gives way to the YAML, as a damaged section does: every command
works, and the cache file is written anew."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from iosched import kbcache
from iosched.cli import main


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("IOSCHED_CACHE_DIR", str(directory))
    return directory


def _first(index: dict) -> str:
    return next(iter(index["spans"]))


DAMAGE: dict[str, Callable[[dict], None]] = {
    "span-not-numbers": lambda index: index["spans"].update({_first(index): "ab"}),
    "span-past-the-end": lambda index: index["spans"].update({_first(index): [0, 10**9]}),
    "span-reversed": lambda index: index["spans"].update({_first(index): [50, 10]}),
    "span-of-booleans": lambda index: index["spans"].update({_first(index): [False, True]}),
    "span-of-another-section": lambda index: index["spans"].update({"elevators": index["spans"]["rules"]}),
    "section-missing": lambda index: index["spans"].pop("rules"),
    "spans-a-list": lambda index: index.update(spans=[]),
    "where-a-list": lambda index: index.update(where=[]),
    "where-unknown-section": lambda index: index["where"].update({next(iter(index["where"])): "nosuch"}),
    "where-not-text": lambda index: index["where"].update({next(iter(index["where"])): 5}),
    "version-a-number": lambda index: index.update(version=7),
    "origins-a-list": lambda index: index.update(origins=["x"]),
    "index-a-list": lambda index: index.clear(),
}


@pytest.mark.parametrize("name", DAMAGE)
def test_a_damaged_index_gives_way_to_the_yaml(cache: Path, name: str, capsys) -> None:
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    text = path.read_text()
    index, end = json.JSONDecoder().raw_decode(text, len('{"index":'))
    DAMAGE[name](index)
    path.write_text('{"index":' + json.dumps(index) + text[end:])
    again = kbcache.load_checked()
    assert again == kb and again.version == kb.version
    assert all(again.get(ident) == kb.get(ident) for ident in kb.id_sections())
    for argv in (["advise", "--example", "pg-vm-ubuntu2404"], ["explain", "mq-deadline"], ["list", "rules"]):
        path.write_text('{"index":' + json.dumps(index) + text[end:])
        assert main(argv) == 0, name
    capsys.readouterr()
    dict(kbcache.load_checked().sections)  # a damaged section shows only when a command reads it
    rewritten = path.read_text() == text  # a plain bool: pytest would diff two large texts for minutes
    assert rewritten, "the cache file is written anew"
