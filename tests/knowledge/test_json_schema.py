"""``iosched kb schema``: the JSON Schema editors use accepts every bundled KB file and rejects broken ones,
read by an independent implementation (jsonschema)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from iosched.kbfiles import bundled_kb, kb_files
from iosched.knowledge.validate import kb_file_schema

SCHEMA = kb_file_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
INVALID = Path(__file__).parent / "invalid"


@pytest.mark.parametrize("path", kb_files(bundled_kb()), ids=lambda p: p.name)
def test_every_bundled_file_is_valid(path: Path) -> None:
    errors = list(VALIDATOR.iter_errors(yaml.safe_load(path.read_text())))
    assert errors == [], [e.message for e in errors[:3]]


@pytest.mark.parametrize("code", ["KB010", "KB011", "KB012"])
def test_files_the_loader_refuses_field_by_field_are_refused_too(code: str) -> None:
    document = yaml.safe_load((INVALID / code / "kb.yaml").read_text())
    assert list(VALIDATOR.iter_errors(document))
