"""The wrapped jsonfile cache of ansible-core 2.19+ (``s<schema>_<host>`` files holding ``{"__payload__": ...}``,
``lib/ansible/_internal/_plugins/_cache.py`` @ 099b1f5a): read under the host's name, its damage one line each."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ansible_helpers import FIXTURES, raw_facts
from iosched.fleet.ansible_facts import read_facts

REAL = FIXTURES / "cache" / "13.229.88.18"


def wrap(facts: dict[str, object]) -> str:
    """A cache entry as PluginInterposer._encode writes it."""
    return json.dumps({"__payload__": json.dumps(facts)})


def test_a_wrapped_entry_is_the_host_after_the_schema_prefix_with_the_same_system_as_the_plain_form(
    tmp_path: Path,
) -> None:
    plain, wrapped = tmp_path / "plain", tmp_path / "wrapped"
    plain.mkdir(), wrapped.mkdir()
    shutil.copy(REAL, plain / "db01")
    (wrapped / "s1_db01").write_text(wrap(raw_facts(str(REAL))))
    ((old,), (new,)) = read_facts(plain), read_facts(wrapped)
    assert new.name == old.name == "db01" and new.error is None
    assert new.system is not None and old.system is not None
    assert new.system.to_json() | {"source": ""} == old.system.to_json() | {"source": ""}


def test_the_older_file_of_a_host_with_a_wrapped_one_is_left_as_ansible_leaves_it(tmp_path: Path) -> None:
    shutil.copy(REAL, tmp_path / "db01")
    (tmp_path / "s1_db01").write_text(wrap(raw_facts(str(REAL))))
    shutil.copy(REAL, tmp_path / "s1_web01")  # an old-form host that happens to be named like a wrapped one
    found = {h.name: h for h in read_facts(tmp_path)}
    assert set(found) == {"db01", "s1_web01"}
    assert found["db01"].source.endswith("s1_db01") and found["s1_web01"].system is not None


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ('{"__payload__": 3}', "__payload__ is not JSON text"),
        ('{"__payload__": "{\\"ansible_"}', "not a JSON or YAML fact document"),
        ('{"__payload__": "[1]"}', "not a JSON object of facts"),
        ('{"__payload__": "{}"}', "no Ansible facts"),
    ],
)
def test_a_damaged_wrapped_entry_is_one_line_under_its_host(tmp_path: Path, content: str, error: str) -> None:
    (tmp_path / "s1_db01").write_text(content)
    (host,) = read_facts(tmp_path)
    assert host.name == "db01" and host.system is None
    assert host.error is not None and error in host.error and "\n" not in host.error


def test_the_yaml_cache_plugin_wraps_entries_the_same_way(tmp_path: Path) -> None:
    """The interposer wraps every cache plugin's entries, so a YAML cache file holds __payload__ too."""
    import yaml

    facts = raw_facts(str(REAL))
    (tmp_path / "s1_db01").write_text(yaml.safe_dump({"__payload__": json.dumps(facts)}))
    (host,) = read_facts(tmp_path)
    assert host.name == "db01" and host.error is None and host.system is not None
    assert host.system.host.kernel == facts["ansible_kernel"]


def test_a_cache_prefix_before_the_schema_key_is_not_part_of_the_host(tmp_path: Path) -> None:
    """The jsonfile plugin writes ``<_prefix><key>`` (lib/ansible/plugins/cache/__init__.py), the key being s1_host."""
    (tmp_path / "facts_s1_db01").write_text(wrap(raw_facts(str(REAL))))
    (host,) = read_facts(tmp_path)
    assert host.name == "db01" and host.system is not None
