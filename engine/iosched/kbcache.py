"""A compiled cache of the checked KB, so everyday commands skip YAML parsing and validation.

The cache is plain JSON data, never code: loading it can only rebuild KB Structs of the schema modules, by
name, from strings, numbers and lists, and each section is rebuilt only when a command first reads it. It is
keyed by the KB's content (a hash of every file; the hash of an unchanged KB is remembered by its files'
identity, see :func:`remembered_version`), read only when it is a regular file owned by the effective user in
a directory that no other user can write to, and older cache files are removed when a new one is written.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

from iosched import __version__
from iosched.diagnostics import KbInvalid
from iosched.kb import Kb
from iosched.kbfiles import identity, scan, version_of
from iosched.kernel import KernelVersion
from iosched.kinds import BY_SECTION
from iosched.paths import AnyPath, bundled_kb, cache_dir
from iosched.rules import compares, guard
from iosched.struct import Struct
from iosched.vocab import OPERATORS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeGuard

    _Index = tuple[str, dict[str, str], dict[str, Any], dict[str, list[int]]]

FORMAT = 7
"""In every cache file's name: raised when the format or what a valid KB is changes, so that no cache written
under older rules is served (6: the index gives where each entity's text is, so a lookup rebuilds one entity;
7: each rule's name and guard and each caveat's scope, so a plan rebuilds only the rules and caveats it may need)."""
_TYPE = "\x00t"
_KERNEL = "\x00k"
PREFIX = "kb-"


def path_for(directories: Sequence[AnyPath]) -> str:
    """The cache file of these KB layers: named by iosched's version, the format and the KB's content."""
    return os.path.join(cache_dir(), f"{PREFIX}{__version__}-{FORMAT}-{remembered_version(directories)}.json")


VERSIONS = "versions.json"
"""Beside the cache files: the content version of each KB the user loaded, by the identity of its files."""
SETTLED_NS = 2_000_000_000
"""A KB whose newest file changed less than this long ago is hashed again by the next command, never
remembered: a second write in the same clock tick may leave a file's size and times as they were."""
_KEEP_VERSIONS = 32


def remembered_version(directories: Sequence[AnyPath]) -> str:
    """The KB's content version (:func:`iosched.kbfiles.content_version`), read from :data:`VERSIONS` when
    every file is as it was then (name, size, inode, modification and change times), so that an unchanged
    KB is not read byte by byte on every command."""
    layers = [scan(d) for d in directories]
    key, newest = identity(layers)
    path = os.path.join(cache_dir(), VERSIONS)
    known = _versions(path)
    found = known.get(key)
    if found is not None:
        return found
    version = version_of(layers)
    if time.time_ns() - newest > SETTLED_NS:
        kept = dict(list(known.items())[-(_KEEP_VERSIONS - 1) :])
        _write_private(path, json.dumps({**kept, key: version}))
    return version


def _versions(path: str) -> dict[str, str]:
    """The remembered versions; only hex digests are taken (a version names the cache file)."""
    if not trusted(path):
        return {}
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read(64 * 1024))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if _hex(k, 32) and isinstance(v, str) and _hex(v, 16)}


def _hex(text: str, length: int) -> bool:
    return len(text) == length and all(c in "0123456789abcdef" for c in text)


def layers(extra: Sequence[AnyPath] | None = None) -> list[AnyPath]:
    return [bundled_kb(), *(extra or [])]


def load_checked(extra: Sequence[AnyPath] | None = None) -> Kb:
    """The bundled KB with ``extra`` layers over it; raises KbInvalid when any check fails."""
    directories = layers(extra)
    if any(not os.path.isdir(d) for d in directories):
        from iosched import kbload

        raise KbInvalid(kbload.load(directories)[1])
    path = path_for(directories)
    return read(path, lambda: rebuild(directories, path)) or rebuild(directories, path)


