"""The iosched.tuning collection built from the repository and installed from the built file: the session fixture
``collection`` (tests/conftest.py) makes it once."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ansible_helpers import BIN, scratch_env

SOURCE = Path(__file__).resolve().parents[1] / "ansible_collections/iosched/tuning"


def build_and_install(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The collection built from the repository and installed from the built file; the environment that finds it
    (Ansible's state in a scratch directory, never the user's home)."""
    home = tmp_path_factory.mktemp("collection")
    env = scratch_env(home, ANSIBLE_COLLECTIONS_PATH=str(home / "collections"))
    subprocess.run([BIN / "ansible-galaxy", "collection", "build", "--output-path", str(home), str(SOURCE)],
                   env=env, check=True, capture_output=True)  # fmt: skip
    (built,) = home.glob("iosched-tuning-*.tar.gz")
    subprocess.run([BIN / "ansible-galaxy", "collection", "install", "-p", str(home / "collections"), str(built)],
                   env=env, check=True, capture_output=True)  # fmt: skip
    assert (home / "collections/ansible_collections/iosched/tuning/roles/iosched/tasks/main.yml").is_file()
    return env
