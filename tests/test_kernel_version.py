"""KernelVersion.parse reads every text as its grammar does, whether or not it takes the path without the regex."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.kernel import _VERSION, KernelVersion


def _by_grammar(text: str) -> KernelVersion | None:
    m = re.fullmatch(_VERSION, text.strip())
    return None if m is None else KernelVersion(int(m[1]), int(m[2]), int(m[3] or 0))


def _parsed(text: str) -> KernelVersion | None:
    try:
        return KernelVersion.parse(text)
    except ValueError:
        return None


@given(st.text(alphabet="0123456789.-+_a \u0663\u00b2", max_size=14))
def test_parse_agrees_with_the_grammar(text: str) -> None:
    assert _parsed(text) == _by_grammar(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("6.12", (6, 12, 0)), (" 4.4\n", (4, 4, 0)), ("12.123.1234", (12, 123, 1234)), ("01.002.0003", (1, 2, 3)),
     ("1.2.12345", (1, 2, 0)), ("5.14.0-284.el9", (5, 14, 0)), ("\u0663.1", (3, 1, 0)), ("123.1", None),
     ("1.1234", None), ("1..2", None), ("\u00b2.1", None)],
)  # fmt: skip
def test_parse_of_plain_and_suffixed_versions(text: str, expected: tuple[int, int, int] | None) -> None:
    assert _parsed(text) == expected == _by_grammar(text)
