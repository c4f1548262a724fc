"""Hypothesis: arbitrary documents load cleanly or are rejected cleanly; the KB round-trips through export."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iosched.diagnostics import CODES
from iosched.knowledge.export import export_kb
from iosched.knowledge.kbload import load
from iosched.knowledge.kinds import BY_SECTION, KINDS
from iosched.knowledge.validate import validate

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
keys = st.sampled_from([*BY_SECTION, "id", "name", "sources", "title", "risk", "x"]) | st.text(max_size=8)
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                         max_leaves=25)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents)
def test_any_document_loads_or_is_rejected_with_a_code(document: object) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "kb.yaml").write_text(yaml.safe_dump(document))
        _kb, diagnostics = load([Path(tmp)])
    assert all(d.code in CODES for d in diagnostics)
    assert all(d.line >= 0 for d in diagnostics)


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=300))
def test_any_bytes_are_rejected_or_loaded_cleanly(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "kb.yaml").write_bytes(raw)
        _, diagnostics = load([Path(tmp)])
    assert all(d.code in CODES for d in diagnostics)


def test_export_round_trips_every_entity(kb) -> None:
    exported = json.loads(json.dumps(export_kb(kb)))
    for section, kind in BY_SECTION.items():
        entities = kb.section(section)
        assert len(exported[section]) == len(entities)
        for entity, data in zip(entities, exported[section], strict=True):
            fields = {k: v for k, v in data.items() if k != "id" or "id" in kind.schema.__fields__}
            assert validate(kind.schema, fields) == entity


def test_every_kind_has_a_section_or_lives_in_another() -> None:
    assert [k.section for k in KINDS if k.section is None] == [None]
    assert len({k.slug for k in KINDS}) == len(KINDS)
