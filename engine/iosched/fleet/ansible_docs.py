"""Ansible fact documents on disk, one per host, in the three forms Ansible writes them.

- The ``jsonfile`` fact cache: a directory of files named after the inventory hostname, each one JSON object of
  ``ansible_*`` facts (the ``yaml`` cache plugin writes the same object as YAML, also read). ansible-core 2.19 and
  later wrap every cache entry (``lib/ansible/_internal/_plugins/_cache.py``, ``PluginInterposer``): the file is
  named ``s<schema>_<host>`` (``s1_db01``) and holds ``{"__payload__": "<the facts as JSON text>"}``; the host is
  the part after ``s<schema>_`` (and after the plugin's ``_prefix``, when one is set). Such a cache ignores files
  of the older form, and so does this reader when a wrapped file of the same host is beside them.
- ``ansible HOSTS -m setup --tree DIR``: files named after the inventory hostname holding the module result,
  ``{"ansible_facts": {...}}``, or ``{"unreachable": true, "msg": ...}`` / ``{"failed": true, "msg": ...}``.
- Console output of the default and oneline callbacks, one or many hosts in a text file:
  ``host | SUCCESS => {...}``, ``host | FAILED! => {...}``, ``host | UNREACHABLE! => {...}`` (``UNREACHABLE!: msg``
  from oneline); Ansible 1.x wrote ``host | success >> {...}`` and ``host | FAILED => message``. Other lines
  (warnings, ``Using ... as config file``, a surrounding document) are skipped.

Files are read only when they are regular files of bounded size; a document that cannot be read becomes a
:class:`FactDoc` with an ``error``, never an exception, so one bad host does not stop a fleet. Of a JSON cache or
tree file, only the facts iosched reads (:data:`READ_FACTS`) are decoded; the rest is checked as JSON and skipped.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import msgspec

from iosched.capture.text import token
from iosched.errors import larger_than
from iosched.escape import untrusted

MAX_DOC_BYTES = 16 * 1024 * 1024
MAX_CONSOLE_BYTES = 64 * 1024 * 1024
MAX_FILES = 1_000_000
_STEP = 64 * 1024
HOST_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:@%+-]{0,252}")
_HEADER_PATTERN = (
    r"^(?P<host>\S+) \| (?P<status>SUCCESS|CHANGED|FAILED!|UNREACHABLE!|SKIPPED|success|FAILED)(?: (?:=>|>>) |: |$)"
)
_HEADER = re.compile(_HEADER_PATTERN, re.MULTILINE)
_HEADER_BYTES = re.compile(_HEADER_PATTERN.encode(), re.MULTILINE)
_OBJECT_START = re.compile(rb"\s*\{")
_JSON_START = re.compile(rb"\s*(?:[{\[]|$)")
_OK = ("SUCCESS", "CHANGED", "success")
_WRAPPED_NAME = re.compile(r"s\d{1,9}_(?P<host>.+)", re.DOTALL)
_PREFIXED_WRAPPED_NAME = re.compile(r".*?s\d{1,9}_(?P<host>.+)", re.DOTALL)
"""With the jsonfile plugin's ``_prefix`` (``fact_caching_prefix``) before the schema key."""
PAYLOAD = "__payload__"
SYSTEM_FACTS = (
    "kernel", "distribution", "distribution_version", "virtualization_type", "virtualization_role", "architecture",
    "proc_cmdline", "cmdline", "devices", "mounts",
)  # fmt: skip
"""The facts a System is made of (:mod:`.ansible_system`), but for its hostname."""
READ_FACTS = ("system", "os_family", "hostname", *SYSTEM_FACTS)
"""The facts iosched reads (those, and what :func:`iosched.fleet.ansible_facts.host_facts` checks), without the
``ansible_`` prefix that a dump of the ``ansible_facts`` variable also lacks."""
DEVICE_FACTS = ("model", "vendor", "serial", "sectors", "sectorsize", "scheduler_mode", "rotational", "removable",
                "wwn", "holders", "links", "partitions")  # fmt: skip
