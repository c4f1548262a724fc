"""kb-pending/ (kinds the schema does not load yet) agrees with the checked KB it refers to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from iosched.kb import Kb

PENDING = Path(__file__).resolve().parents[2] / "kb-pending"


def _section(name: str) -> list[dict[str, Any]]:
    entries = yaml.safe_load((PENDING / f"{name}.yaml").read_text(encoding="utf-8"))[name]
    assert entries
    return entries


@pytest.mark.parametrize("name", ["tuned_profiles", "vendor_rules"])
def test_pending_entries_cite_known_sources_and_distributions(kb: Kb, name: str) -> None:
    sources = {s.id for s in kb.section("sources")}
    distros = {d.id for d in kb.section("distributions")}
    ids = [e["id"] for e in _section(name)]
    assert len(ids) == len(set(ids))
    for entry in _section(name):
        assert entry["sources"] and set(entry["sources"]) <= sources, entry["id"]
        assert set(entry.get("distributions", ())) <= distros, entry["id"]


def test_tuned_profiles_include_profiles_of_the_same_file() -> None:
    profiles = {p["name"]: p for p in _section("tuned_profiles")}
    for profile in profiles.values():
        assert profile["id"] == f"tuned-{profile['name']}"
        assert profile["include"] is None or profile["include"] in profiles, profile["id"]


def test_tuned_settings_match_the_scoped_defaults_of_the_kb(kb: Kb) -> None:
    """Every TuneD value on a KB setting appears there as a distribution default scoped to that profile."""
    checked = 0
    for profile in _section("tuned_profiles"):
        for setting in profile["settings"]:
            entity = kb.get(setting["target"])
            if entity is None:
                continue
            scoped = [d for d in entity.defaults if profile["name"] in (d.scope.condition or "")]
            assert any(d.value == setting["value"] for d in scoped), (profile["id"], setting["target"])
            assert all(set(profile["distributions"]) <= set(d.scope.distributions) for d in scoped), profile["id"]
            checked += 1
    assert checked


def test_vendor_rule_settings_match_the_scoped_defaults_of_the_kb(kb: Kb) -> None:
    checked = 0
    for rule in _section("vendor_rules"):
        file_name = rule["path"].rsplit("/", 1)[-1]
        for setting in rule["sets"]:
            entity = kb.get(setting["target"])
            scoped = [d for d in getattr(entity, "defaults", ()) if file_name in (d.scope.condition or "")]
            if scoped:
                assert any(d.value == setting["value"] for d in scoped), rule["id"]
                checked += 1
    assert checked


def test_dasd_vendor_rules_meet_where_the_value_changed(kb: Kb) -> None:
    dasd = [r for r in _section("vendor_rules") if r["path"].endswith("59-dasd.rules")]
    values = sorted((r["versions"]["since"], r["sets"][0]["value"]) for r in dasd)
    assert [v for _, v in values] == ["deadline", "none"]
    older = next(r for r in dasd if r["sets"][0]["value"] == "deadline")
    assert older["versions"]["until"] == values[1][0]
    assert f"v{values[1][0]}.0" in kb.get("s390-tools-commit-dasd-none").note
