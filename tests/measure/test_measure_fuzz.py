"""Arbitrary input never escapes as anything but a one-line MeasureError."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from measure_helpers import FIXTURES, load_results

from iosched.measure import MeasureError
from iosched.measure.parsers.loader import FORMATS, detect, parse_text

SAMPLES = sorted(p for p in FIXTURES.iterdir() if p.is_file() and p.suffix in (".json", ".txt", ".log"))


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=3000))
def test_every_parser_survives_any_text(text: str) -> None:
    for _, looks, parse in FORMATS:
        looks(text)
        parse(text)
    if detect(text) is None:
        with pytest.raises(MeasureError):
            parse_text(text)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SAMPLES), st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=400),
       st.text(max_size=40))  # fmt: skip
def test_damaged_real_outputs(sample, cut: int, length: int, junk: str) -> None:
    text = sample.read_text(encoding="utf-8")
    cut %= max(len(text), 1)
    damaged = text[:cut] + junk + text[cut + length :]
    try:
        parse_text(damaged, sample.name)
    except MeasureError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=4000))
def test_any_bytes_in_a_file(tmp_path, data: bytes) -> None:
    path = tmp_path / "bfq-result.txt"
    path.write_bytes(data)
    try:
        found = load_results([path])
    except MeasureError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(m.scheduler == "bfq" for m in found)
