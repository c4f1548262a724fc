"""The INI dialect of tuned profiles and saptune notes: ``[section]`` then ``key = value`` lines."""

from __future__ import annotations

MAX_SECTIONS = 256


def parse_ini(text: str) -> dict[str, dict[str, str]]:
    """Sections in file order, each a dict of its keys (the last of a repeated key wins).

    Keys before any section go to the ``""`` section; ``#`` and ``;`` start comment lines.
    """
    sections: dict[str, dict[str, str]] = {"": {}}
    current = sections[""]
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip()
            if name not in sections and len(sections) >= MAX_SECTIONS:
                break
            current = sections.setdefault(name, {})
            continue
        key, sep, value = line.partition("=")
        if sep and key.strip():
            current[key.strip()] = value.strip()
    return sections
