"""Consistency of distributions, persistence methods and evidence, and faithfulness to the seeds."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from iosched.kernel import KernelVersion, in_range
from iosched.knowledge.base import Kb

BLK_MQ_ONLY = KernelVersion.parse("5.0")
# The distribution ids other code depends on (the contract, not facts).
DISTRIBUTION_IDS = {
    "sles11sp1", "sles11sp3", "sles11sp4", "sles12sp1", "sles12sp2", "sles12sp3", "sles12sp4", "sles12sp5",
    "sles15sp1", "sles15sp2", "sles15sp3", "sles15sp4", "sles15sp5", "sles15sp6", "sles15sp7",
    "rhel6", "rhel7", "rhel8", "rhel9", "rhel10", "centos9", "centos10", "ol8", "ol9",
    "ubuntu1404", "ubuntu1604", "ubuntu1804", "ubuntu2004", "ubuntu2204", "ubuntu2404", "ubuntu2410", "ubuntu2504",
    "ubuntu2510",
    "debian10", "debian11", "debian12", "debian13", "fedora40", "fedora41", "fedora42", "fedora43",
    "amzn2", "amzn2023",
}  # fmt: skip
PERSISTENCE_IDS = {
    "sysfs-runtime", "udev-rule", "kernel-cmdline", "sysctl-d",
    "tuned-profile", "init-script", "fstab", "kconfig-default",
}  # fmt: skip
NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?!\.?\d)")
SCHEDULER_ASSIGNMENT = re.compile(r'ATTR\{queue/scheduler\}="([^"]+)"')


def _numbers(text: str) -> Counter[Decimal]:
    """Every decimal number in ``text``, normalised so that 46.700 and 46.7 compare equal."""
    return Counter(Decimal(m).normalize() for m in NUMBER.findall(text))


def _value(number: float | int) -> Decimal:
    return Decimal(str(number)).normalize()


def _quoted_text(source: Any) -> str:
    """The verbatim lines the KB recorded from a seed, one per line so numbers never run together."""
    return "\n".join(source.quotes)


def _live_rule_lines(content: str) -> list[str]:
    return [line for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _distros(kb: Kb) -> list[Any]:
    return list(kb.section("distributions"))


def test_all_contract_ids_exist(kb: Kb) -> None:
    assert {d.id for d in _distros(kb)} == DISTRIBUTION_IDS
    assert {p.id for p in kb.section("persistence")} == PERSISTENCE_IDS


def test_default_elevators_exist_on_the_distribution_kernel(kb: Kb) -> None:
    """A row names an elevator of its kernel; a vendor backport of blk-mq to an older kernel can only give none."""
    for distro in _distros(kb):
        assert distro.default_schedulers, distro.id
        for default in distro.default_schedulers:
            available = set(kb.offered_on(distro.kernel, default.io_path))
            if not available and default.io_path == "blk-mq":
                assert default.elevator == "none", (distro.id, default.elevator)
                assert any(kb.get(s).type == "vendor-doc" for s in default.sources), (distro.id, default.devices)
                continue
            assert default.elevator in available, (distro.id, default.elevator, str(distro.kernel))


def test_kernels_from_5_0_have_no_legacy_default_and_use_blk_mq_for_scsi(kb: Kb) -> None:
    for distro in _distros(kb):
        if distro.kernel >= BLK_MQ_ONLY:
            assert distro.scsi_blk_mq, distro.id
            assert all(d.io_path == "blk-mq" for d in distro.default_schedulers), distro.id


def test_legacy_scsi_means_a_legacy_default(kb: Kb) -> None:
    for distro in _distros(kb):
        if not distro.scsi_blk_mq:
            assert distro.kernel < BLK_MQ_ONLY, distro.id
            assert any(d.io_path == "legacy" for d in distro.default_schedulers), distro.id


def test_persistence_methods_cover_the_distribution_kernel(kb: Kb) -> None:
    methods = {p.id: p for p in kb.section("persistence")}
    for distro in _distros(kb):
        assert {"sysfs-runtime", "udev-rule", "sysctl-d"} <= set(distro.persistence), distro.id
        for ref in distro.persistence:
            method = methods[ref]
            assert in_range(distro.kernel, method.since, method.until), (distro.id, ref)


def test_grub_update_matches_the_family(kb: Kb) -> None:
    for distro in _distros(kb):
        if distro.family in ("debian", "ubuntu"):
            assert distro.grub_update == "update-grub", distro.id
        elif distro.grub_legacy_config is not None:
            assert distro.grub_update is None and distro.grub_legacy_config.startswith("/boot/grub/"), distro.id
        else:
            assert distro.grub_update == "grub2-mkconfig -o /boot/grub2/grub.cfg", distro.id


def test_udev_defaults_are_assigned_by_a_shipped_rule(kb: Kb) -> None:
    for distro in _distros(kb):
        assigned = set()
        for rule in distro.udev_rules:
            for name in (n for line in _live_rule_lines(rule.content) for n in SCHEDULER_ASSIGNMENT.findall(line)):
                if imported := re.fullmatch(r"\$env\{(\w+)\}", name):
                    assert f'IMPORT{{cmdline}}="{imported[1]}"' in rule.content, (distro.id, rule.path, name)
                else:
                    assigned.add(name)
        assert assigned <= set(kb.elevators), (distro.id, assigned)
        for default in distro.default_schedulers:
            if default.via != "udev" or (distro.udev_rules and default.elevator in assigned):
                continue
            cited = [kb.get(s) for s in default.sources]
            assert any(s.type == "tool" and ".rules" in s.title for s in cited), (distro.id, default.elevator)


def test_rules_that_read_elevator_from_the_cmdline_are_in_the_caveat_scope(kb: Kb) -> None:
    """A rule that steps aside when elevator= is given (SLE 12) is what the caveat is about; a rule that applies
    elevator= (RHEL 8/9's 40-elevator.rules) is not."""
    scope = kb.get("udev-rule-skipped-with-elevator-param").scope.distributions
    for distro in _distros(kb):
        reads = [r for r in distro.udev_rules if 'IMPORT{cmdline}="elevator"' in r.content]
        skips = [r for r in reads if 'ATTR{queue/scheduler}="$env{elevator}"' not in r.content]
        assert distro.lineage.intersection(scope) or not skips, distro.id


def test_vendor_rules_live_in_the_vendor_directory(kb: Kb) -> None:
    for distro in _distros(kb):
        for rule in distro.udev_rules:
            assert rule.path.startswith(("/usr/lib/udev/rules.d/", "/lib/udev/rules.d/")), (distro.id, rule.path)


def test_evidence_tables_are_rectangular_positive_and_limited(kb: Kb) -> None:
    for item in kb.section("evidence"):
        assert item.limitations, item.id
        for row in item.rows:
            assert len(row.values) == len(item.columns), (item.id, row.label)
            assert all(v is None or v > 0 for v in row.values), (item.id, row.label)
            assert any(v is not None for v in row.values), (item.id, row.label)


def test_evidence_kernel_matches_its_distribution(kb: Kb) -> None:
    distros = {d.id: d for d in _distros(kb)}
    for item in kb.section("evidence"):
        if item.distribution in distros:
            assert item.kernel and item.kernel.startswith(str(distros[item.distribution].kernel)), item.id


def test_evidence_numbers_are_copied_from_the_quoted_seed_lines(kb: Kb) -> None:
    sources = {s.id: s for s in kb.section("sources")}
    checked = 0
    for item in kb.section("evidence"):
        seeds = [sources[s] for s in item.sources if sources[s].type == "seed"]
        if not seeds:
            continue
        available = sum((_numbers(_quoted_text(s)) for s in seeds), Counter())
        wanted = Counter(_value(v) for row in item.rows for v in row.values if v is not None)
        missing = {str(n): c for n, c in wanted.items() if available[n] < c}
        assert not missing, f"{item.id}: numbers not in the quoted seed lines (value: times needed): {missing}"
        checked += 1
    assert checked >= 5


def test_disagreements_bring_other_evidence_than_the_claim(kb: Kb) -> None:
    for item in kb.section("disagreements"):
        assert set(item.truth_sources) - set(item.claim_sources), item.id


@given(st.decimals(min_value=0, max_value=10**7, places=3, allow_nan=False, allow_infinity=False))
def test_number_extraction_finds_printed_values(number: Decimal) -> None:
    text = f"copied, {number} s, and then {number:.3f}x"
    found = _numbers(text)
    assert found[number.normalize()] == 2


def test_number_extraction_does_not_split_longer_numbers() -> None:
    found = _numbers("12.9 MB/s, 2011, v4.4.0-62, real 0m4.978s")
    assert found[Decimal("2.9")] == found[Decimal("11")] == found[Decimal("4.4")] == 0
    assert found[Decimal("4.978")] == found[Decimal("12.9")] == 1
