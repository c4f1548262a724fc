"""A fact document is decoded only for the facts iosched reads: the hosts are those of a whole-document decode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ansible_helpers import FIXTURES, kb_ids
from iosched.fleet import ansible_docs, ansible_system
from iosched.fleet.ansible_docs import (
    DEVICE_FACTS,
    MOUNT_FACTS,
    PAYLOAD,
    READ_FACTS,
    FactDoc,
    decode_json,
    devices_of,
    selected,
    unwrap,
)
from iosched.fleet.ansible_facts import host_facts, read_facts

JSON_FILES = sorted(
    p
    for sub in ("cache", "tree", "constructed/cciss", "constructed/edge")
    for p in (FIXTURES / sub).iterdir()
    if p.is_file() and not p.name.startswith(".")
)
FACTS = {*READ_FACTS, *(f"ansible_{name}" for name in READ_FACTS)}
KEPT = {*FACTS, "ansible_facts", "unreachable", "failed", "msg", PAYLOAD}
"""What :func:`selected` keeps of a document (of ``ansible_facts``: FACTS), spelled out from :func:`unwrap`."""


@pytest.fixture(scope="module")
def distros(kb) -> set[str]:
    return kb_ids(kb, "distributions")


def _whole(monkeypatch: pytest.MonkeyPatch, path: Path, distros: set[str]) -> list[Any]:
    """The hosts of ``path`` read as before: every document decoded whole."""
    with monkeypatch.context() as patch:
        patch.setattr(ansible_docs, "selected", decode_json)
        return read_facts(path, distros)


@pytest.mark.parametrize("wrapped", [False, True], ids=["as-is", "ansible-core-2.19"])
def test_every_fixture_reads_as_a_whole_decode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, distros: set[str], wrapped: bool
) -> None:
    for sample in JSON_FILES:
        path = sample
        if wrapped:  # PluginInterposer: s<schema>_<host> holding {"__payload__": "<the JSON text>"}
            path = tmp_path / f"s1_{sample.name}"
            path.write_text(json.dumps({PAYLOAD: sample.read_text(encoding="utf-8")}))
        hosts = read_facts(path, distros)
        assert hosts == _whole(monkeypatch, path, distros), sample
        assert [h.name for h in hosts] == [sample.name]
    planned = [h for h in read_facts(FIXTURES / "cache", distros) if h.system and h.system.devices]
    assert len(planned) >= 5


class _Recording(dict):  # type: ignore[type-arg]
    """Facts that note every key looked up, with what kind of mapping it was looked up in."""

    def __init__(self, facts: dict[str, Any], kind: str, seen: set[tuple[str, str]]) -> None:
        super().__init__(facts)
        self.kind, self.seen = kind, seen

    def __getitem__(self, key: str) -> Any:
        self.seen.add((self.kind, key))
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.seen.add((self.kind, str(key)))
        return super().__contains__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add((self.kind, key))
        return super().get(key, default)


def _recording(facts: dict[str, Any], seen: set[tuple[str, str]]) -> _Recording:
    """``facts`` with every device, partition, link and mount mapping recording too."""

    def device(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        found = dict(value)
        if isinstance(found.get("links"), dict):
            found["links"] = _Recording(found["links"], "links", seen)
        if isinstance(found.get("partitions"), dict):
            found["partitions"] = {name: device(part) for name, part in found["partitions"].items()}
        return _Recording(found, "device", seen)

    found = dict(facts)
    if isinstance(found.get("ansible_devices"), dict):
        found["ansible_devices"] = {name: device(value) for name, value in found["ansible_devices"].items()}
    if isinstance(found.get("ansible_mounts"), list):
        found["ansible_mounts"] = [_Recording(m, "mount", seen) if isinstance(m, dict) else m
                                   for m in found["ansible_mounts"]]  # fmt: skip
    return _Recording(found, "facts", seen)


def test_the_facts_read_are_the_facts_decoded(monkeypatch: pytest.MonkeyPatch, distros: set[str]) -> None:
    """Reading a new fact in ansible_system or host_facts needs it in the schema, or it would never be decoded."""
    monkeypatch.setattr(ansible_system, "_SHAPES", {})  # a memoised System would not look its facts up
    seen: set[tuple[str, str]] = set()
    for sample in JSON_FILES:
        facts, _ = unwrap(decode_json(sample.read_bytes()))
        if facts is not None:
            host_facts(FactDoc(sample.name, str(sample), _recording(facts, seen)), distros)
    schema = {("facts", key) for key in FACTS} | {("device", key) for key in DEVICE_FACTS}
    schema |= {("links", "ids"), ("links", "masters")} | {("mount", key) for key in MOUNT_FACTS}
    assert seen <= schema
    assert {
        ("facts", "ansible_devices"),
        ("device", "scheduler_mode"),
        ("links", "masters"),
        ("mount", "fstype"),
    } <= seen


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=12,
)
_keys = st.sampled_from(sorted(KEPT - {"ansible_facts", PAYLOAD})) | st.sampled_from(
    ["ansible_lsb", "ansible_local", "ansible_python", "changed", "_ansible_facts_gathered"]
) | st.text(max_size=10)  # fmt: skip


def _mapping(keys: tuple[str, ...], **values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects of some of ``keys`` (values of ``values``, else any JSON) and keys never read."""
    known = st.fixed_dictionaries({}, optional={key: values.get(key, _json) for key in keys})
    return st.builds(lambda a, b: {**b, **a}, known, st.dictionaries(st.sampled_from(["size", "uuid", "host"]), _json))