"""What is read of a device or partition of ``devices``; of its ``links``, ``ids`` and ``masters``."""
MOUNT_FACTS = ("device", "mount", "fstype", "options")
"""What is read of an entry of ``mounts`` (not its sizes, which differ from host to host and from hour to hour)."""


class _Links(TypedDict, total=False):
    ids: Any
    masters: Any


_PARTITION_FACTS = {key: Any for key in DEVICE_FACTS if key != "partitions"}
_Partition = TypedDict("_Partition", {**_PARTITION_FACTS, "links": _Links}, total=False)  # type: ignore[misc]
_Device = TypedDict(
    "_Device",
    {**dict.fromkeys(DEVICE_FACTS, Any), "links": _Links, "partitions": dict[str, _Partition]},  # type: ignore[misc]
    total=False,
)
_Mount = TypedDict("_Mount", dict.fromkeys(MOUNT_FACTS, Any), total=False)  # type: ignore[misc]
_SHAPED = {"devices": msgspec.Raw, "mounts": list[_Mount]}
"""``devices`` is kept as its JSON text, decoded by :func:`devices_of` only when a System is made of it: hosts
alike are recognised by that text (:func:`iosched.fleet.ansible_system.system_shape`), and most hosts of a fleet
are like one met before."""
_FACT_TYPES = {key: _SHAPED.get(name, Any) for name in READ_FACTS for key in (f"ansible_{name}", name)}
_Facts = TypedDict("_Facts", _FACT_TYPES, total=False)  # type: ignore[misc]
_Document = TypedDict(
    "_Document",
    {**_FACT_TYPES, **dict.fromkeys(("unreachable", "failed", "msg", PAYLOAD), Any), "ansible_facts": _Facts},  # type: ignore[misc]
    total=False,
)
"""A document as :func:`unwrap` and the fact readers read it: a module result, a cache entry or facts, each
device and mount with only what is read of it; msgspec skips the rest."""
_read_document = msgspec.json.Decoder(_Document).decode
_read_devices = msgspec.json.Decoder(dict[str, _Device]).decode
_read_json = msgspec.json.Decoder().decode


class FactsError(ValueError):
    """The input as a whole cannot be read: no such path, not a file or directory, too many files."""


@dataclass(frozen=True)
class FactDoc:
    """One host's facts as found on disk, or why they could not be read."""

    name: str
    """The inventory hostname; escaped when the file or header did not hold a valid one (and ``error`` says so)."""
    source: str
    """The file, with ``:line`` for a host of console output."""
    facts: dict[str, Any] | None = None
    error: str | None = None
    from_json: bool = False
    """The facts hold only JSON's types (a YAML document's may hold dates, sets and tuples)."""


def fact_files(directory: Path) -> list[Path]:
    """The entries of a fact cache or ``--tree`` directory, by name; hidden files (``.name``) are skipped."""
    return [directory / name for name in fact_names(directory)]


def fact_names(directory: Path) -> list[str]:
    """The names of :func:`fact_files`, which cost no path each (a cache may hold 100,000 files)."""
    try:
        with os.scandir(directory) as entries:
            names = []
            for entry in entries:
                if not entry.name.startswith("."):
                    names.append(entry.name)
                    if len(names) > MAX_FILES:
                        raise FactsError(f"{untrusted(str(directory))}: more than {MAX_FILES} files")
    except OSError as exc:
        raise FactsError(f"{untrusted(str(directory))}: {untrusted(exc.strerror or str(exc))}") from None
    wrapped = {match["host"] for name in names if (match := _WRAPPED_NAME.fullmatch(name))}
    return [name for name in sorted(names) if name not in wrapped]


