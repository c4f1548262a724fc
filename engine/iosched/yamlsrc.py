"""Safe, bounded YAML (and JSON) loading that remembers where every value came from.

Bounds are enforced while the document is composed, before any value is built: nesting depth (the C
composer of PyYAML recurses once per level and crashes the interpreter on a document nested tens of
thousands deep), node count, and aliases (refused: they are how a small file expands into a huge one).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from typing import Any

from iosched.kbfiles import AnyPath
from iosched.struct import Struct

MAX_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 64  # the KB nests 8 deep, contexts 1


class YamlError(ValueError):
    """A document that cannot be read; ``line`` is 1-based (0 when unknown)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


class Document(Struct, kw_only=False):
    """Parsed data plus the node tree, to turn a location path into a line number."""

    data: Any
    _root: Any
    json: str = ""
    """The JSON text the data was decoded from, without YAML's nodes: composed only when a line is asked for."""

    def line_of(self, loc: Sequence[str | int]) -> int:
        """The 1-based line of the deepest node that ``loc`` reaches."""
        root = self._root if self._root is not None or not self.json else _parse_yaml(self.json)._root
        node, line = root, _line(root)
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


def _compose(loader: Any) -> Any:
    """The node tree of the single document in ``loader``'s stream, built from parser events without
    recursion; YamlError beyond MAX_DEPTH or MAX_NODES, on an alias, or on a second document."""
    from yaml import events, nodes

    loader.get_event()  # stream start
    if loader.check_event(events.StreamEndEvent):
        return None
    loader.get_event()  # document start
    scalar, sequence_start, mapping_start = events.ScalarEvent, events.SequenceStartEvent, events.MappingStartEvent
    ends = (events.SequenceEndEvent, events.MappingEndEvent)
    document_end, get_event, resolve = events.DocumentEndEvent, loader.get_event, loader.resolve
    scalar_node, sequence_node, mapping_node = nodes.ScalarNode, nodes.SequenceNode, nodes.MappingNode
    open_: list[list[Any]] = []  # [collection node, pending mapping key]
    root, count = None, 0
    while True:
        event = get_event()
        kind = type(event)
        if kind is document_end:
            break
        count += 1
        if count > MAX_NODES:
            raise YamlError(f"document has more than {MAX_NODES} nodes", event.start_mark.line + 1)
        if kind is scalar:
            tag = event.tag if event.tag not in (None, "!") else resolve(scalar_node, event.value, event.implicit)
            node = scalar_node(tag, event.value, event.start_mark, event.end_mark, style=event.style)
        elif kind in ends:
            node = open_.pop()[0]
            node.end_mark = event.end_mark
        elif kind is sequence_start or kind is mapping_start:
            if len(open_) >= MAX_DEPTH:
                raise YamlError(f"document is nested deeper than {MAX_DEPTH} levels", event.start_mark.line + 1)
            cls = sequence_node if kind is sequence_start else mapping_node
            tag = event.tag if event.tag not in (None, "!") else resolve(cls, None, event.implicit)
            open_.append([cls(tag, [], event.start_mark, None, flow_style=event.flow_style), None])
            continue
        else:  # an alias, the one other event inside a document
            raise YamlError("YAML aliases (*name) are not allowed", event.start_mark.line + 1)
        if not open_:
            root = node
            continue
        top = open_[-1]
        if type(top[0]) is sequence_node:
            top[0].value.append(node)
        elif top[1] is None:
            top[1] = node
        else:
            top[0].value.append((top[1], node))
            top[1] = None
    if not loader.check_event(events.StreamEndEvent):
        raise YamlError("expected one document, found more", loader.peek_event().start_mark.line + 1)
    return root


def too_large(limit: int) -> YamlError:
    from iosched.errors import larger_than

    return YamlError(larger_than(limit))


def parse(text: str | bytes, limit: int = MAX_BYTES) -> Document:
    """Parse one YAML document (JSON is YAML) of at most ``limit`` bytes, with the C parser when available."""
    if len(text) > limit:
        raise too_large(limit)
    if isinstance(text, bytes):
        if b"\x00" in text:
            raise YamlError("file holds binary data (a NUL byte), not YAML")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise YamlError(f"file is not UTF-8 text (byte {exc.start})") from None
    if text.lstrip()[:1] in ("{", "["):
        if "\\u" in text:
            text = _astral_escapes(text)
        elif (data := _as_json(text)) is not _NOT_SAME:
            return Document(data, None, text)
    return _parse_yaml(text)


