"""A damaged index in the user's KB cache gives way to the YAML, as a damaged section does: every command
works, and the cache file is written anew."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cache_files import put_together, take_apart
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iosched.cli import main
from iosched.knowledge import kbcache


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The name and text of the bundled KB's cache file, compiled from the YAML once for this module."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("IOSCHED_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        path = Path(kbcache.path_for(kbcache.layers()))
        kbcache.rebuild(kbcache.layers(), path)
        return path.name, path.read_text()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiled: tuple[str, str]) -> Path:
    """A cache directory of this test's own, holding the compiled KB as a command leaves it (each test damages
    its own copy; compiling it from the YAML for each test cost more than the tests)."""
    directory = tmp_path / "cache"
    monkeypatch.setenv("IOSCHED_CACHE_DIR", str(directory))
    _restore(directory, compiled)
    return directory


def _restore(directory: Path, compiled: tuple[str, str]) -> None:
    """Only the compiled KB's cache file in ``directory``, as compiled."""
    for old in directory.glob(f"{kbcache.PREFIX}*.json"):
        old.unlink()
    directory.mkdir(mode=0o700, exist_ok=True)
    (directory / compiled[0]).write_text(compiled[1])


def _first(index: dict) -> str:
    return next(iter(index["spans"]))


def _places(index: dict) -> list:
    return index["places"][_first(index)]


DAMAGE: dict[str, Callable[[dict], None]] = {
    "span-not-numbers": lambda index: index["spans"].update({_first(index): "ab"}),
    "span-past-the-end": lambda index: index["spans"].update({_first(index): [0, 10**9]}),
    "span-reversed": lambda index: index["spans"].update({_first(index): [50, 10]}),
    "span-of-booleans": lambda index: index["spans"].update({_first(index): [False, True]}),
    "span-of-another-section": lambda index: index["spans"].update({"elevators": index["spans"]["rules"]}),
    "section-missing": lambda index: index["spans"].pop("rules"),
    "spans-a-list": lambda index: index.update(spans=[]),
    "places-a-list": lambda index: index.update(places=[]),
    "places-of-unknown-section": lambda index: index["places"].update(nosuch=index["places"].pop(_first(index))),
    "place-ids-not-text": lambda index: _places(index).__setitem__(0, 5),
    "place-ids-unpadded": lambda index: _places(index).__setitem__(0, _places(index)[0].strip()),
    "place-starts-a-text": lambda index: _places(index).__setitem__(1, "12"),
    "place-starts-short": lambda index: _places(index)[1].pop(),
    "place-one-list": lambda index: _places(index).pop(),
    "parts-a-list": lambda index: index.update(parts=[]),
    "part-missing": lambda index: index["parts"].pop("rules"),
    "origins-length-text": lambda index: index["parts"].update(origins="12"),
    "origins-length-wrong": lambda index: index["parts"].update(origins=index["parts"]["origins"] - 1),
    "version-a-number": lambda index: index.update(version=7),
    "index-a-list": lambda index: index.clear(),
}


def _rewrite(path: Path, change: Callable[[dict], None]) -> None:
    index, parts, sections = take_apart(path.read_text())
    change(index)
    path.write_text(put_together(index, parts, sections))


@pytest.mark.parametrize("name", DAMAGE)
def test_a_damaged_index_gives_way_to_the_yaml(cache: Path, name: str, capsys) -> None:
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    text = path.read_text()
    _rewrite(path, DAMAGE[name])
    damaged = path.read_text()
    again = kbcache.load_checked()
    assert again == kb and again.version == kb.version
    assert all(again.get(ident) == kb.get(ident) for ident in kb.id_sections())
    for argv in (["advise", "--example", "pg-vm-ubuntu2404"], ["explain", "mq-deadline"], ["list", "rules"]):
        path.write_text(damaged)
        assert main(argv) == 0, name
    capsys.readouterr()
    dict(kbcache.load_checked().sections)  # a damaged section shows only when a command reads it
    rewritten = path.read_text() == text  # a plain bool: pytest would diff two large texts for minutes
    assert rewritten, "the cache file is written anew"


@pytest.mark.parametrize("shift", [-1, 1, 10**6])
def test_a_wrong_head_gives_way_to_the_yaml(cache: Path, shift: int) -> None:
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    text = path.read_text()
    size = text[len('{"head":') : text.index(",")]
    path.write_text(text.replace(size, str(int(size) + shift), 1))
    assert kbcache.read(path) is None
    assert kbcache.load_checked() == kb and path.read_text() == text


def _misplace(index: dict) -> None:
    """Every entity's start moved: into the middle of its own text, onto the next entity, off the sections,
    or made a word; none is read as another entity."""
    starts = sorted(start for _, section in index["places"].values() for start in section)
    n = 0
    for _, section in index["places"].values():
        for i, start in enumerate(section):
            section[i] = [start + 1, starts[min(starts.index(start) + 1, len(starts) - 1)], -5, "0"][n % 4]
            n += 1


def _move_ids(index: dict) -> None:
    """Each section's ids listed with the next section's starts: every id is placed in another section."""
    names = list(index["places"])
    ids = [index["places"][name][0] for name in names]
    for name, text in zip(names, ids[1:] + ids[:1], strict=True):
        index["places"][name] = [text, [0] * (text.count(" ") - 1)]


@pytest.mark.parametrize("change", [_misplace, _move_ids])
def test_a_misplaced_entity_is_read_with_its_section(cache: Path, change: Callable[[dict], None]) -> None:
    """A lookup rebuilds only the entity it names; where the index places an entity wrongly, the lookup
    reads the whole section (which is checked), or every section, and finds the same entity."""
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    ids = list(kb.id_sections())
    fresh = kbcache.load_checked()
    assert [fresh.get(ident) for ident in ids] == [kb.get(ident) for ident in ids]
    _rewrite(path, change)
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
    from iosched.knowledge.context import Context, resolve

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


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_span_in_the_wrong_place_gives_way_to_the_yaml(
    cache: Path, compiled: tuple[str, str], data: st.DataObject, capsys
) -> None:
    """A section's span of the right shape (two numbers within the sections' text) placed anywhere, and the
    starts of its entities moved with it: every command still works, with the KB's own entities, and a cache
    whose damaged section a command read is written anew."""
    _restore(cache, compiled)
    kb = kbcache.load_checked()
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    text = path.read_text()
    index, parts, sections = take_apart(text)
    size = len(sections) - len(',"sections":{') - len("}}")
    section = data.draw(st.sampled_from(list(index["spans"])), label="section")
    first, last = index["spans"][section]
    start = data.draw(st.integers(0, size), label="start")
    end = data.draw(st.integers(start, min(size, start + (last - first) + 64)), label="end")
    shift = start - first
    index["spans"][section] = [start, end]
    index["places"][section][1] = [place + shift for place in index["places"][section][1]]
    path.write_text(put_together(index, parts, sections))
    damaged = kbcache.load_checked()
    assert dict(damaged.sections) == dict(kb.sections)
    assert all(damaged.get(ident) == kb.get(ident) for ident in kb.id_sections())
    for argv in (["advise", "--example", "pg-vm-ubuntu2404"], ["explain", "mq-deadline"], ["list", "rules"]):
        assert main(argv) == 0, argv
    capsys.readouterr()
    if (start, end) != (first, last):
        assert path.read_text() == text, "the cache file is written anew"