def rebuild(directories: Sequence[AnyPath], path: AnyPath) -> Kb:
    """The KB loaded from its YAML and checked, stored at ``path``; raises KbInvalid when a check fails."""
    from iosched import kbload

    checked, diagnostics = kbload.load(directories)
    if diagnostics:
        raise KbInvalid(diagnostics)
    write(path, checked)
    return checked


# ------------------------------------------------------------------------------------------ plain data


def to_plain(value: Any) -> Any:
    """A KB value as JSON data: Structs tagged with their class name (fields at their default left out: the
    class holds them), kernel versions as tagged strings."""
    if isinstance(value, Struct):
        cls = type(value)
        kept = {n: to_plain(v) for n, v in value.fields() if n in cls.__required__ or v != getattr(cls, n)}
        return {_TYPE: cls.__name__, **kept}
    if isinstance(value, KernelVersion):
        return {_KERNEL: list(value)}
    if isinstance(value, tuple | list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


SCHEMA_MODULES = ("iosched.model", "iosched.rules")
"""Where the KB's Structs are declared: the cache revives classes of these modules only, by name."""


def _struct_classes() -> dict[str, type[Struct]]:
    found: dict[str, type[Struct]] = {}
    stack: list[type[Struct]] = [Struct]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__ in SCHEMA_MODULES and found.setdefault(cls.__name__, cls) is not cls:
            raise TypeError(f"two KB Structs are named {cls.__name__}")
    return found


def _reviver() -> Callable[[dict[str, Any]], Any]:
    """A ``json.loads`` object hook: tagged objects back into Structs (as :meth:`Struct.build` makes them, with
    lists inside them made tuples), tagged kernel versions into KernelVersions. A closure over what it reads,
    as it runs for every object of a section."""
    schema = {name: (cls, cls.__required__, frozenset(cls.__fields__)) for name, cls in _struct_classes().items()}
    new = object.__new__
    set_attribute = object.__setattr__

    def revive(obj: dict[str, Any]) -> Any:
        name = obj.pop(_TYPE, None)
        if name is not None:
            cls, required, fields = schema[name]
            if not required <= obj.keys() <= fields:
                raise ValueError(f"cached {name} has other fields than the schema")
            for key, value in obj.items():
                if type(value) is list:
                    obj[key] = tuple(value)
            found = new(cls)
            set_attribute(found, "__dict__", obj)
            return found
        if _KERNEL in obj:
            return KernelVersion(*obj[_KERNEL])
        return obj

    return revive


_HEAD = '{"index":'
_ORIGINS = ',"origins":'
_SECTIONS = ',"sections":{'


def _json(value: Any) -> str:
    """Compact JSON in ASCII: the few characters beyond it are escaped, so that the file decodes and its
    sections slice as one-byte text (a string with one such character costs every slice twice the memory)."""
    return json.dumps(value, separators=(",", ":"))


def dumps(kb: Kb) -> str:
    """The cache file's text for ``kb``: one JSON document, ``{"index": ..., "origins": ..., "sections": ...}``,
    whose index (version, the length of the origins' text, the section of each id, where each section's text
    starts and ends, where each entity's text starts) lets a command rebuild only the sections it reads, a
    lookup only the entity it names, and read where each entity came from only when it reports that."""
    pieces: list[str] = []
    spans: dict[str, list[int]] = {}
    at: dict[str, int] = {}
    offset = 0
    for name, entities in kb.sections.items():
        key = ("," if pieces else "") + _json(name) + ":"
        texts = [_json(to_plain(entity)) for entity in entities]
        value = "[" + ",".join(texts) + "]"
        start = offset + len(key)
        spans[name] = [start, start + len(value)]
        position = start + 1
        for entity, text in zip(entities, texts, strict=True):
            at[entity.id] = position
            for tunable in entity.tunables if name == "elevators" else ():
                at[f"{entity.id}.{tunable.name}"] = position
            position += len(text) + 1
        pieces.append(key + value)
        offset = start + len(value)
    origins = _json(dict(kb.origins))
    index = {"version": kb.version, "origins": len(origins), "where": kb.id_sections(), "at": at, "spans": spans,
             "rules": _rules(kb), "caveats": _caveats(kb)}  # fmt: skip
    return _HEAD + _json(index) + _ORIGINS + origins + _SECTIONS + "".join(pieces) + "}}"


def _rules(kb: Kb) -> list[list[Any]]:
    """Each rule's id, name and guard (:func:`iosched.rules.guard`, as ``[fact, operator, operand]`` lists), in KB
    order."""
    return [[rule.id, rule.name, [[c.fact, *to_plain(c.operation)] for c in guard(rule.when)]]
            for rule in kb.section("rules")]  # fmt: skip


def _caveats(kb: Kb) -> list[list[Any]]:
    """Each caveat's id, the distributions its scope names and its related ids, in KB order."""
    return [list(scope) for scope in kb.caveat_scopes()]


def from_plain(text: str | bytes, rebuild: Callable[[], Kb] | None = None) -> Kb:
    """The KB in a cache file's text; each section is rebuilt when first read, and a section that cannot be
    read gives way to ``rebuild()`` (the KB from its YAML). ValueError when the text is not a cache file."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if not text.startswith(_HEAD):
        raise ValueError("not a KB cache file")
    index, end = json.JSONDecoder().raw_decode(text, len(_HEAD))
    if not (isinstance(index, dict) and type(index.get("origins")) is int and text.startswith(_ORIGINS, end)):
        raise ValueError("not a KB cache file")
    start = end + len(_ORIGINS)
    end = start + index["origins"]
    if not text.startswith(_SECTIONS, end):
        raise ValueError("not a KB cache file")
    base = end + len(_SECTIONS)  # the sections' text, read in place: a copy of it costs start-up time
    version, where, at, spans = _checked_index(index, len(text) - len("}}") - base)
    sections = LazySections(text, spans, rebuild, at, base)
    origins = LazyOrigins(text[start:end], rebuild)
    queries = IndexQueries(where, index.get("rules"), index.get("caveats"))
    return Kb(sections=sections, origins=origins, version=version, where=where, entity=sections.entity,
              queries=queries)  # fmt: skip


def _checked_index(index: dict[str, Any], size: int) -> _Index:
    """The version, where, at and spans of a cache file's index, when each has its shape: every section of
    the KB spanned within the ``size`` characters of the sections, every id in one of them. ValueError else,
    so a damaged index gives way to the YAML as a damaged section does. Where each entity starts (``at``) is
    checked when an entity is read by itself; an entity it does not place is read with its section."""
    version, where, at, spans = (index.get(key) for key in ("version", "where", "at", "spans"))
    if not (isinstance(version, str) and _texts(where) and isinstance(at, dict) and isinstance(spans, dict)):
        raise ValueError("damaged KB cache index")
    if spans.keys() != BY_SECTION.keys() or not set(where.values()) <= spans.keys():
        raise ValueError("damaged KB cache index")
    for span in spans.values():
        if not (isinstance(span, list) and len(span) == 2 and all(type(n) is int for n in span)
                and 0 <= span[0] <= span[1] <= size):  # fmt: skip
            raise ValueError("damaged KB cache index")
    return version, where, at, spans


def _texts(value: object) -> TypeGuard[dict[str, str]]:
    """Whether ``value`` is a mapping of strings to strings."""
    return isinstance(value, dict) and {*map(type, value), *map(type, value.values())} <= {str}


class IndexQueries:
    """What the index answers without rebuilding a section: which rules may fire on some facts (those whose
    guard holds), the rule of a name, and each caveat's scope and related ids. Each answer is None where that
    part of the index is damaged (the caller then reads the section)."""

    def __init__(self, where: dict[str, str], rules: object, caveats: object) -> None:
        self._where = where
        self._rules = rules
        self._caveats = caveats
        self._guards: dict[str, list[tuple[str, str, Any]]] | None = None
        self._names: dict[str, str] | None = None

    def _ids(self, section: str) -> list[str]:
        return [ident for ident, name in self._where.items() if name == section]

    def _read_rules(self) -> bool:
        """Whether the rules' part of the index has its shape: ``[id, name, guard]`` for every rule, in KB order."""
        if self._guards is None:
            rules = self._rules
            try:
                if not (isinstance(rules, list) and [entry[0] for entry in rules] == self._ids("rules")):
                    return False
                self._guards = {ident: [_term(t) for t in terms] for ident, _, terms in rules}
                self._names = {name: ident for ident, name, _ in rules if type(name) is str}
            except (ValueError, TypeError, KeyError):
                self._rules = None
                return False
        return True

    def rules_that_may_fire(self, facts: Mapping[str, Any]) -> list[str] | None:
        """The ids of the rules whose guard (:func:`iosched.rules.guard`) holds on ``facts``, in KB order."""
        if not self._read_rules() or self._guards is None:
            return None
        try:
            return [ident for ident, terms in self._guards.items() if all(compares(facts, *t) for t in terms)]
        except (ValueError, TypeError):
            return None

    def rule_named(self, name: str) -> str | None:
        """The id of the rule called ``name``; "" when no rule is, None when the index cannot say."""
        if not self._read_rules() or self._names is None or len(self._names) != len(self._guards or ()):
            return None
        return self._names.get(name, "")

    def caveat_scopes(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]] | None:
        """Each caveat's id, the distributions its scope names and its related ids, in KB order."""
        caveats = self._caveats
        if not (isinstance(caveats, list) and all(isinstance(c, list) and len(c) == 3 for c in caveats)):
            return None
        found = [(ident, tuple(distributions), tuple(related)) for ident, distributions, related in caveats
                 if isinstance(distributions, list) and isinstance(related, list)]  # fmt: skip
        texts = {type(i) for _, d, r in found for i in (*d, *r)} <= {str}
        return found if texts and [c[0] for c in found] == self._ids("caveats") else None


