"""Group membership from an Ansible inventory file, INI or YAML, read without running anything.

Only the structure is read: which hosts each group lists and which groups are children of which. Variables,
Jinja and inventory plugins are ignored. As in Ansible (lib/ansible/plugins/inventory/ini.py and yaml.py):

- INI: ``[group]`` lists hosts (``name [key=value ...]``, a ``:port`` suffix dropped, the variables not read),
  ``[group:children]`` lists child groups, ``[group:vars]`` is skipped, lines before any section are ungrouped
  hosts, ``#`` and ``;`` start comments. Section names get Ansible's INI treatment (characters outside
  ``[A-Za-z0-9_]`` become ``_``) and names in ``:children`` do not, so ``[web-servers]`` is ``web_servers``.
- YAML: top-level keys are groups (usually ``all``), each a mapping with ``hosts`` (a mapping of host names, or
  one name), ``children`` (a mapping of groups, defined in place) and ``vars`` (skipped); other keys are skipped.
- Host ranges expand as Ansible does: ``web[01:20].example.com``, ``db-[a:f]``, ``node[0:30:10]``.

A host belongs to the groups that list it and to all their ancestors, to ``all``, and to ``ungrouped`` when no
other group lists it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iosched.escape import untrusted
from iosched.fleet.ansible_docs import read_regular

MAX_INVENTORY_BYTES = 64 * 1024 * 1024
MAX_HOSTS = 1_000_000
MAX_PATTERN = 1024
_SECTION = re.compile(r"\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?")
_GROUP_LINE = re.compile(r"([^:\]\s]+)\s*(?:#.*)?")
_UNSAFE_GROUP_CHARS = re.compile(r"^[\d\W]|\W")
_RANGE = re.compile(r"\[([^\]]*)\]")
_PORT = re.compile(r"(.*?[^:]):(\d+)")


class InventoryError(ValueError):
    """An inventory that cannot be read; the message names the file and, where known, the line."""


@dataclass(frozen=True)
class Inventory:
    """Which groups each host of an inventory belongs to."""

    memberships: dict[str, frozenset[str]]

    def groups_of(self, host: str) -> frozenset[str]:
        """The groups of ``host`` (ancestors included), or no group when the inventory does not list it."""
        return self.memberships.get(host, frozenset())


def read_inventory(path: Path) -> Inventory:
    """An INI or YAML inventory file (``.yml``, ``.yaml`` and ``.json`` are YAML; other names are sniffed)."""
    shown = untrusted(str(path))
    try:
        data = read_regular(path, MAX_INVENTORY_BYTES)
        text = data.decode("utf-8")
    except OSError as exc:
        raise InventoryError(f"{shown}: {untrusted(exc.strerror or str(exc))}") from None
    except UnicodeDecodeError as exc:
        raise InventoryError(f"{shown}: not UTF-8 text (byte {exc.start})") from None
    except ValueError as exc:
        raise InventoryError(f"{shown}: {exc}") from None
    if path.suffix in (".yml", ".yaml", ".json") or _looks_like_yaml(text):
        from iosched.yamlsrc import YamlError, parse

        try:
            document = parse(data, MAX_INVENTORY_BYTES)
        except YamlError as exc:
            raise InventoryError(f"{shown}:{exc.line}: {exc}") from None
        return yaml_inventory(document.data, shown)
    return ini_inventory(text, shown)


def _looks_like_yaml(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and stripped[0] not in "#;":
            return stripped == "---" or re.fullmatch(r"[^\s\[\]:=]+:", stripped) is not None
    return False


def ini_inventory(text: str, source: str = "inventory") -> Inventory:
    """An INI inventory's group memberships; like Ansible, a child or ``:vars`` section of no group is an error."""
    hosts: dict[str, set[str]] = {}
    children: dict[str, set[str]] = {}
    declared = {"all", "ungrouped"}
    referenced: dict[str, str] = {}
    group, state = "ungrouped", "hosts"
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        where = f"{source}:{number}"
        if section := _SECTION.fullmatch(line):
            group, state = _safe_group(section[1]), section[2] or "hosts"
            if state not in ("hosts", "children", "vars"):
                raise InventoryError(f"{where}: section [{untrusted(line[1:-1])}] has unknown type {untrusted(state)}")
            if state == "vars":
                referenced.setdefault(group, where)
            else:
                declared.add(group)
        elif line.startswith("["):
            raise InventoryError(f"{where}: invalid section {untrusted(line, 80)}")
        elif state == "hosts":
            for host in expand_hosts(_host_pattern(line.split()[0], where), where):
                hosts.setdefault(host, set()).add(group)
                _check_size(hosts, where)
        elif state == "children":
            child = _GROUP_LINE.fullmatch(line)
            if child is None:
                raise InventoryError(f"{where}: expected a group name, not {untrusted(line, 80)}")
            children.setdefault(group, set()).add(child[1])
            referenced.setdefault(child[1], where)
    for name, where in referenced.items():
        if name not in declared:
            raise InventoryError(f"{where}: group {untrusted(name, 80)} is not defined in this inventory")
    return _resolve(hosts, children)


def _safe_group(name: str) -> str:
    return _UNSAFE_GROUP_CHARS.sub("_", name)


