"""Which workload each host of a fleet runs: the ``--workloads FILE`` of ``iosched fleet``.

The file is YAML (or JSON)::

    inventory: inventory/hosts.ini   # optional: an Ansible INI or YAML inventory, relative to this file
    hosts:                           # host name or glob pattern (* ? [abc]) -> workload id
      "db-*.example.com": db
      backup01: batch
    groups:                          # inventory group -> workload id (needs an inventory)
      webservers: fileserver
      postgres: db
    default: mixed                   # optional: every other host

:meth:`WorkloadMap.workload_for` decides, first match wins: the ``hosts`` entries in file order (patterns match
the whole inventory hostname, case-sensitively), then the ``groups`` entries in file order (the first group the
host belongs to, ancestors included), then ``default``; with none of them it returns None and the caller decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from iosched.escape import untrusted
from iosched.fleet.inventory import Inventory, InventoryError, read_inventory
from iosched.knowledge import normalise

MAX_MAP_BYTES = 4 * 1024 * 1024
WORKLOAD_ID = re.compile(r"[a-z][a-z0-9-]{0,63}")
HOST_PATTERN = re.compile(r"[^\s\x00-\x1f\x7f]{1,255}")
GROUP_NAME = re.compile(r"[^\s:\]\x00-\x1f\x7f]{1,255}")
KEYS = ("inventory", "hosts", "groups", "default")


class WorkloadMapError(ValueError):
    """A workload map that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class WorkloadMap:
    hosts: tuple[tuple[str, str], ...] = ()
    """(host name or glob pattern, workload id), in file order."""
    groups: tuple[tuple[str, str], ...] = ()
    """(inventory group, workload id), in file order."""
    default: str | None = None
    inventory: Inventory | None = None

    def workload_for(self, host: str, groups: Collection[str] | None = None) -> str | None:
        """The workload of ``host``; ``groups`` default to the host's groups in the map's inventory."""
        for pattern, workload in self.hosts:
            if fnmatchcase(host, pattern):
                return workload
        if groups is None:
            groups = self.inventory.groups_of(host) if self.inventory else frozenset()
        for group, workload in self.groups:
            if group in groups:
                return workload
        return self.default


def read_workload_map(path: Path, known_workloads: Collection[str] | Mapping[str, str] = ()) -> WorkloadMap:
    """A workload map file and the inventory it names; ``known_workloads`` are the KB's workload ids, or every
    spelling of them -> id (:func:`iosched.knowledge.normalise.workload_spellings`)."""
    from iosched.yamlsrc import YamlError, read

    shown = untrusted(str(path))
    try:
        document = read(path, MAX_MAP_BYTES)
    except YamlError as exc:
        raise WorkloadMapError(f"{shown}:{exc.line}: {exc}") from None

    def fail(message: str, *loc: str | int) -> WorkloadMapError:
        return WorkloadMapError(f"{shown}:{document.line_of(loc)}: {message}")

    workloads = parse_workload_map(document.data, known_workloads, fail)
    inventory_path = document.data.get("inventory") if isinstance(document.data, dict) else None
    if inventory_path is not None:
        if not isinstance(inventory_path, str) or not inventory_path.strip():
            raise fail("inventory must be the path of an Ansible inventory file", "inventory")
        try:
            inventory = read_inventory(path.parent / inventory_path)
        except InventoryError as exc:
            raise WorkloadMapError(f"{shown}: inventory {exc}") from None
        workloads = replace(workloads, inventory=inventory)
    elif workloads.groups:
        raise fail("groups need an inventory: add inventory: PATH", "groups")
    return workloads


Failure = Callable[..., WorkloadMapError]


def parse_workload_map(
    data: Any, known_workloads: Collection[str] | Mapping[str, str] = (), fail: Failure | None = None
) -> WorkloadMap:
    """A workload map from parsed YAML, without its inventory; ``fail(message, *loc)`` makes the error to raise."""
    fail = fail or (lambda message, *loc: WorkloadMapError(message))
    if not isinstance(data, dict):
        raise fail("a workload map is a mapping such as {hosts: {'db*': db}, default: mixed}")
    unknown = [str(key) for key in data if key not in KEYS]
    if unknown:
        raise fail(f"unknown key {untrusted(unknown[0], 40)}; known: {', '.join(KEYS)}", unknown[0])

    spellings = known_workloads if isinstance(known_workloads, Mapping) else {w: w for w in known_workloads}

    def workload(value: Any, *loc: str | int) -> str:
        if not isinstance(value, str):
            raise fail(f"unknown workload {untrusted(value, 40)}", *loc)
        if not spellings:
            if WORKLOAD_ID.fullmatch(value):
                return value
            raise fail(f"unknown workload {untrusted(value, 40)}", *loc)
        found = normalise.spelt(value, spellings)
        if found is None:
            ids = sorted(set(spellings.values()))
            raise fail(normalise.unknown("workload", value[:40], ids, spellings), *loc)
        return found

    def entries(section: str, grammar: re.Pattern[str], what: str) -> tuple[tuple[str, str], ...]:
        table = data.get(section) or {}
        if not isinstance(table, dict):
            raise fail(f"{section} must be a mapping of {what} to workload id", section)
        for key in table:
            if not isinstance(key, str) or not grammar.fullmatch(key):
                raise fail(f"{section}: {untrusted(key, 60)} is not a {what}", section, key)
        return tuple((key, workload(value, section, key)) for key, value in table.items())

    default = data.get("default")
    return WorkloadMap(
        hosts=entries("hosts", HOST_PATTERN, "host name or pattern"),
        groups=entries("groups", GROUP_NAME, "group name"),
        default=None if default is None else workload(default, "default"),
    )
