"""The site, built once per session with ``mkdocs build --strict``, and its HTML parsed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sitehtml import Page, parse

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` of the repository's site into a temporary directory."""
    out = tmp_path_factory.mktemp("site")
    mkdocs = Path(sys.executable).with_name("mkdocs")
    proc = subprocess.run(
        [str(mkdocs), "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return out


@pytest.fixture(scope="session")
def pages(built_site: Path) -> dict[str, Page]:
    """Every built HTML page by its path relative to the site root."""
    return {p.relative_to(built_site).as_posix(): parse(p) for p in sorted(built_site.rglob("*.html"))}