def _parse_yaml(text: str) -> Document:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        root = _compose(loader)
        if root is None:
            return Document(None, None)
        try:
            return Document(loader.construct_document(root), root)
        except (ValueError, OverflowError) as exc:  # e.g. an integer of more than 4300 digits
            raise YamlError(f"YAML value out of range: {str(exc).split(';')[0][:120]}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        raise YamlError(f"YAML syntax: {problem}", mark.line + 1 if mark else 0) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"YAML: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    finally:
        loader.dispose()


_NOT_SAME = object()
_YAML_FLOAT = r"-?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?"
"""A JSON number YAML reads as a float too: YAML 1.1 wants the point, and a sign on the exponent."""
_YAML_READS_OTHERWISE = "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\x85\u2028\u2029\ufeff]"
"""A character JSON allows in a string that YAML does not read as itself: one PyYAML's reader refuses anywhere in
a stream (its ``NON_PRINTABLE``), a line break of YAML's own (NEL, U+2028, U+2029), a byte order mark."""


class _NotSame(ValueError):
    """JSON text that YAML would read otherwise: a number it reads as a string, a repeated key, NaN."""


def _as_json(text: str) -> Any:
    """``text`` read by the JSON decoder, some fifty times faster than YAML's events, where YAML reads the same
    data and within the same bounds; else ``_NOT_SAME``, and YAML reads it (and says where it is wrong). A JSON
    document is the common input (probe documents, fleets of them, ``--context`` files); one without a
    ``\\u`` escape needs none of the surrogate handling (:func:`_astral_escapes`). No line is known for its
    values."""
    import json
    import re

    if re.search(_YAML_READS_OTHERWISE, text):
        return _NOT_SAME

    def number(literal: str) -> float:
        if not re.fullmatch(_YAML_FLOAT, literal):
            raise _NotSame(literal)
        return float(literal)

    def mapping(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(pairs)
        if len(found) != len(pairs):
            raise _NotSame("a repeated key")
        return found

    def constant(name: str) -> Any:
        raise _NotSame(name)

    try:
        data = json.loads(text, parse_float=number, parse_constant=constant, object_pairs_hook=mapping)
    except (ValueError, RecursionError):
        return _NOT_SAME
    return data if _within_bounds(data) else _NOT_SAME


def _within_bounds(data: Any) -> bool:
    """Whether :func:`_compose` would take ``data``'s events: at most MAX_NODES (a scalar is one, a collection
    its start and end), no collection MAX_DEPTH collections deep."""
    count, todo = 0, [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            if depth >= MAX_DEPTH:
                return False
            count += 2 + len(value)  # its start, end and keys
            todo += [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            if depth >= MAX_DEPTH:
                return False
            count += 2
            todo += [(v, depth + 1) for v in value]
        else:
            count += 1
        if count > MAX_NODES:
            return False
    return True


def _astral_escapes(json_text: str) -> str:
    r"""JSON's surrogate-pair escapes (``\ud83d\ude00``, how ``json.dumps`` writes a character beyond U+FFFF
    in ASCII) as the one YAML escape of the character (``\U0001f600``): PyYAML refuses each half."""
    import re

    def joined(match: re.Match[str]) -> str:
        high, low = int(match[2], 16), int(match[3], 16)
        return f"{match[1]}\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08x}"

    pair = r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})"
    return re.sub(pair, joined, json_text, flags=re.IGNORECASE)


def read_bytes(path: AnyPath, limit: int) -> bytes:
    """The content of a regular file of at most ``limit`` bytes; YamlError for anything else.

    The file is opened without blocking and checked on the open descriptor, so a FIFO, a device or a
    file swapped in between cannot make the reader wait forever or read without end."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise YamlError(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise YamlError("not a regular file")
        if info.st_size > limit:
            raise too_large(limit)
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(fd, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise YamlError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise too_large(limit)
    return data


def read(path: AnyPath, limit: int = MAX_BYTES) -> Document:
    """Read and parse a regular file of at most ``limit`` bytes; every failure is a YamlError."""
    return parse(read_bytes(path, limit), limit)
