"""A compiled cache of the checked KB, so everyday commands skip YAML parsing and validation."""

from __future__ import annotations

import contextlib
import os
import pickle
import tempfile
from pathlib import Path

from iosched.diagnostics import KbInvalid
from iosched.kb import Kb
from iosched.kbload import fingerprint, load
from iosched.paths import bundled_kb, cache_dir
from iosched.records import to_record


def layers(extra: list[Path] | None = None) -> list[Path]:
    return [bundled_kb(), *(extra or [])]


def load_checked(extra: list[Path] | None = None) -> Kb:
    """The bundled KB with ``extra`` layers over it; raises KbInvalid when any check fails.

    A clean KB is pickled under the cache directory, keyed by the files' names, sizes and mtimes.
    The cache is only ever written by this function, in the user's own cache directory.
    """
    directories = layers(extra)
    missing = [d for d in directories if not d.is_dir()]
    cached = None if missing else cache_dir() / f"kb-{fingerprint(directories)}.pickle"
    if cached is not None and cached.is_file():
        with contextlib.suppress(Exception), cached.open("rb") as fh:
            kb = pickle.load(fh)
            if isinstance(kb, Kb):
                return kb
    checked, diagnostics = load(directories)
    if diagnostics:
        raise KbInvalid(diagnostics)
    kb = compile_kb(checked)
    if cached is not None:
        _store(cached, kb)
    return kb


def compile_kb(kb: Kb) -> Kb:
    """The same KB as records (no pydantic needed to use or unpickle it)."""
    sections = {name: tuple(to_record(e) for e in entities) for name, entities in kb.sections.items()}
    return Kb(sections=sections, origins=kb.origins, version=kb.version)


def _store(path: Path, kb: Kb) -> None:
    with contextlib.suppress(OSError, pickle.PicklingError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".kb-")
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(kb, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
