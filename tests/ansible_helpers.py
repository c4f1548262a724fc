"""Shared by the Ansible tests: the environment Ansible runs in, the fact fixture tree, and each host's raw facts
found independently of the reader."""

from __future__ import annotations

import json
import os
import sys
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

BIN = Path(sys.executable).parent


def scratch_env(home: Path, **more: str) -> dict[str, str]:
    """The environment every Ansible tool of a test runs in: its configuration, state and caches in ``home`` (never
    the user's), this interpreter for modules, the tools of this environment first on ``PATH``, and ``more``."""
    (home / "ansible.cfg").write_text("[defaults]\n")
    return {
        **os.environ,
        "ANSIBLE_CONFIG": str(home / "ansible.cfg"),
        "ANSIBLE_HOME": str(home / "home"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "ANSIBLE_PYTHON_INTERPRETER": sys.executable,
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_LOCALHOST_WARNING": "0",
        "ANSIBLE_LINT_SKIP_SCHEMA_UPDATE": "1",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        **more,
    }


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
