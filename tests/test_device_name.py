"""Device names and kernel-name globs are checked without compiling patterns; each check is the pattern's, text
for text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.grammar import DEVICE, device_name

NEAR = st.text(st.sampled_from("az09AZ-_.ß١ ") | st.characters(), max_size=24)
"""Texts near the grammar: its letters and digits, a dash, what it leaves out, and any character at all."""


@given(NEAR | st.from_regex(DEVICE, fullmatch=True))
def test_device_name_is_the_grammar(text: str) -> None:
    assert device_name(text) == (re.fullmatch(DEVICE, text) is not None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("sda", True), ("nvme0n1", True), ("dm-0", True), ("md127", True), ("a" * 16, True), ("a" * 17, False),
     ("dm-12345", False), ("dm-", False), ("Sda", False), ("0sda", False), ("sda1-2-3", False), ("", False),
     ("sdä", False), ("sd\u0661", False)],
)  # fmt: skip
def test_device_names(text: str, expected: bool) -> None:
    assert device_name(text) is expected


GLOB_CHARACTERS = st.sampled_from("sdvxa0-9*?![]|_.:/-")


@given(st.text(GLOB_CHARACTERS, min_size=1, max_size=10), st.text(st.sampled_from("sdvxa019-_.:/[]!*?"), max_size=10))
def test_a_glob_matches_as_fnmatch_matches(glob: str, name: str) -> None:
    from fnmatch import fnmatchcase

    from iosched.grammar import glob_match

    assert glob_match(name, glob) == fnmatchcase(name, glob)
    assert glob_match(glob.rstrip("*") + name, glob.rstrip("*") + "*") == fnmatchcase(
        glob.rstrip("*") + name, glob.rstrip("*") + "*"
    )
