"""TuneD profiles and vendor udev rules agree with the scoped defaults of the settings they change."""

from __future__ import annotations

from iosched.knowledge.base import Kb


def test_tuned_profile_ids_follow_their_names(kb: Kb) -> None:
    profiles = kb.section("tuned_profiles")
    assert profiles
    for profile in profiles:
        assert profile.id == f"tuned-{profile.name}"
        assert set(profile.distributions) <= {d.id for d in kb.section("distributions")}, profile.id


def test_tuned_settings_match_the_scoped_defaults_of_the_kb(kb: Kb) -> None:
    """Every TuneD value on a KB setting appears there as a distribution default scoped to that profile."""
    checked = 0
    for profile in kb.section("tuned_profiles"):
        for setting in profile.settings:
            entity = kb.get(setting.target)
            if entity is None:
                continue
            scoped = [d for d in entity.defaults if profile.name in (d.scope.condition or "")]
            assert any(d.value == setting.value for d in scoped), (profile.id, setting.target)
            assert all(set(profile.distributions) <= set(d.scope.distributions) for d in scoped), profile.id
            checked += 1
    assert checked


def test_vendor_rule_settings_match_the_scoped_defaults_of_the_kb(kb: Kb) -> None:
    checked = 0
    for rule in kb.section("vendor_rules"):
        file_name = rule.path.rsplit("/", 1)[-1]
        for setting in rule.sets:
            entity = kb.get(setting.target)
            scoped = [d for d in getattr(entity, "defaults", ()) if file_name in (d.scope.condition or "")]
            if scoped:
                assert any(d.value == setting.value for d in scoped), rule.id
                checked += 1
    assert checked


def test_dasd_vendor_rules_meet_where_the_value_changed(kb: Kb) -> None:
    dasd = [r for r in kb.section("vendor_rules") if r.path.endswith("59-dasd.rules")]
    values = sorted((r.versions.since, r.sets[0].value) for r in dasd)
    assert [v for _, v in values] == ["deadline", "none"]
    older = next(r for r in dasd if r.sets[0].value == "deadline")
    assert older.versions.until == values[1][0]
    assert f"v{values[1][0]}.0" in kb.get("s390-tools-commit-dasd-none").note