def documents(path: Path) -> Iterator[FactDoc]:
    """Every host's document under ``path``: a fact directory, or one file (a single document or console output)."""
    if path.is_dir():
        for file in fact_files(path):
            yield from file_documents(file, follow_symlinks=False)
    elif path.exists():
        yield from file_documents(path)
    else:
        raise FactsError(f"{untrusted(str(path))}: no such file or directory")


def file_documents(path: Path | str, follow_symlinks: bool = True) -> list[FactDoc]:
    """The host of a cache or tree file (named after the file), or the hosts of a console-output file."""
    source = os.fspath(path)
    name = os.path.basename(source)
    try:
        data = read_regular(source, MAX_CONSOLE_BYTES, follow_symlinks)
    except OSError as exc:
        error = "a symbolic link, not a regular file" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        return [FactDoc(_shown(name), source, error=untrusted(error))]
    except ValueError as exc:
        return [FactDoc(_shown(name), source, error=str(exc))]
    if not _OBJECT_START.match(data) and _HEADER_BYTES.search(data):
        return console_documents(data.decode("utf-8", "replace"), source)
    return [cache_document(name, data, source)]


def read_regular(path: Path | str, limit: int, follow_symlinks: bool = True) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a FIFO or device never blocks the read."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow_symlinks else os.O_NOFOLLOW)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > limit:
            raise ValueError(larger_than(limit))
        data = os.read(fd, info.st_size + 1)  # os.read(fd, limit) would allocate the limit, 64 MiB, for every file
        while len(data) not in (info.st_size, limit + 1) and (more := os.read(fd, min(limit + 1 - len(data), _STEP))):
            data += more  # a short read, or the file grew since fstat
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(larger_than(limit))
    return data


def cache_document(name: str, data: bytes, source: str) -> FactDoc:
    """One host's cache or tree file: JSON, or YAML from the ``yaml`` cache plugin; wrapped (2.19+) or not."""
    if len(data) > MAX_DOC_BYTES:
        return FactDoc(_shown(name), source, error=larger_than(MAX_DOC_BYTES))
    from_json = bool(_JSON_START.match(data))
    try:
        result = selected(data) if from_json else _yaml(data)
        wrapped = _PREFIXED_WRAPPED_NAME.fullmatch(name)
        if wrapped and isinstance(result, dict) and PAYLOAD in result:
            name = wrapped["host"]
            if not isinstance(result[PAYLOAD], str):
                return FactDoc(_shown(name), source, error=f"{PAYLOAD} is not JSON text")
            result = selected(result[PAYLOAD])
    except (ValueError, RecursionError) as exc:
        return FactDoc(_shown(name), source, error=not_a_document(exc))
    if not token(name, HOST_NAME):
        return FactDoc(_shown(name), source, error="the file name is not an inventory host name")
    facts, error = unwrap(result)
    return FactDoc(name, source, facts, error, from_json)


def not_a_document(exc: Exception) -> str:
    """Why a file's text is no fact document: the reader's message, shortened and made safe to show."""
    return f"not a JSON or YAML fact document ({untrusted(str(exc), 120)})"


def selected(data: bytes | str) -> Any:
    """A JSON document as :func:`decode_json` reads it, but for the keys :func:`unwrap` and the readers of facts
    never look at, at the top and in ``ansible_facts``: those are skipped, not built (a cache file is ~28 KiB
    of facts, of which iosched reads a few). The skipped values are checked as JSON but for their UTF-8, and a
    document of none but skipped facts has none for :func:`unwrap`. ``devices`` is its JSON text (a
    ``msgspec.Raw``), checked likewise, for :func:`devices_of`.

    A document the typed reader refuses (not an object, ``ansible_facts`` not an object, NaN ...) is read
    whole by :func:`decode_json`, which accepts it or gives its error.
    """
    try:
        return _read_document(data)
    except (ValueError, RecursionError):  # msgspec.DecodeError is a ValueError
        return decode_json(data)


