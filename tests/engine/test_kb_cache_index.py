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
    "at-a-list": lambda index: index.update(at=[]),
    "origins-length-text": lambda index: index.update(origins="12"),
    "origins-length-wrong": lambda index: index.update(origins=index["origins"] - 1),
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


def _rewrite(path: Path, change: Callable[[dict], None]) -> None:
    text = path.read_text()
    index, end = json.JSONDecoder().raw_decode(text, len('{"index":'))
    change(index)
    path.write_text('{"index":' + json.dumps(index) + text[end:])


def _misplace(index: dict) -> None:
    """Every entity's start moved: into the middle of its own text, onto the next entity, off the sections,
    or made a word; none is read as another entity."""
    starts = sorted(index["at"].values())
    for n, ident in enumerate(index["at"]):
        start = index["at"][ident]
        index["at"][ident] = [start + 1, starts[min(starts.index(start) + 1, len(starts) - 1)], -5, "0"][n % 4]


def test_a_misplaced_entity_is_read_with_its_section(cache: Path) -> None:
    """A lookup rebuilds only the entity it names; where the index places an entity wrongly, the lookup
    reads the whole section (which is checked) and finds the same entity."""
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    ids = list(kb.id_sections())
    fresh = kbcache.load_checked()
    assert [fresh.get(ident) for ident in ids] == [kb.get(ident) for ident in ids]
    _rewrite(path, _misplace)
    misplaced = kbcache.load_checked()
    assert [misplaced.get(ident) for ident in ids] == [kb.get(ident) for ident in ids]


def test_a_lookup_rebuilds_one_entity(cache: Path) -> None:
    kbcache.load_checked()
    kb = kbcache.load_checked()
    source = next(ident for ident, section in (kb.where or {}).items() if section == "sources")
    tunable = "mq-deadline.read_expire"
    assert kb.get(source) is not None and kb.get(tunable) is not None
    assert not {"sources", "elevators"} & set(kb.sections._built), "a lookup rebuilt a whole section"


def test_a_context_of_ids_reads_its_hardware_and_workload_alone(cache: Path) -> None:
    """Hardware and workload named by their ids are looked up; a spelling or a synonym reads the section."""
    from iosched.context import Context, resolve

    kbcache.load_checked()
    kb = kbcache.load_checked()
    resolved = resolve(kb, Context(hw="ssd", workload="db"))
    assert (resolved.hardware.id, resolved.workload.id) == ("ssd", "db")
    assert not {"hardware", "workloads"} & set(kb.sections._built), "an id rebuilt its whole section"
    spelled = resolve(kbcache.load_checked(), Context(hw="SSD", workload="postgres"))
    assert (spelled.hardware, spelled.workload) == (resolved.hardware, resolved.workload)


def test_damaged_origins_give_way_to_the_yaml(cache: Path) -> None:
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    text = path.read_text()
    start = text.index(',"origins":') + len(',"origins":')
    path.write_text(text[:start] + "[" + text[start + 1 :])
    assert dict(kbcache.load_checked().origins) == dict(kb.origins) != {}