def _term(term: object) -> tuple[str, str, Any]:
    """A guard's comparison, ``[fact, operator, operand]``, with a list operand made a tuple; ValueError when it
    is not one."""
    if not (isinstance(term, list) and len(term) == 3 and type(term[0]) is str and term[1] in OPERATORS):
        raise ValueError("damaged rule guard")
    fact, op, operand = term
    if type(operand) is list:
        operand = tuple(operand)
    if not all(type(v) in (bool, int, float, str) for v in (operand if type(operand) is tuple else (operand,))):
        raise ValueError("damaged rule guard")
    return fact, op, operand


class LazySections(Mapping[str, tuple[object, ...]]):
    """The KB's sections, each rebuilt from its JSON text on first use (a command reads a few of twenty).
    ``spans`` and ``at`` count from ``base`` in ``text`` (where the sections start in a cache file)."""

    def __init__(self, text: str, spans: dict[str, list[int]], rebuild: Callable[[], Kb] | None = None,
                 at: Mapping[str, Any] | None = None, base: int = 0) -> None:  # fmt: skip
        self._text = text
        self._base = base
        self._spans = spans
        self._rebuild = rebuild
        self._at = at or {}
        self._built: dict[str, tuple[Any, ...]] = {}
        self._revive: Callable[[dict[str, Any]], Any] | None = None

    def __getitem__(self, name: str) -> tuple[Any, ...]:
        built = self._built.get(name)
        if built is None:
            start, end = self._spans[name]
            self._revive = self._revive or _reviver()
            try:
                built = tuple(json.loads(self._text[self._base + start : self._base + end], object_hook=self._revive))
                if any(type(entity) is not BY_SECTION[name].schema for entity in built):
                    raise ValueError(f"the cached {name} section holds other entities")
            except (ValueError, KeyError, TypeError, RecursionError):
                if self._rebuild is None:
                    raise
                self._built = dict(self._rebuild().sections)
                return self._built[name]
            self._built[name] = built
        return built

    def entity(self, section: str, ident: str) -> Any | None:
        """The entity of ``section`` whose text the index places at ``ident`` (an elevator, for one of its
        tunables), rebuilt alone; None when the section is built already, or the index does not place it
        where an entity of that section is (the caller then reads the whole section, which is checked)."""
        start = self._at.get(ident)
        first, last = self._spans[section]
        if section in self._built or type(start) is not int or not first < start < last:
            return None
        self._revive = self._revive or _reviver()
        try:
            found, end = json.JSONDecoder(object_hook=self._revive).raw_decode(self._text, self._base + start)
        except (ValueError, KeyError, TypeError, RecursionError):
            return None
        return found if end - self._base < last and type(found) is BY_SECTION[section].schema else None

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


