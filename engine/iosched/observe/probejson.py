"""Read back what ``iosched probe --format json`` wrote: untrusted data, checked field by field.

Used where a probe document is an input (``advise --context``, ``iosched fleet``). Every string is checked
for control characters, device names against the kernel's sysfs names, and every field against the type the
model declares; anything else is a :class:`ProbeDocumentError` naming the field.
"""

from __future__ import annotations

import re
from typing import Any

from iosched.escape import untrusted
from iosched.grammar import UNSEEN
from iosched.hints import get_args
from iosched.records.system import SCHEMA_VERSION, Device, DeviceKind, Host, Mount, System, Tuner, TunerKind
from iosched.struct import Struct
from iosched.vocab import IO_PATHS

_NAME = re.compile(r"[A-Za-z0-9!._:+-]{1,64}")
_CHOICES = {"DeviceKind": get_args(DeviceKind), "TunerKind": get_args(TunerKind), "IoPath | None": IO_PATHS}
"""Fields whose annotation is a closed set of words, by annotation."""
_CONTROL = re.compile(rf"[{UNSEEN}]")


class ProbeDocumentError(ValueError):
    """A probe document that cannot be read; the message names the field."""


KIND = "probe"
"""The ``kind`` of a probe document, as plan and host documents name theirs."""


def to_document(system: System) -> dict[str, Any]:
    """The probe document of a System: its ``kind``, then every field."""
    return {"kind": KIND, **system.to_json()}


def looks_like(data: object) -> bool:
    return isinstance(data, dict) and "schema_version" in data and "host" in data and "devices" in data


def _text(value: object, where: str, limit: int = 4096) -> str:
    if not isinstance(value, str):
        raise ProbeDocumentError(f"{where}: expected text")
    if len(value) > limit:
        raise ProbeDocumentError(f"{where}: longer than {limit} characters")
    if _CONTROL.search(value):
        raise ProbeDocumentError(f"{where}: a control character or invisible mark in the text")
    return value


def _optional(value: object, where: str) -> str | None:
    return None if value is None else _text(value, where)


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ProbeDocumentError(f"{where}: expected a list")
    return tuple(_text(v, f"{where}[]") for v in value)


def _list(value: object, where: str, most: int = 4096) -> list[Any]:
    """A list of at most ``most`` records; null or absent is none."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > most:
        raise ProbeDocumentError(f"{where}: expected a list of at most {most} entries")
    return value


def _mapping(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ProbeDocumentError(f"{where}: expected a mapping")
    return {_text(k, where, 256): _text(v, f"{where}.{k}") for k, v in value.items()}


def _record(cls: type[Struct], data: object, where: str, names: frozenset[str] = frozenset()) -> Any:
    """One record from a mapping: strings, optional strings, lists of strings, mappings, bools and ints."""
    if not isinstance(data, dict):
        raise ProbeDocumentError(f"{where}: expected a mapping")
    known = cls.__annotations__
    unknown = sorted(map(str, set(data) - set(known)))
    if unknown:
        raise ProbeDocumentError(f"{where}: unknown field(s) {untrusted(', '.join(unknown), 120)}")
    missing = sorted(cls.__required__ - set(data))
    if missing:
        raise ProbeDocumentError(f"{where}: missing field(s) {', '.join(missing)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        annotation = str(known[name])
        at = f"{where}.{name}"
        if annotation in _CHOICES:
            choices = _CHOICES[annotation]
            if value not in choices and not (value is None and "None" in annotation):
                raise ProbeDocumentError(f"{at}: expected one of {', '.join(map(str, choices))}")
            values[name] = value
        elif name in names and not (value is None and name != "name"):
            if not isinstance(value, str) or not _NAME.fullmatch(value):
                raise ProbeDocumentError(f"{at}: not a kernel device name")
            values[name] = value
        elif annotation.startswith("tuple"):
            values[name] = _strings(value, at)
        elif annotation.startswith("dict"):
            values[name] = _mapping(value, at)
        elif annotation.startswith("bool"):
            if value is not None and not isinstance(value, bool):
                raise ProbeDocumentError(f"{at}: expected true, false or null")
            values[name] = value
        elif annotation.startswith("int"):
            negative = name == "priority"  # TuneD unit priorities go below 0
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or (value < 0 and not negative)):  # fmt: skip
                raise ProbeDocumentError(f"{at}: expected a whole number or null")
            values[name] = value
        else:
            if value is None and "None" not in annotation:
                raise ProbeDocumentError(f"{at}: expected a string, not null")
            values[name] = _optional(value, at)
    return cls(**values)


def from_document(data: object) -> System:
    """A System from a parsed probe JSON document."""
    if not looks_like(data):
        raise ProbeDocumentError("not an iosched probe document (schema_version, host, devices)")
    assert isinstance(data, dict)
    if data.get("kind", KIND) != KIND:
        raise ProbeDocumentError(f"kind {untrusted(str(data.get('kind')), 60)!r} is not {KIND}")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ProbeDocumentError(f"schema_version {data.get('schema_version')!r} is not {SCHEMA_VERSION}")
    devices = _list(data.get("devices"), "devices")
    device_names = frozenset({"name", "parent"})
    return System(
        host=_record(Host, data["host"], "host"),
        devices=tuple(_record(Device, d, f"devices[{i}]", device_names) for i, d in enumerate(devices)),
        sysctls=_mapping(data.get("sysctls", {}), "sysctls"),
        mounts=tuple(_record(Mount, m, f"mounts[{i}]") for i, m in enumerate(_list(data.get("mounts"), "mounts"))),
        tuners=tuple(_record(Tuner, t, f"tuners[{i}]") for i, t in enumerate(_list(data.get("tuners"), "tuners"))),
        missing=_strings(data.get("missing", []), "missing"),
        source=_text(data.get("source", ""), "source"),
    )
