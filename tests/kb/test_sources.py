"""Every fact names a source; the bundled KB in the wheel equals kb/."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from iosched.kbcheck import _walk

ROOT = Path(__file__).resolve().parents[2]


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


def test_seed_sources_point_at_real_seed_files(kb) -> None:
    shared = ROOT.parent / "shared"
    seeds = [s for s in kb.section("sources") if s.type == "seed"]
    assert len(seeds) == len(list((shared / "seeds").glob("*.txt")))
    for seed in seeds:
        assert (shared / seed.path).is_file(), seed.path


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
