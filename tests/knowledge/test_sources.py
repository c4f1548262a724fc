"""Every fact names a source; the bundled KB in the wheel equals kb/."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

from iosched.knowledge.kbcheck import _walk

ROOT = Path(__file__).resolve().parents[2]
SEED_PATH = re.compile(r"seeds/(?P<n>\d{3})_[0-9a-f]{16}\.txt")


def test_every_fact_has_a_source(kb) -> None:
    unsourced = []
    for section, entities in kb.sections.items():
        for entity in entities:
            if section != "sources" and not entity.sources:
                unsourced.append(entity.id)
            for node in _walk(entity):
                if "sources" in node.__fields__ and not node.sources and type(node).__name__ != "TopicSection":
                    unsourced.append(f"{entity.id}/{type(node).__name__}")
    assert unsourced == []


def test_every_cited_source_is_defined_and_locatable(kb) -> None:
    sources = {s.id: s for s in kb.section("sources")}
    for source in sources.values():
        assert source.url or source.path


def test_seed_sources_name_one_numbered_seed_file_each(kb) -> None:
    seeds = [s for s in kb.section("sources") if s.type == "seed"]
    matches = [SEED_PATH.fullmatch(s.path or "") for s in seeds]
    assert all(matches), [s.path for s, m in zip(seeds, matches, strict=True) if not m]
    assert sorted(int(m["n"]) for m in matches if m) == list(range(len(seeds)))


def test_only_seed_sources_name_seed_files_and_quotes_are_single_lines(kb) -> None:
    for source in kb.section("sources"):
        assert (source.type == "seed") == bool(source.path and SEED_PATH.fullmatch(source.path)), source.id
        assert all("\n" not in quote for quote in source.quotes), source.id


def test_wheel_bundles_exactly_kb(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path),
         str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("iosched-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        bundled = {n.removeprefix("iosched/_kb/"): zf.read(n) for n in zf.namelist() if n.startswith("iosched/_kb/")}
    on_disk = {p.relative_to(ROOT / "kb").as_posix(): p.read_bytes() for p in (ROOT / "kb").rglob("*") if p.is_file()}
    assert bundled == on_disk
