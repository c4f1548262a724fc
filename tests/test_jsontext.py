"""The JSON text of the everyday commands is the json package's, to the character."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched import jsontext

CHARACTERS = st.characters(codec=None, exclude_categories=())  # every code point, surrogates and controls too
SCALARS = (
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats() | st.text(CHARACTERS)
)  # fmt: skip
KEYS = st.text(CHARACTERS) | st.integers() | st.floats() | st.booleans() | st.none()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner) | st.lists(inner).map(tuple) | st.dictionaries(KEYS, inner),
    max_leaves=40,
)


@given(VALUES)
def test_dumps_writes_what_json_writes(value: Any) -> None:
    assert jsontext.dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)


@given(VALUES, st.integers(min_value=0, max_value=8))
def test_any_indent_is_jsons(value: Any, indent: int) -> None:
    assert jsontext.dumps(value, indent) == json.dumps(value, indent=indent, ensure_ascii=False)


@pytest.mark.parametrize("value", [{1, 2}, {"a": object()}, [b"bytes"], {(1, 2): 3}])
def test_what_json_cannot_hold_is_a_type_error_in_both(value: Any) -> None:
    with pytest.raises(TypeError):
        json.dumps(value, indent=2, ensure_ascii=False)
    with pytest.raises(TypeError):
        jsontext.dumps(value)


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@given(VALUES, st.sampled_from([None, 0, 2]), st.sampled_from(["", " ", "\n\t "]))
def test_loads_reads_what_json_reads(value: Any, indent: int | None, space: str) -> None:
    text = space + json.dumps(value, indent=indent) + space
    assert _same(jsontext.loads(text), json.loads(text))
    assert _same(jsontext.loads(text.encode()), json.loads(text))  # json.dumps wrote ASCII


@given(st.text(st.sampled_from('{}[]",:0123456789.eE+-truefalsnNaIiy \\u\n\t\x00')))
def test_loads_refuses_what_json_refuses(text: str) -> None:
    try:
        expected = json.loads(text)
    except ValueError:
        with pytest.raises(ValueError):
            jsontext.loads(text)
    else:
        assert _same(jsontext.loads(text), expected)


def test_an_object_hook_sees_every_object_inside_out() -> None:
    seen: list[Any] = []
    decode = jsontext.Decoder(lambda obj: seen.append(dict(obj)) or len(seen))
    assert decode(b'{"a": {"b": 1}, "c": [{}]}') == 3
    assert seen == [{"b": 1}, {}, {"a": 1, "c": [2]}]


@given(st.text(CHARACTERS))
def test_strings_are_escaped_as_json_escapes_them_with_or_without_its_c_helpers(text: str) -> None:
    assert jsontext._escaped(text) == jsontext._string(text) == json.dumps(text, ensure_ascii=False)


def test_without_jsons_c_scanner_the_json_package_decodes(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "_json", None)  # as on an interpreter without it: importing it fails
    decode = jsontext.Decoder(lambda obj: sorted(obj))
    assert decode(' {"b": [1, 2.5, "x\\u00e9"], "a": null} ') == ["a", "b"]
    for text in ("[1,", "1 2", "", "nul"):
        with pytest.raises(ValueError):
            decode(text)
