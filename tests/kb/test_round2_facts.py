"""Structural truths of the cgroup, WBT, topology, polling, zoned and virtualisation knowledge.

The pending sections (kb-pending/) are not part of the KB model yet; these tests parse them and check every
reference against the loaded KB, so they can be merged as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import yaml

from iosched.context import facts_for_example
from iosched.kb import Kb
from iosched.kernel import KernelVersion
from iosched.model import Unit

ROOT = Path(__file__).resolve().parents[2]
PENDING = ROOT / "kb-pending"
ROUND2_FILES = ("queue-round2.yaml", "boot-round2.yaml", "caveats/round2.yaml", "sources/round2.yaml")
CGROUP_KEYS = {
    "name", "policy", "summary", "details", "unit", "default", "default_note", "range", "choices", "format",
    "root_only", "writable", "since", "until", "kconfig", "notes", "caveats", "sources",
}  # fmt: skip
CGROUP_REQUIRED = {"name", "policy", "summary", "unit", "default", "root_only", "writable", "since", "sources"}
POLICIES = {"blk-throttle", "blk-iocost", "blk-iolatency", "blk-ioprio", "bfq", "blk-cgroup"}
TOPIC_KEYS = {"id", "title", "summary", "since", "sections", "related", "sources"}
SECTION_KEYS = {"title", "text", "sources"}
BACKTICKED = re.compile(r"`([^`]+)`")
HEX_COMMIT = re.compile(r"[0-9a-f]{12,40}")
KERNEL_HOSTS = ("github.com/torvalds/linux", "git.kernel.org")
DOC_PATH = re.compile(r"Documentation/([\w./-]+)")


def _pending(name: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((PENDING / f"{name}.yaml").read_text(encoding="utf-8"))
    (items,) = data.values()
    return items


def _from(kb: Kb, section: str, filename: str) -> list[Any]:
    return [e for e in kb.section(section) if kb.origins.get(e.id, "").rpartition(":")[0].endswith(filename)]


def _known_ids(kb: Kb) -> set[str]:
    return set(kb.index) | {f["name"] for f in _pending("cgroup_files")} | {t["id"] for t in _pending("topics")}


def _source_ids(kb: Kb) -> set[str]:
    return {s.id for s in kb.section("sources")}


def test_new_queue_attributes_name_their_first_kernel(kb: Kb) -> None:
    attributes = _from(kb, "queue_attributes", "queue-round2.yaml")
    assert attributes
    for attribute in attributes:
        assert attribute.since is not None, attribute.name


def test_pending_cgroup_files_follow_the_schema(kb: Kb) -> None:
    files = _pending("cgroup_files")
    names = [f["name"] for f in files]
    assert len(names) == len(set(names))
    assert not set(names) & set(kb.index), "a cgroup file name collides with a KB id"
    caveats = {c.id for c in kb.section("caveats")}
    for entry in files:
        name = entry["name"]
        assert CGROUP_REQUIRED <= set(entry) <= CGROUP_KEYS, name
        assert entry["policy"] in POLICIES, name
        assert entry["unit"] in get_args(Unit), name
        assert isinstance(entry["root_only"], bool) and isinstance(entry["writable"], bool), name
        since = KernelVersion.parse(entry["since"])
        if entry.get("until"):
            assert KernelVersion.parse(entry["until"]) > since, name
        assert entry["sources"] and set(entry["sources"]) <= _source_ids(kb), name
        assert set(entry.get("caveats", ())) <= caveats, name
        low, high = (entry.get("range") or {}).get("min"), (entry.get("range") or {}).get("max")
        if isinstance(entry["default"], int):
            assert (low is None or entry["default"] >= low) and (high is None or entry["default"] <= high), name
        if entry.get("choices"):
            assert entry["default"] in entry["choices"], name


def test_a_policy_brings_its_files_in_one_release() -> None:
    releases: dict[str, set[str]] = {}
    for entry in _pending("cgroup_files"):
        if entry["policy"] != "blk-cgroup":
            releases.setdefault(entry["policy"], set()).add(entry["since"])
    assert releases
    for policy, kernels in releases.items():
        assert len(kernels) == 1, (policy, kernels)


def test_bfq_cgroup_files_are_no_older_than_bfq(kb: Kb) -> None:
    bfq = kb.elevators["bfq"]
    files = [f for f in _pending("cgroup_files") if f["policy"] == "bfq"]
    assert files
    for entry in files:
        assert KernelVersion.parse(entry["since"]) >= bfq.added_in, entry["name"]


def test_topics_reference_only_known_ids(kb: Kb) -> None:
    topics = _pending("topics")
    ids = [t["id"] for t in topics]
    assert len(ids) == len(set(ids))
    known, sources = _known_ids(kb), _source_ids(kb)
    for topic in topics:
        assert {"id", "title", "summary", "sections", "sources"} <= set(topic) <= TOPIC_KEYS, topic["id"]
        assert set(topic["sources"]) <= sources, topic["id"]
        assert set(topic.get("related", ())) <= known, (topic["id"], set(topic["related"]) - known)
        assert topic["sections"], topic["id"]
        for section in topic["sections"]:
            assert set(section) == SECTION_KEYS, (topic["id"], section.get("title"))
            assert section["sources"] and set(section["sources"]) <= sources, (topic["id"], section["title"])
            named = set(BACKTICKED.findall(section["text"]))
            assert named <= known, (topic["id"], section["title"], named - known)


def test_pending_disagreements_resolve_to_cgroup_files(kb: Kb) -> None:
    files = {f["name"] for f in _pending("cgroup_files")}
    sources = _source_ids(kb)
    items = _pending("disagreements-cgroup")
    assert items
    for item in items:
        assert item["subject"] in files, item["id"]
        assert set(item["claim_sources"]) <= sources and set(item["truth_sources"]) <= sources, item["id"]
        assert item["id"] not in kb.index, item["id"]


def test_every_new_caveat_is_cited(kb: Kb) -> None:
    new = {c.id for c in _from(kb, "caveats", "caveats/round2.yaml")}
    assert new
    cited: set[str] = set()
    for section in ("queue_attributes", "sysctls", "boot_parameters", "elevators", "rules", "caveats"):
        for entity in kb.section(section):
            cited.update(getattr(entity, "caveats", ()))
    for entry in (*_pending("cgroup_files"), *_pending("topics")):
        cited.update(entry.get("caveats", ()), entry.get("related", ()))
        for section in entry.get("sections", ()):
            cited.update(BACKTICKED.findall(section["text"]))
    assert new <= cited, new - cited


def test_documentation_sources_link_the_document_they_name(kb: Kb) -> None:
    named = [(s, DOC_PATH.search(s.title)) for s in kb.section("sources")]
    checked = [(s, m) for s, m in named if m and s.url]
    assert checked
    for source, match in checked:
        stem = Path(match.group(1).rstrip(".")).name.split(".")[0]
        assert stem in source.url, (source.id, stem)


def test_new_kernel_sources_are_pinned_to_a_commit(kb: Kb) -> None:
    sources = _from(kb, "sources", "sources/round2.yaml")
    kernel = [s for s in sources if s.url and any(host in s.url for host in KERNEL_HOSTS)]
    assert kernel
    for source in kernel:
        assert HEX_COMMIT.search(source.url.rsplit("/", 1)[-1] + source.url), source.id
        assert "/master/" not in source.url and "/tree/" not in source.url, source.id


def test_live_kernel_observations_name_their_kernel(kb: Kb) -> None:
    new = [s for s in _from(kb, "sources", "sources/round2.yaml") if s.type == "live-system"]
    assert new and all(s.path and s.path.startswith("live:") for s in new)
    observed = [s for s in kb.section("sources") if s.path and s.path.startswith("live:/sys")]
    for source in observed:
        assert re.search(r"kernel \d+\.\d+", source.title), source.id
        assert re.search(r"\d+\.\d+\.\d+", source.path), source.id


def test_round2_files_only_cite_defined_sources(kb: Kb) -> None:
    sources = _source_ids(kb)
    for filename in ROUND2_FILES:
        text = (ROOT / "kb" / filename).read_text(encoding="utf-8")
        for entity in _entities_of(yaml.safe_load(text)):
            assert set(entity.get("sources", ())) <= sources, (filename, entity.get("id") or entity.get("name"))


def _entities_of(data: dict[str, list[dict[str, Any]]]) -> Iterator[dict[str, Any]]:
    for items in data.values():
        yield from items


def test_zoned_rules_split_at_zone_write_plugging(kb: Kb) -> None:
    boundary = kb.get("zoned-needs-mq-deadline").scope.until
    assert boundary is not None
    locking, plugging = kb.get("IOS107"), kb.get("IOS109")
    before = str(KernelVersion(boundary.major, boundary.minor - 1))
    for kernel, expected in ((before, locking), (str(boundary), plugging)):
        facts = facts_for_example(kb, {"hw": "smr", "workload": "desktop", "kernel": kernel})
        fired = {rule.id for rule in (locking, plugging) if rule.when.evaluate(facts)}
        assert fired == {expected.id}, (kernel, fired)