class LazyOrigins(Mapping[str, str]):
    """Where each entity came from (``file:line``), read from its JSON text on first use: only ``kb check``
    reports it."""

    def __init__(self, text: str, rebuild: Callable[[], Kb] | None = None) -> None:
        self._text = text
        self._rebuild = rebuild
        self._read: Mapping[str, str] | None = None

    def _origins(self) -> Mapping[str, str]:
        if self._read is None:
            try:
                found = json.loads(self._text)
            except (ValueError, RecursionError):
                found = None
            if not _texts(found):
                if self._rebuild is None:
                    raise ValueError("damaged origins in the KB cache")
                found = self._rebuild().origins
            self._read = found
        return self._read

    def __getitem__(self, ident: str) -> str:
        return self._origins()[ident]

    def __iter__(self) -> Iterator[str]:
        return iter(self._origins())

    def __len__(self) -> int:
        return len(self._origins())


# ------------------------------------------------------------------------------------------ files


def trusted(path: AnyPath) -> bool:
    """A regular file owned by us, in a directory owned by us or root that no one else may write to."""
    try:
        st = os.lstat(path)
        parent = os.stat(os.path.dirname(path) or ".")
    except OSError:
        return False
    euid = os.geteuid()
    if not stat.S_ISREG(st.st_mode) or st.st_uid != euid or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    shared = parent.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return parent.st_uid in (euid, 0) and (not shared or bool(parent.st_mode & stat.S_ISVTX))


