"""Shared by the Ansible fact tests: the fixture tree, and each host's raw facts found independently of the reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

FIXTURES = Path(__file__).resolve().parent / "fleet" / "ansible"
REAL_FILES = sorted(
    p
    for sub in ("cache", "yaml-cache", "tree", "console")
    for p in (FIXTURES / sub).iterdir()
    if p.is_file() and not p.name.startswith(".")
)


def raw_facts(source: str) -> dict[str, Any]:
    """The ``ansible_*`` facts at ``source`` (a file, or ``file:line`` of console output), parsed by the test."""
    path, _, line = source.rpartition(":")
    if not line.isdigit():
        path, line = source, ""
    text = Path(path).read_text(encoding="utf-8")
    if line:
        offset = sum(len(row) + 1 for row in text.split("\n")[: int(line) - 1])
        document, _ = json.JSONDecoder().raw_decode(text, text.index("{", offset))
    else:
        document = json.loads(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
    facts = document.get("ansible_facts", document)
    return facts if any(k.startswith("ansible_") for k in facts) else {f"ansible_{k}": v for k, v in facts.items()}


def kb_ids(kb: Any, section: str) -> set[str]:
    return {entity.id for entity in kb.section(section)}