def devices_of(value: Any) -> Any:
    """The ``devices`` fact as :func:`decode_json` would have read it within its document (with what is read of
    each device only): ``value`` itself unless :func:`selected` kept it as JSON text. Raises ValueError (with the
    standard library's message) when that text is not JSON, which :func:`selected` does not check inside a
    string: its UTF-8."""
    if not isinstance(value, msgspec.Raw):
        return value
    try:
        return _read_devices(value)
    except (ValueError, RecursionError):  # not an object of objects, NaN ...: read whole
        return decode_json(bytes(value))


def decode_json(data: bytes | str) -> Any:
    """A JSON document, as :func:`json.loads` reads it; msgspec's faster reader first.

    A document msgspec refuses (NaN, a number beyond a float's range, an escaped lone surrogate, a byte-order
    mark, nesting deeper than its limit) is read again by the standard library, which accepts it or gives its
    own error.
    """
    try:
        return _read_json(data)
    except (ValueError, RecursionError):  # msgspec.DecodeError is a ValueError
        return json.loads(data)


def _yaml(data: bytes) -> Any:
    from iosched.yamlsrc import parse

    return parse(data, MAX_DOC_BYTES).data


def console_documents(text: str, source: str) -> list[FactDoc]:
    """The hosts of ``ansible -m setup`` console output, in the order they appear."""
    docs: list[FactDoc] = []
    first_line: dict[str, int] = {}
    decoder = json.JSONDecoder()
    position = counted = 0
    line = 1
    while match := _HEADER.search(text, position):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        name, status = match["host"], match["status"]
        where = f"{source}:{line}"
        rest_end = text.find("\n", match.end())
        rest_end = len(text) if rest_end < 0 else rest_end
        position = rest_end
        result: Any = text[match.end() : rest_end].strip()
        if text.startswith("{", match.end()):
            try:
                result, position = decoder.raw_decode(text, match.end())
            except (ValueError, RecursionError) as exc:
                docs.append(FactDoc(_shown(name), where, error=f"unreadable JSON ({untrusted(str(exc), 120)})"))
                continue
        if not token(name, HOST_NAME):
            docs.append(FactDoc(_shown(name), where, error="not an inventory host name"))
        elif name in first_line:
            docs.append(FactDoc(name, where, error=f"appears again (first at line {first_line[name]})"))
        elif status in _OK:
            first_line[name] = line
            facts, error = unwrap(result)
            docs.append(FactDoc(name, where, facts, error, from_json=True))
        else:
            first_line[name] = line
            docs.append(FactDoc(name, where, error=_failure(status, result)))
    return docs


def _shown(name: str) -> str:
    """A host name as it may be shown: itself when valid, else escaped."""
    return name if token(name, HOST_NAME) else untrusted(name)


def _failure(status: str, result: Any) -> str:
    kind = "skipped" if status == "SKIPPED" else "unreachable" if status.startswith("UNREACHABLE") else "failed"
    message = result.get("msg") if isinstance(result, dict) else result
    message = message.strip() if isinstance(message, str) else message
    return f"{kind}: {untrusted(message)}" if message else kind


NO_FACTS = "no Ansible facts in this document"


def unwrap(result: Any) -> tuple[dict[str, Any] | None, str | None]:
    """The ``ansible_*`` facts of a module result or cache document, or why there are none.

    A dump of the ``ansible_facts`` variable (keys without the ``ansible_`` prefix) is read too.
    """
    if not isinstance(result, dict):
        return None, "not a JSON object of facts"
    if result.get("unreachable") is True or result.get("failed") is True:
        return None, _failure("UNREACHABLE!" if result.get("unreachable") is True else "FAILED!", result)
    facts = result.get("ansible_facts", result)
    if not isinstance(facts, dict):
        return None, "ansible_facts is not a mapping"
    if any(isinstance(key, str) and key.startswith("ansible_") for key in facts):
        return facts, None
    if "system" in facts and "kernel" in facts:
        return {f"ansible_{key}": value for key, value in facts.items()}, None
    return None, NO_FACTS