def read(path: AnyPath, rebuild: Callable[[], Kb] | None = None) -> Kb | None:
    """The cached KB at ``path``; None when absent, untrusted or unreadable (the caller rebuilds it). A
    section found damaged later gives way to ``rebuild()``."""
    if not trusted(path):
        return None
    try:
        with open(path, "rb") as fh:
            return from_plain(fh.read(), rebuild)
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def write(path: AnyPath, kb: Kb) -> None:
    """Store ``kb`` at ``path`` atomically, private to the user, and remove older cache files beside it."""
    if _write_private(path, dumps(kb)):
        _evict(path)


def _write_private(path: AnyPath, text: str) -> bool:
    """Write ``text`` to ``path`` atomically, in a directory private to the user; False when that failed."""
    import contextlib  # like tempfile, only for writing: a command that reads the cache needs neither
    import tempfile

    directory = os.path.dirname(path) or "."
    with contextlib.suppress(OSError):
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".kb-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
            return True
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return False


def _evict(keep: AnyPath, most: int = 8) -> None:
    """Keep the ``most`` newest cache files of this user (one per KB layering in use), ``keep`` among them."""
    import contextlib

    directory = os.path.dirname(keep) or "."
    names = [n for n in os.listdir(directory) if n.startswith(PREFIX)]
    mine = [p for p in (os.path.join(directory, n) for n in names) if p != os.fspath(keep) and trusted(p)]
    mine.sort(key=os.path.getmtime, reverse=True)
    for old in mine[most - 1 :]:
        with contextlib.suppress(OSError):
            os.unlink(old)