def _host_pattern(word: str, where: str) -> str:
    """A host word without its ``:port``; a bare IPv6 address keeps its colons."""
    if len(word) > MAX_PATTERN:
        raise InventoryError(f"{where}: host pattern longer than {MAX_PATTERN} characters")
    port = _PORT.fullmatch(word)
    if port and ":" not in _RANGE.sub("", port[1]):
        return port[1]
    if word.endswith(":"):
        raise InventoryError(f"{where}: host pattern {untrusted(word, 80)} ends in ':'")
    return word


def expand_hosts(pattern: str, where: str = "inventory") -> list[str]:
    """The host names of an Ansible host pattern with ``[begin:end]`` or ``[begin:end:step]`` ranges."""
    ranges = list(_RANGE.finditer(pattern))
    if not ranges or not all(":" in r[1] for r in ranges):
        return [pattern]
    names = [""]
    position = 0
    for match in ranges:
        values = _range_values(match[1], where)
        if len(names) * len(values) > MAX_HOSTS:
            raise InventoryError(f"{where}: {untrusted(pattern, 80)} expands to more than {MAX_HOSTS} hosts")
        head = pattern[position : match.start()]
        names = [f"{name}{head}{value}" for name in names for value in values]
        position = match.end()
    return [f"{name}{pattern[position:]}" for name in names]


def _range_values(spec: str, where: str) -> list[str]:
    bounds = spec.split(":")
    if len(bounds) not in (2, 3) or not bounds[1]:
        raise InventoryError(f"{where}: host range [{untrusted(spec, 40)}] must be begin:end or begin:end:step")
    begin, end = bounds[0] or "0", bounds[1]
    try:
        step = int(bounds[2]) if len(bounds) == 3 else 1
    except ValueError:
        raise InventoryError(f"{where}: host range step {untrusted(bounds[2], 20)} is not a number") from None
    if step < 1:
        raise InventoryError(f"{where}: host range step must be at least 1")
    letters = string.ascii_letters
    if begin in letters and end in letters and len(begin) == len(end) == 1:
        if letters.index(begin) > letters.index(end):
            raise InventoryError(f"{where}: host range [{untrusted(spec, 40)}] must have begin <= end")
        return list(letters[letters.index(begin) : letters.index(end) + 1 : step])
    if not (begin.isascii() and begin.isdigit() and end.isascii() and end.isdigit()):
        raise InventoryError(f"{where}: host range [{untrusted(spec, 40)}] is neither numeric nor alphabetic")
    width = len(begin) if begin.startswith("0") and len(begin) > 1 else 0
    if width and len(end) != width:
        raise InventoryError(f"{where}: host range [{untrusted(spec, 40)}] needs equal-length begin and end")
    first, last = int(begin), int(end)
    if (last - first) // step + 1 > MAX_HOSTS:
        raise InventoryError(f"{where}: host range [{untrusted(spec, 40)}] holds more than {MAX_HOSTS} hosts")
    return [str(n).zfill(width) for n in range(first, last + 1, step)]


def yaml_inventory(data: Any, source: str = "inventory") -> Inventory:
    """A YAML inventory's group memberships (``data`` as parsed); entries Ansible skips are skipped too."""
    if not isinstance(data, dict) or not data:
        raise InventoryError(f"{source}: a YAML inventory is a mapping of groups, such as all: {{hosts: ...}}")
    if "plugin" in data:
        raise InventoryError(f"{source}: an inventory plugin configuration, not a YAML inventory")
    hosts: dict[str, set[str]] = {}
    children: dict[str, set[str]] = {}
    pending = list(data.items())
    while pending:
        group, body = pending.pop()
        if not isinstance(body, dict | None):
            continue
        group = str(group)
        children.setdefault(group, set())
        for section, entries in (body or {}).items():
            entries = {entries: None} if isinstance(entries, str) else entries
            if section == "hosts" and isinstance(entries, dict):
                for pattern in entries:
                    for host in expand_hosts(_host_pattern(str(pattern), source), source):
                        hosts.setdefault(host, set()).add(group)
                        _check_size(hosts, source)
            elif section == "children" and isinstance(entries, dict):
                children[group].update(str(child) for child in entries)
                pending.extend(entries.items())
    return _resolve(hosts, children)


def _check_size(hosts: dict[str, Any], where: str) -> None:
    if len(hosts) > MAX_HOSTS:
        raise InventoryError(f"{where}: more than {MAX_HOSTS} hosts")


def _resolve(direct: dict[str, set[str]], children: dict[str, set[str]]) -> Inventory:
    """Each host's groups: the direct ones, their ancestors, ``all``, and ``ungrouped`` when it has no other."""
    parents: dict[str, set[str]] = {}
    for parent, kids in children.items():
        for kid in kids:
            parents.setdefault(kid, set()).add(parent)
    ancestry: dict[frozenset[str], frozenset[str]] = {}

    def with_ancestors(groups: Iterable[str]) -> frozenset[str]:
        seen: set[str] = set()
        stack = list(groups)
        while stack:
            group = stack.pop()
            if group not in seen:
                seen.add(group)
                stack.extend(parents.get(group, ()))
        return frozenset(seen)

    memberships = {}
    for host, groups in direct.items():
        key = frozenset(groups - {"ungrouped"})
        if key not in ancestry:
            found = with_ancestors(key) | {"all"}
            ancestry[key] = found if found - {"all"} else found | {"ungrouped"}
        memberships[host] = ancestry[key]
    return Inventory(memberships)