_links = _mapping(("ids", "masters", "uuids", "labels")) | _json
_partition = _mapping(DEVICE_FACTS, links=_links)
_device = _mapping(DEVICE_FACTS, links=_links, partitions=st.dictionaries(st.text(max_size=5), _partition, max_size=2))
_shaped = st.fixed_dictionaries(
    {},
    optional={
        "ansible_devices": st.dictionaries(st.text(max_size=5), _device, max_size=3) | _json,
        "ansible_mounts": st.lists(_mapping(MOUNT_FACTS), max_size=3) | _json,
    },
)
_facts = st.builds(lambda a, b: {**a, **b}, st.dictionaries(_keys, _json | st.just(float("nan")), max_size=8), _shaped)
_documents = _json | _facts | st.builds(lambda outer, inner: {**outer, "ansible_facts": inner}, _facts, _facts | _json)


def _kept(document: Any) -> Any:
    """``document`` as :func:`selected` should give it: the keys it keeps, at the top and in ``ansible_facts``,
    and what is read of each device, partition and mount; an unexpected shape is kept whole."""
    if not isinstance(document, dict):
        return document
    kept = _facts({k: v for k, v in document.items() if k in KEPT})
    if isinstance(kept.get("ansible_facts"), dict):
        kept["ansible_facts"] = _facts({k: v for k, v in kept["ansible_facts"].items() if k in FACTS})
    return kept


def _facts(facts: dict[str, Any]) -> dict[str, Any]:
    for key in ("ansible_devices", "devices"):
        if isinstance(facts.get(key), dict):
            facts[key] = {name: _device(value) for name, value in facts[key].items()}
    for key in ("ansible_mounts", "mounts"):
        if isinstance(facts.get(key), list):
            facts[key] = [_only(m, MOUNT_FACTS) for m in facts[key]]
    return facts


def _device(value: Any, partition: bool = False) -> Any:
    device = _only(value, tuple(k for k in DEVICE_FACTS if not (partition and k == "partitions")))
    if isinstance(device, dict):
        if isinstance(device.get("links"), dict):
            device["links"] = _only(device["links"], ("ids", "masters"))
        if isinstance(device.get("partitions"), dict):
            device["partitions"] = {n: _device(p, partition=True) for n, p in device["partitions"].items()}
    return device


def _only(value: Any, keys: tuple[str, ...]) -> Any:
    return {k: v for k, v in value.items() if k in keys} if isinstance(value, dict) else value


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_documents, st.sampled_from([0, 4, None]))
def test_selected_is_the_whole_document_less_what_is_never_read(document: Any, indent: int | None) -> None:
    text = json.dumps(document, indent=indent)  # NaN and Infinity too: Python writes them, json.loads reads them
    whole = decode_json(text.encode())
    found = _resolved(selected(text.encode()))
    # JSON text compares NaN with NaN, and tells 1 from 1.0 and true; sorted keys: selected keeps no order of keys
    assert _text(_kept(found)) == _text(_kept(whole))
    # a document of an unexpected shape (ansible_facts not an object, NaN ...) is read whole; devices of one (a
    # device not an object ...) are read whole, in a document otherwise selected
    assert _text(found) in (_text(whole), _text(_devices_whole(_kept(whole), whole, found)))
    assert _text(_resolved(selected(text))) == _text(found)


