"""Statistics and verdicts against cases with known answers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from measure_helpers import FIXTURES, load_results

from iosched.measure import MeasureError, judge, points
from iosched.measure.judging.judgement import ALPHA
from iosched.measure.judging.stats import bootstrap_ratio_ci, mann_whitney_p, runs_needed, sign_flip_p, smallest_p
from iosched.measure.measurements import Measurement


def runs(scheduler: str, values: list[float], *, test: str = "randread", metric: str = "read_iops",
         direction: str = "higher", unit: str = "IOPS", rounds: bool = True) -> list[Measurement]:  # fmt: skip
    return [Measurement(scheduler, test, metric, v, unit, direction, run=i, round=i if rounds else None)  # type: ignore[arg-type]
            for i, v in enumerate(values, 1)]  # fmt: skip


def verdict(j, scheduler: str, metric: str = "read_iops") -> str:
    return next(v.verdict for v in j.verdicts if v.scheduler == scheduler and v.metric == metric)


def test_exact_mann_whitney_known_values() -> None:
    assert mann_whitney_p([1, 2, 3], [4, 5, 6]) == pytest.approx(2 / math.comb(6, 3))  # 0.1
    assert mann_whitney_p([1, 2, 3, 4], [5, 6, 7, 8]) == pytest.approx(2 / math.comb(8, 4))
    assert mann_whitney_p([1, 2, 3], [1, 2, 3]) == pytest.approx(1.0)
    assert mann_whitney_p([1, 3, 5], [2, 4, 6]) > 0.5
    assert mann_whitney_p([], [1.0]) == 1.0


def test_sign_flip_and_alpha() -> None:
    assert sign_flip_p([0.1] * 5) == pytest.approx(2 / 32)
    assert sign_flip_p([0.1, -0.1]) == pytest.approx(1.0)
    assert smallest_p(3, 3) == pytest.approx(0.10) == mann_whitney_p([1, 2, 3], [4, 5, 6])
    assert smallest_p(4, 4) == pytest.approx(2 / 70) == mann_whitney_p([1, 2, 3, 4], [5, 6, 7, 8])
    assert runs_needed(0.05) == 4 and smallest_p(3, 3) > 0.05 >= smallest_p(4, 4)


def test_bootstrap_interval_brackets_the_ratio() -> None:
    low, high = bootstrap_ratio_ci([100, 101, 99, 100, 102], [120, 121, 119, 122, 118])
    assert low <= 1.2 <= high
    assert bootstrap_ratio_ci([1.0], [2.0]) is None


def test_clear_winner_with_four_separated_runs() -> None:
    data = runs("none", [100, 102, 98, 101]) + runs("mq-deadline", [120, 122, 118, 121])
    j = judge(data, baseline="none")
    assert verdict(j, "mq-deadline") == "better"
    assert j.recommendation == "mq-deadline" and j.significant


def test_three_runs_cannot_reach_a_verdict_and_say_so() -> None:
    # complete separation of 3 + 3 runs gives p = 0.1 at best: never significant at 0.05
    data = runs("none", [100, 102, 98]) + runs("mq-deadline", [200, 202, 198])
    j = judge(data, baseline="none")
    v = next(v for v in j.verdicts if v.metric == "read_iops")
    assert v.verdict == "insufficient" and v.p_value == pytest.approx(smallest_p(3, 3)) and v.p_value > ALPHA
    assert "no verdict" in v.reason and f"at least {runs_needed(ALPHA)}" in v.reason
    assert j.recommendation == "none" and not j.significant and "too few runs" in j.reason


def test_no_winner_inside_the_noise() -> None:
    # +3 % with every run separated: significant by rank, but below the 5 % floor
    data = runs("none", [100, 100.5, 99.5, 100.2]) + runs("bfq", [103, 103.5, 102.5, 103.2])
    j = judge(data, baseline="none")
    assert verdict(j, "bfq") == "tie"
    assert j.recommendation == "none" and not j.significant


def test_no_winner_when_runs_overlap_despite_a_large_median_gain() -> None:
    data = runs("none", [100, 60, 140, 110]) + runs("kyber", [130, 90, 170, 140])
    j = judge(data, baseline="none")
    assert verdict(j, "kyber") == "tie"
    assert j.recommendation == "none"


def test_identical_results_tie() -> None:
    data = runs("none", [100, 101, 99, 100]) + runs("bfq", [100, 101, 99, 100])
    assert verdict(judge(data, baseline="none"), "bfq") == "tie"


def test_two_runs_are_insufficient() -> None:
    data = runs("none", [100, 101]) + runs("bfq", [200, 201])
    j = judge(data, baseline="none")
    assert verdict(j, "bfq") == "insufficient"
    assert j.recommendation == "none"


def test_rounds_that_disagree_veto_a_win() -> None:
    # 5 + 5 runs, one overlap: significant unpaired, but in round 5 the candidate lost
    base, cand = [100, 101, 102, 103, 120.5], [121, 122, 123, 124, 120]
    assert mann_whitney_p(base, cand) <= 0.05
    j = judge(runs("none", base) + runs("bfq", cand), baseline="none")
    assert verdict(j, "bfq") == "tie"
    assert "rounds disagree" in next(v.reason for v in j.verdicts)
    unpaired = judge(runs("none", base, rounds=False) + runs("bfq", cand, rounds=False), baseline="none")
    assert verdict(unpaired, "bfq") == "better"


def test_latency_is_lower_is_better_and_a_guard_rail_blocks_a_trade_off() -> None:
    base = runs("none", [1000, 1010, 990, 1005]) + runs("none", [500, 505, 495, 502], metric="read_clat_p99",
                                                                      unit="us", direction="lower")  # fmt: skip
    better_iops_worse_tail = runs("bfq", [1300, 1310, 1290, 1305]) + runs(
        "bfq", [900, 905, 895, 902], metric="read_clat_p99", unit="us", direction="lower")  # fmt: skip
    j = judge(base + better_iops_worse_tail, baseline="none")
    assert verdict(j, "bfq") == "better"
    assert verdict(j, "bfq", "read_clat_p99") == "worse"
    assert j.recommendation == "none"  # a throughput win that costs the tail does not qualify
    j = judge(base + better_iops_worse_tail, baseline="none", goal="latency")
    assert j.recommendation == "none"


def test_several_winners_that_do_not_beat_each_other_give_the_simplest() -> None:
    data = (runs("bfq", [100, 101, 99, 100]) + runs("kyber", [130, 131, 129, 130])
            + runs("mq-deadline", [130, 129, 131, 130]))  # fmt: skip
    j = judge(data, baseline="bfq")
    assert j.recommendation == "mq-deadline"


def test_bad_arguments() -> None:
    with pytest.raises(MeasureError):
        judge(runs("none", [1, 2, 3]), goal="speed")
    with pytest.raises(MeasureError):
        judge(runs("none", [1, 2, 3]), baseline="bfq")
    with pytest.raises(MeasureError):
        judge([])


def test_one_scheduler_is_reported_not_judged() -> None:
    j = judge(runs("none", [1.0, 2.0, 3.0]))
    assert j.verdicts == () and j.recommendation == "none" and not j.significant
    assert len(j.to_json()["measurements"]) == 3


def test_json_contract() -> None:
    doc = judge(runs("none", [100, 102, 98]) + runs("bfq", [120, 122, 118]), baseline="none").to_json()
    assert {"baseline", "recommendation", "verdicts", "measurements"} <= set(doc)
    assert {"scheduler", "metric", "ratio", "verdict"} <= set(doc["verdicts"][0])
    assert {"scheduler", "test", "metric", "value", "unit", "run"} <= set(doc["measurements"][0])
    assert doc["verdicts"][0]["ratio"] == pytest.approx(120 / 100)


def test_points_reward_noise_that_the_judge_ignores() -> None:
    found = load_results([FIXTURES / "bench-none-bfq"])
    j = judge(found, baseline="none")
    tally = points(found)
    assert j.recommendation == "none"  # the runs overlap: keep the default
    assert tally.winner == "bfq"  # ... but points crown a winner
    assert tally.inside_noise > 0


def test_points_are_not_independent_of_irrelevant_alternatives() -> None:
    a = runs("none", [100, 100, 100]) + runs("bfq", [101, 99, 101])
    assert points(a).winner == "bfq"
    assert points(a + runs("kyber", [100.5, 100.5, 100.5])).winner != "bfq"  # a third contender flips it


values = st.lists(st.floats(min_value=1.0, max_value=1e6, allow_nan=False), min_size=4, max_size=6)


@settings(max_examples=60, deadline=None)
@given(values, st.floats(min_value=0.01, max_value=1000))
def test_same_samples_never_differ_and_scale_does_not_matter(sample: list[float], scale: float) -> None:
    data = runs("none", sample) + runs("bfq", list(reversed(sample)))
    assert verdict(judge(data, baseline="none"), "bfq") == "tie"
    other = runs("none", sample) + runs("bfq", [v * 1.5 for v in sample])
    scaled = [Measurement(m.scheduler, m.test, m.metric, m.value * scale, m.unit, m.direction, m.run, m.round)
              for m in other]  # fmt: skip
    assert verdict(judge(other, baseline="none"), "bfq") == verdict(judge(scaled, baseline="none"), "bfq")


def test_a_judgement_and_its_records_are_structs_whose_json_is_every_field() -> None:
    """Like every record of the package (iosched.struct): frozen, compared by value, changed by replace, and
    a field a constructor does not have is refused."""
    from iosched.measure.measurements import Judgement, Verdict
    from iosched.struct import Struct

    found = judge(runs("none", [100, 101, 99, 100]) + runs("bfq", [120, 121, 119, 120]), baseline="none")
    assert isinstance(found, Judgement) and all(isinstance(v, Verdict) for v in found.verdicts)
    assert issubclass(Measurement, Struct) and issubclass(Verdict, Struct) and issubclass(Judgement, Struct)
    first = found.measurements[0]
    assert first.replace(run=99) == Measurement(*(v for _, v in first.replace(run=99).fields()))
    assert found.verdicts[0].to_json() == {name: getattr(found.verdicts[0], name) for name in Verdict.__fields__}
    with pytest.raises(TypeError):
        Verdict(scheduler="bfq", colour="blue")  # type: ignore[call-arg]
