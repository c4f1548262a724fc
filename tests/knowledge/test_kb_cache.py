"""The compiled-KB cache holds plain data, trusts only the user's own files, and follows the KB's content."""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

from iosched.kbfiles import bundled_kb, content_version, identity, scan
from iosched.knowledge import kbcache
from iosched.knowledge.base import Kb


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("IOSCHED_CACHE_DIR", str(directory))
    return directory


@pytest.fixture
def layer(tmp_path: Path) -> Path:
    """A local KB layer with one sysctl, to edit in place."""
    directory = tmp_path / "layer"
    directory.mkdir()
    (directory / "local.yaml").write_text(
        "sysctls:\n"
        "  - {name: vm.local_test, summary: A local setting., unit: count, default: 10,\n"
        "     sources: [linux-doc-vm-sysctl]}\n"
    )
    return directory


def _cache_file(cache: Path) -> Path:
    (path,) = cache.glob(f"{kbcache.PREFIX}*.json")
    return path


def test_a_planted_pickle_is_never_loaded(cache: Path) -> None:
    kb = kbcache.load_checked()
    path = _cache_file(cache)

    class Boom:
        def __reduce__(self):  # pragma: no cover - it must never run
            return (os.system, ("touch " + str(cache / "owned"),))

    path.write_bytes(pickle.dumps(Boom()))
    assert kbcache.load_checked() == kb
    assert not (cache / "owned").exists()


def test_the_cache_file_is_plain_json_of_the_kb(cache: Path) -> None:
    kb = kbcache.load_checked()
    text = _cache_file(cache).read_text(encoding="utf-8")
    assert kbcache.from_plain(text).sections == kb.sections
    assert text.startswith("{") and "__reduce__" not in text
    assert json.loads(text)["sections"].keys() == kb.sections.keys()  # one JSON document, whatever reads it


@pytest.mark.parametrize("damage", [('"Elevator"', '"Popen"'), ('"Elevator"', '"Elevato\\u0000"'), ("[", "{")])
def test_a_damaged_cache_section_gives_way_to_the_yaml(cache: Path, damage: tuple[str, str]) -> None:
    kb = kbcache.load_checked()
    path = _cache_file(cache)
    text = path.read_text()
    sections = text.index(',"sections":')
    path.write_text(text[:sections] + text[sections:].replace(*damage, 1))
    damaged = kbcache.read(path)  # None when the sections no longer fit the index's spans
    if damaged is not None:
        with pytest.raises((KeyError, ValueError)):
            dict(damaged.sections)  # without a way to rebuild, the damage shows
    again = kbcache.load_checked()
    assert again == kb and again.elevators == kb.elevators
    assert _cache_file(cache).read_text() == text  # and the cache file is written anew


@pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")
def test_a_cache_owned_by_another_user_is_ignored(cache: Path) -> None:
    kbcache.load_checked()
    path = _cache_file(cache)
    os.chown(path, 65534, 65534)
    assert not kbcache.trusted(path)
    assert kbcache.read(path) is None


def test_a_cache_in_a_world_writable_directory_without_sticky_bit_is_ignored(cache: Path) -> None:
    kbcache.load_checked()
    path = _cache_file(cache)
    os.chmod(cache, 0o777)
    assert not kbcache.trusted(path)
    os.chmod(cache, 0o1777)
    assert kbcache.trusted(path)
    os.chmod(path, 0o666)
    assert not kbcache.trusted(path)


@pytest.fixture(params=["settling", "settled"])
def remembering(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Run a test with files that have just changed (never remembered) and as if every file had settled."""
    if request.param == "settled":
        monkeypatch.setattr(kbcache, "SETTLED_NS", -(10**18))
    return request.param == "settled"


def test_a_same_size_edit_with_the_old_mtime_is_not_served_stale(cache: Path, layer: Path, remembering: bool) -> None:
    before = kbcache.load_checked([layer])
    assert before.get("vm.local_test").default == 10
    source = layer / "local.yaml"
    stat = source.stat()
    source.write_text(source.read_text().replace("default: 10", "default: 20"))
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert source.stat().st_size == stat.st_size
    after = kbcache.load_checked([layer])
    assert after.get("vm.local_test").default == 20
    assert after.version != before.version


def test_kb_check_over_a_damaged_cache_checks_the_yaml(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from iosched.cli import main

    kbcache.load_checked()
    path = _cache_file(cache)
    path.write_text(path.read_text().replace('"Elevator"', '"Popen"'))
    assert main(["kb", "check"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("ok") and '"Popen"' not in path.read_text()


def test_an_unchanged_settled_kb_is_not_read_again(cache: Path, layer: Path, remembering: bool, monkeypatch) -> None:
    version = kbcache.remembered_version([bundled_kb(), layer])
    assert version == content_version([bundled_kb(), layer])
    monkeypatch.setattr(kbcache, "version_of", lambda layers: pytest.fail("the KB was read again"))
    if remembering:
        assert kbcache.remembered_version([bundled_kb(), layer]) == version
    else:  # just written: its times cannot tell a second write in the same clock tick, so it is read again
        with pytest.raises(pytest.fail.Exception):
            kbcache.remembered_version([bundled_kb(), layer])


def test_remembered_versions_that_are_not_digests_are_ignored(cache: Path, layer: Path, remembering: bool) -> None:
    version = kbcache.remembered_version([layer])
    versions = cache / kbcache.VERSIONS
    assert versions.exists() == remembering
    key, _ = identity([scan(layer)])
    cache.mkdir(mode=0o700, exist_ok=True)
    versions.write_text(json.dumps({key: "../../../../tmp/planted"}))
    assert kbcache.remembered_version([layer]) == version
    assert kbcache.path_for([layer]).startswith(str(cache))


@pytest.mark.slow
def test_old_cache_files_are_evicted(cache: Path, layer: Path) -> None:
    kbcache.load_checked()
    for n in range(12):
        (layer / "local.yaml").write_text(
            (layer / "local.yaml").read_text().replace(f"default: {n + 10}", f"default: {n + 11}")
        )
        kbcache.load_checked([layer])
    assert 1 <= len(list(cache.glob(f"{kbcache.PREFIX}*"))) <= 8


def test_an_unreadable_kb_directory_is_an_error_not_a_stale_cache(cache: Path, layer: Path) -> None:
    kbcache.load_checked([layer])
    shutil.rmtree(layer)
    with pytest.raises(kbcache.KbInvalid):
        kbcache.load_checked([layer])


def test_loading_from_the_cache_gives_the_validated_kb(cache: Path) -> None:
    from iosched.knowledge.kbload import load

    validated, diagnostics = load([bundled_kb()])
    assert diagnostics == []
    kbcache.load_checked()
    cached = kbcache.read(_cache_file(cache))
    assert isinstance(cached, Kb) and cached.sections == validated.sections
