"""Safe, bounded YAML (and JSON) loading that remembers where every value came from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000


class YamlError(ValueError):
    """A document that cannot be read; ``line`` is 1-based (0 when unknown)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Document:
    """Parsed data plus the node tree, to turn a location path into a line number."""

    data: Any
    _root: Any

    def line_of(self, loc: Sequence[str | int]) -> int:
        """The 1-based line of the deepest node that ``loc`` reaches."""
        node, line = self._root, _line(self._root)
        for key in loc:
            node = _child(node, key)
            if node is None:
                break
            line = _line(node)
        return line


def _line(node: Any) -> int:
    return node.start_mark.line + 1 if node is not None else 0


def _child(node: Any, key: str | int) -> Any:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if getattr(k, "value", None) == str(key):
                return v
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
        return node.value[key]
    return None


def _check_tree(root: Any) -> None:
    """Refuse aliases (billion-laughs) and oversized trees; iterative, so deep nesting cannot recurse."""
    import yaml

    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise YamlError("YAML aliases (*name) are not allowed", _line(node))
        seen.add(id(node))
        if len(seen) > MAX_NODES:
            raise YamlError(f"document has more than {MAX_NODES} nodes", _line(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack.extend((k, v))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _too_large(limit: int) -> YamlError:
    shown = f"{limit // 1024 // 1024} MiB" if limit >= 1024 * 1024 else f"{limit // 1024} KiB"
    return YamlError(f"larger than {shown}")


def parse(text: str | bytes, limit: int = MAX_BYTES) -> Document:
    """Parse one YAML document (JSON is YAML) of at most ``limit`` bytes, with the C loader when available."""
    import yaml

    if len(text) > limit:
        raise _too_large(limit)
    if isinstance(text, bytes):
        if b"\x00" in text:
            raise YamlError("file holds binary data (a NUL byte), not YAML")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise YamlError(f"file is not UTF-8 text (byte {exc.start})") from None
    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_cls(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return Document(None, None)
        _check_tree(root)
        return Document(loader.construct_document(root), root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        raise YamlError(f"YAML syntax: {problem}", mark.line + 1 if mark else 0) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"YAML: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    except RecursionError:
        raise YamlError("document is nested too deeply") from None
    finally:
        loader.dispose()


def read(path: Path, limit: int = MAX_BYTES) -> Document:
    """Read and parse a regular file of at most ``limit`` bytes; every failure is a YamlError."""
    try:
        if not path.is_file():
            raise YamlError("not a regular file")
        if path.stat().st_size > limit:
            raise _too_large(limit)
        with path.open("rb") as fh:
            return parse(fh.read(limit + 1), limit)
    except OSError as exc:
        raise YamlError(f"cannot read: {exc.strerror or exc}") from None