def _devices_whole(kept: Any, whole: Any, found: Any) -> Any:
    """``kept``, but for each devices value (at the top and in ``ansible_facts``) that ``found`` has whole."""
    if not all(isinstance(document, dict) for document in (kept, whole, found)):
        return kept
    result = dict(kept)
    for key in ("ansible_devices", "devices"):
        if key in found and key in whole and _text(found[key]) == _text(whole[key]):
            result[key] = whole[key]
    if "ansible_facts" in result:
        facts = (result["ansible_facts"], whole.get("ansible_facts"), found.get("ansible_facts"))
        result["ansible_facts"] = _devices_whole(*facts)
    return result


def _resolved(document: Any) -> Any:
    """``document`` with the devices that :func:`selected` keeps as JSON text read as :func:`devices_of` reads
    them, at the top and in ``ansible_facts``."""
    if not isinstance(document, dict):
        return document
    found = {
        key: devices_of(value) if key in ("ansible_devices", "devices") else value for key, value in document.items()
    }
    if isinstance(found.get("ansible_facts"), dict):
        found["ansible_facts"] = {key: devices_of(value) if key in ("ansible_devices", "devices") else value
                                  for key, value in found["ansible_facts"].items()}  # fmt: skip
    return found


def _text(document: Any) -> str:
    return json.dumps(document, sort_keys=True)


def test_a_document_of_only_facts_iosched_does_not_read_has_no_facts(tmp_path: Path, distros: set[str]) -> None:
    (tmp_path / "web1").write_text(json.dumps({"ansible_local": {}, "ansible_python": {"version": {}}}))
    assert read_facts(tmp_path, distros)[0].error == "no Ansible facts in this document"


def test_unread_bytes_are_checked_as_json_and_read_bytes_as_utf8(tmp_path: Path, distros: set[str]) -> None:
    sample = (FIXTURES / "cache/100.26.35.227").read_bytes()
    (tmp_path / "web1").write_bytes(sample.replace(b'"ansible_lsb": {}', b'"ansible_lsb": {"junk": "\xff\xfe"}', 1))
    (tmp_path / "web2").write_bytes(sample.replace(b'"ansible_lsb": {}', b'"ansible_lsb": {"junk": nope}', 1))
    (tmp_path / "web3").write_bytes(sample.replace(b'"ansible_kernel": "', b'"ansible_kernel": "\xff', 1))
    (tmp_path / "web4").write_bytes(sample.replace(b'"model": null', b'"model": "\xff"', 1))  # in the devices' text
    web1, web2, web3, web4 = read_facts(tmp_path, distros)
    assert web1.system is not None and web1.system.host.kernel == "4.18.0-80.4.2.el8_0.x86_64"
    assert web2.error and web2.error.startswith("not a JSON or YAML fact document (Expecting value: line")
    assert web3.error and web3.error.startswith("not a JSON or YAML fact document ('utf-8' codec can't decode")
    assert web4.error and web4.error.startswith("not a JSON or YAML fact document ('utf-8' codec can't decode")


@pytest.mark.parametrize(
    "text",
    [
        '{"ansible_devices": {"sda": {"rotational": "1", "rotational": "0"}}}',
        '{"ansible_devices": {"sda": {"rotational": "1"}, "sda": {"scheduler_mode": "bfq"}}}',
        '{"ansible_devices": 5, "ansible_devices": {"sda": {}}}',
        '{"ansible_devices": {"sda": {}}, "ansible_devices": 5}',
        '{"ansible_mounts": [{"mount": "/", "size_total": 1}], "ansible_mounts": [{"mount": "/x"}]}',
        '{"ansible_facts": {"ansible_kernel": "a"}, "ansible_facts": {"ansible_kernel": "b"}}',
    ],
)
def test_a_key_given_twice_is_its_last_value_as_in_a_whole_decode(text: str) -> None:
    assert _text(_resolved(selected(text))) == _text(_kept(decode_json(text)))
