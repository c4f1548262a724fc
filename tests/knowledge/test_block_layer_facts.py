"""Structural truths of the cgroup, WBT, topology, polling, zoned and virtualisation knowledge."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.context import facts_for_example

BACKTICKED = re.compile(r"`([^`]+)`")
HEX_COMMIT = re.compile(r"[0-9a-f]{12,40}")
KERNEL_HOSTS = ("github.com/torvalds/linux", "git.kernel.org")
DOC_PATH = re.compile(r"Documentation/([\w./-]+)")


def _from(kb: Kb, section: str, filename: str) -> list[Any]:
    return [e for e in kb.section(section) if kb.origins.get(e.id, "").rpartition(":")[0].endswith(filename)]


def test_new_queue_attributes_name_their_first_kernel(kb: Kb) -> None:
    attributes = _from(kb, "queue_attributes", "queue-6x.yaml")
    assert attributes
    for attribute in attributes:
        assert attribute.since is not None, attribute.name


def test_every_cgroup_file_names_its_first_kernel_and_kconfig(kb: Kb) -> None:
    files = kb.section("cgroup_files")
    assert files
    for entry in files:
        assert entry.since is not None and entry.kconfig and entry.kconfig.startswith("CONFIG_"), entry.name


def test_a_policy_brings_its_files_in_one_release(kb: Kb) -> None:
    releases: dict[str, set[KernelVersion]] = {}
    for entry in kb.section("cgroup_files"):
        if entry.policy != "blk-cgroup":
            releases.setdefault(entry.policy, set()).add(entry.since)
    assert releases
    for policy, kernels in releases.items():
        assert len(kernels) == 1, (policy, kernels)


def test_bfq_cgroup_files_are_no_older_than_bfq(kb: Kb) -> None:
    bfq = kb.elevators["bfq"]
    files = [f for f in kb.section("cgroup_files") if f.policy == "bfq"]
    assert files
    for entry in files:
        assert entry.since >= bfq.since, entry.name


def test_root_only_files_configure_and_are_not_weights(kb: Kb) -> None:
    root_only = [f for f in kb.section("cgroup_files") if f.root_only]
    assert root_only
    for entry in root_only:
        assert entry.writable, entry.name
        assert entry.unit != "count", entry.name


def test_topic_texts_name_only_known_ids(kb: Kb) -> None:
    topics = kb.section("topics")
    assert topics
    for topic in topics:
        for section in topic.sections:
            assert section.sources, (topic.id, section.title)
            unknown = {name for name in BACKTICKED.findall(section.text) if kb.get(name) is None}
            assert not unknown, (topic.id, section.title, unknown)


def test_every_new_caveat_is_cited(kb: Kb) -> None:
    new = {c.id for c in _from(kb, "caveats", "caveats/block-layer.yaml")}
    assert new
    cited: set[str] = set()
    for entities in kb.sections.values():
        for entity in entities:
            cited.update(getattr(entity, "caveats", ()), getattr(entity, "related", ()))
    for topic in kb.section("topics"):
        for section in topic.sections:
            cited.update(BACKTICKED.findall(section.text))
    assert new <= cited, new - cited


def test_documentation_sources_link_the_document_they_name(kb: Kb) -> None:
    named = [(s, DOC_PATH.search(s.title)) for s in kb.section("sources")]
    checked = [(s, m) for s, m in named if m and s.url]
    assert checked
    for source, match in checked:
        stem = Path(match.group(1).rstrip(".")).name.split(".")[0]
        assert stem in source.url, (source.id, stem)


def test_new_kernel_sources_are_pinned_to_a_commit(kb: Kb) -> None:
    sources = _from(kb, "sources", "sources/block-layer.yaml")
    kernel = [s for s in sources if s.url and any(host in s.url for host in KERNEL_HOSTS)]
    assert kernel
    for source in kernel:
        assert HEX_COMMIT.search(source.url), source.id
        assert "/master/" not in source.url and "/tree/" not in source.url, source.id


def test_live_kernel_observations_name_their_kernel(kb: Kb) -> None:
    new = [s for s in _from(kb, "sources", "sources/block-layer.yaml") if s.type == "live-system"]
    assert new and all(s.path and s.path.startswith("live:") for s in new)
    observed = [s for s in kb.section("sources") if s.path and s.path.startswith("live:/sys")]
    for source in observed:
        assert re.search(r"kernel \d+\.\d+", source.title), source.id
        assert re.search(r"\d+\.\d+\.\d+", source.path), source.id


def test_scoped_caveats_are_no_older_than_what_they_warn_about(kb: Kb) -> None:
    for caveat in _from(kb, "caveats", "caveats/block-layer.yaml"):
        if caveat.scope is None or caveat.scope.since is None:
            continue
        for ref in caveat.related:
            since = getattr(kb.setting(ref) or kb.get(ref), "since", None)
            if since is not None:
                assert since <= caveat.scope.since, (caveat.id, ref)


def test_zoned_rules_split_at_zone_write_plugging(kb: Kb) -> None:
    boundary = kb.get("zoned-needs-mq-deadline").scope.until
    assert boundary is not None
    locking, plugging = kb.get("IOS107"), kb.get("IOS109")
    before = str(KernelVersion(boundary.major, boundary.minor - 1))
    for kernel, expected in ((before, locking), (str(boundary), plugging)):
        facts = facts_for_example(kb, {"hw": "smr", "workload": "desktop", "kernel": kernel})
        fired = {rule.id for rule in (locking, plugging) if rule.when.evaluate(facts)}
        assert fired == {expected.id}, (kernel, fired)
