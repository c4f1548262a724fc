"""Copy what ``iosched probe`` reads from a root into a directory, to keep a host's state as a test fixture.

Run: python tests/observe/capture.py ROOT DEST [--drop-mounts-under DIR ...] [--omit FILE ...]

The probe reader runs on ROOT through a recording source, so exactly the files it reads are copied (regular
files only, each at most 1 MiB, as the reader bounds them); the device directories it only lists (sys/block,
sys/class/block, holders/, slaves/, mq/) are recreated empty (each mq/N with its nr_tags, as git keeps no empty
directory and mq/ is what tells blk-mq apart), and links it looks at are kept when they point to
/dev/null (a masked rule) or to another copied file. ``--drop-mounts-under`` leaves mounts below DIR out of
proc/mounts; ``--omit`` leaves a file (relative to ROOT) out.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from iosched.capture.source import MAX_BYTES, TreeSource
from iosched.observe.reader import read_source


class RecordingSource(TreeSource):
    """A TreeSource that remembers every file it read, directory it listed and link it looked at."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.files: dict[str, str] = {}
        self.dirs: dict[str, list[str]] = {}
        self.links: dict[str, str] = {}

    def text(self, rel: str, limit: int = MAX_BYTES, head: bool = False) -> str | None:
        text = super().text(rel, limit, head)
        if text is not None:
            self.files[rel.strip("/")] = text
        return text

    def listdir(self, rel: str) -> list[str]:
        names = super().listdir(rel)
        if names or super().isdir(rel):
            self.dirs[rel.strip("/")] = names
        return names

    def link(self, rel: str) -> str | None:
        target = super().link(rel)
        if target is not None:
            self.links[rel.strip("/")] = target
        return target


LISTED_ONLY = ("block", "holders", "slaves", "mq")


def capture(root: Path, dest: Path, drop_mounts_under: list[str], omit: list[str]) -> int:
    source = RecordingSource(root)
    read_source(source, str(root))
    files = dict(source.files)
    if "proc/mounts" in files and drop_mounts_under:
        keep = [line for line in files["proc/mounts"].splitlines(keepends=True)
                if not any(_below(line.split()[1:2], d) for d in drop_mounts_under)]  # fmt: skip
        files["proc/mounts"] = "".join(keep)
    for rel in omit:
        files.pop(rel.strip("/"), None)
    for rel, names in source.dirs.items():
        if rel.rsplit("/", 1)[-1] not in LISTED_ONLY:
            continue
        (dest / rel).mkdir(parents=True, exist_ok=True)
        for name in names:
            path = dest / rel / name
            if not any(f == f"{rel}/{name}" or f.startswith(f"{rel}/{name}/") for f in files):
                path.mkdir(parents=True, exist_ok=True)
                if rel.endswith("/mq") and (root / rel / name / "nr_tags").is_file():  # git keeps no empty directory
                    (path / "nr_tags").write_text((root / rel / name / "nr_tags").read_text())
    for rel, target in source.links.items():
        resolved = os.path.normpath(os.path.join(os.path.dirname(rel), target))
        if target == "/dev/null" or (not target.startswith("/") and resolved in files):
            files.pop(rel, None)
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            (dest / rel).symlink_to(target)
    for rel, text in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return len(files)


def _below(fields: list[str], directory: str) -> bool:
    return bool(fields) and (fields[0] == directory or fields[0].startswith(directory.rstrip("/") + "/"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--drop-mounts-under", action="append", default=[], metavar="DIR")
    parser.add_argument("--omit", action="append", default=[], metavar="FILE")
    args = parser.parse_args()
    if args.dest.exists() and any(args.dest.iterdir()):
        print(f"capture: {args.dest} is not empty", file=sys.stderr)
        return 2
    count = capture(args.root, args.dest, args.drop_mounts_under, args.omit)
    print(f"captured {count} files from {args.root} into {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
