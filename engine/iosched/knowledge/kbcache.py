"""A compiled cache of the checked KB, so everyday commands skip YAML parsing and validation.

The cache is plain JSON data, never code: loading it can only rebuild KB Structs of the schema modules, by
name, from strings, numbers and lists, and each section is rebuilt only when a command first reads it; its
index names the rules a plan may fire, the caveats it may show and what each elevator is, so that a plan
rebuilds only those (:class:`IndexQueries`). It is
keyed by the KB's content (a hash of every file; the hash of an unchanged KB is remembered by its files'
identity, see :func:`remembered_version`), read only when it is a regular file owned by the effective user in
a directory that no other user can write to, and older cache files are removed when a new one is written.
"""

from __future__ import annotations

import os
import time
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence

from iosched import __version__
from iosched.errors import KbInvalid
from iosched.jsontext import Decoder, loads
from iosched.kbfiles import (
    HEAD,
    INDEX,
    KERNEL_TAG,
    PREFIX,
    SECTIONS,
    TYPE_TAG,
    AnyPath,
    bundled_kb,
    cache_dir,
    identity,
    scan,
    trusted,
    version_of,
)  # fmt: skip
from iosched.kernel import KernelVersion
from iosched.knowledge.base import Kb
from iosched.knowledge.kinds import BY_SECTION
from iosched.knowledge.rules import compares
from iosched.struct import Struct
from iosched.vocab import OPERATORS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeGuard

    from iosched.knowledge.base import ElevatorFacts

FORMAT = 9
"""In every cache file's name: raised when the format or what a valid KB is changes, so that no cache written
under older rules is served (6: the index gives where each entity's text is, so a lookup rebuilds one entity;
7: each rule's name and guard and each caveat's scope, so a plan rebuilds only the rules and caveats it may need;
8: each section's ids as one text, and the parts after the index decoded only when read; 9: each elevator's
path, kernel range and aliases, so a plan rebuilds only the elevator it sets)."""


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
        from iosched.knowledge.kbcompile import write_json

        write_json(path, {**kept, key: version})
    return version


def _versions(path: str) -> dict[str, str]:
    """The remembered versions; only hex digests are taken (a version names the cache file)."""
    if not trusted(path):
        return {}
    try:
        with open(path, "rb") as fh:
            data = loads(fh.read(64 * 1024))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if _hex(k, 32) and isinstance(v, str) and _hex(v, 16)}


def _hex(text: str, length: int) -> bool:
    return len(text) == length and not text.strip("0123456789abcdef")


def layers(extra: Sequence[AnyPath] | None = None) -> list[AnyPath]:
    return [bundled_kb(), *(extra or [])]


def load_checked(extra: Sequence[AnyPath] | None = None) -> Kb:
    """The bundled KB with ``extra`` layers over it; raises KbInvalid when any check fails."""
    directories = layers(extra)
    if any(not os.path.isdir(d) for d in directories):
        from iosched.knowledge import kbload

        raise KbInvalid(kbload.load(directories)[1])
    path = path_for(directories)
    return read(path, lambda: rebuild(directories, path)) or rebuild(directories, path)


def rebuild(directories: Sequence[AnyPath], path: AnyPath) -> Kb:
    """The KB loaded from its YAML and checked, stored at ``path``; raises KbInvalid when a check fails."""
    from iosched.knowledge import kbload

    checked, diagnostics = kbload.load(directories)
    if diagnostics:
        raise KbInvalid(diagnostics)
    from iosched.knowledge.kbcompile import write

    write(path, checked)
    return checked


SCHEMA_MODULES = ("iosched.knowledge.schema", "iosched.knowledge.rules", "iosched.knowledge.catalogue")
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
    """An object hook of :class:`iosched.jsontext.Decoder`: tagged objects back into Structs (as
    :meth:`Struct.build` makes them, with lists inside them made tuples), tagged kernel versions into
    KernelVersions. A closure over what it reads, as it runs for every object of a section."""

    def classes() -> dict[str, tuple[type[Struct], frozenset[str], frozenset[str]]]:
        return {name: (cls, cls.__required__, frozenset(cls.__fields__)) for name, cls in _struct_classes().items()}

    schema = classes()
    new = object.__new__
    set_attribute = object.__setattr__

    def revive(obj: dict[str, Any]) -> Any:
        name = obj.pop(TYPE_TAG, None)
        if name is not None:
            if (
                name not in schema
            ):  # a class of a schema module no command had imported yet (iosched.knowledge.catalogue)
                for module in SCHEMA_MODULES:
                    __import__(module)
                schema.update(classes())
            cls, required, fields = schema[name]
            if not required <= obj.keys() <= fields:
                raise ValueError(f"cached {name} has other fields than the schema")
            for key, value in obj.items():
                if type(value) is list:
                    obj[key] = tuple(value)
            found = new(cls)
            set_attribute(found, "__dict__", obj)
            return found
        if KERNEL_TAG in obj:
            return KernelVersion(*obj[KERNEL_TAG])
        return obj

    return revive


DAMAGE = Exception
"""What reading a cache file's text may raise. Any error, not only those the decoder documents (a span in the
wrong place has been seen to raise SystemError), gives way to the KB's YAML, which is checked."""
PARTS = ("rules", "caveats", "elevators", "origins")
"""The parts of a cache file between its index and its sections, each decoded only when a command reads it: each
rule's name and guard, each caveat's scope, each elevator's path, kernel range and aliases, where each entity
came from."""


def from_plain(data: str | bytes, rebuild: Callable[[], Kb] | None = None) -> Kb:
    """The KB in a cache file's text; each section is rebuilt when first read, and a section that cannot be
    read gives way to ``rebuild()`` (the KB from its YAML). ValueError when the text is not a cache file.
    Only the index is decoded here: the rest is read in place, as bytes (a copy of it costs start-up time)."""
    if isinstance(data, str):
        data = data.encode()
    comma = data.find(b",", len(HEAD), len(HEAD) + 12)
    size = data[len(HEAD) : comma]
    if not (data.startswith(HEAD) and size.isdigit() and data.startswith(INDEX, comma + 1)):
        raise ValueError("not a KB cache file")
    end = int(size)
    index = loads(data[comma + 1 + len(INDEX) : end])
    lengths = index.get("parts") if isinstance(index, dict) else None
    if not (isinstance(lengths, dict) and list(lengths) == list(PARTS)):
        raise ValueError("not a KB cache file")
    parts: dict[str, bytes] = {}
    for name, length in lengths.items():
        key = f',"{name}":'.encode()
        if type(length) is not int or length < 0 or not data.startswith(key, end):
            raise ValueError("not a KB cache file")
        parts[name] = data[end + len(key) : end + len(key) + length]
        end += len(key) + length
    if not data.startswith(SECTIONS, end):
        raise ValueError("not a KB cache file")
    base = end + len(SECTIONS)
    version, places = _checked_index(index, len(data) - len("}}") - base)
    sections = LazySections(data, places.spans, rebuild, places, base)
    origins = LazyOrigins(parts["origins"], rebuild)
    queries = IndexQueries(places, parts)
    return Kb(sections=sections, origins=origins, version=version, where=places, entity=sections.entity,
              queries=queries)  # fmt: skip


def _checked_index(index: dict[str, Any], size: int) -> tuple[str, Places]:
    """The version and places of a cache file's index, when each has its shape: every section of the KB
    spanned within the ``size`` characters of the sections, with its ids and where each entity starts. ValueError
    else, so a damaged index gives way to the YAML as a damaged section does. Where an entity starts is checked
    when it is read by itself; an entity it does not place is read with its section."""
    version, spans, places = (index.get(key) for key in ("version", "spans", "places"))
    if not (isinstance(version, str) and isinstance(spans, dict) and isinstance(places, dict)):
        raise ValueError("damaged KB cache index")
    if list(spans) != list(BY_SECTION) or list(places) != list(spans):
        raise ValueError("damaged KB cache index")
    for span in spans.values():
        if not (isinstance(span, list) and len(span) == 2 and all(type(n) is int for n in span)
                and 0 <= span[0] <= span[1] <= size):  # fmt: skip
            raise ValueError("damaged KB cache index")
    for ids, starts in places.values():
        if not (type(ids) is str and ids[:1] == ids[-1:] == " " and isinstance(starts, list)
                and ids.count(" ") == len(starts) + 1):  # fmt: skip
            raise ValueError("damaged KB cache index")
    return version, Places(spans, places)


def _texts(value: object) -> TypeGuard[dict[str, str]]:
    """Whether ``value`` is a mapping of strings to strings."""
    return isinstance(value, dict) and {*map(type, value), *map(type, value.values())} <= {str}


class Places(Mapping[str, str]):
    """Each id of the KB to the section it lives in, and where its entity's text starts (an elevator's, for a
    tunable), from each section's ids (one text of words) and starts in the index. A lookup finds the section
    whose text has the id as a word, and makes a table of that section's ids (a command looks up ids of a few
    sections: a table of every id costs more than the searches)."""

    def __init__(self, spans: dict[str, list[int]], places: dict[str, list[Any]]) -> None:
        self.spans = spans
        self._places = places
        self._tables: dict[str, dict[str, Any]] = {}
        self._absent: set[str] = set()

    def _table(self, section: str) -> dict[str, Any]:
        """The ids of ``section`` to where each entity starts."""
        table = self._tables.get(section)
        if table is None:
            ids, starts = self._places[section]
            table = self._tables[section] = dict(zip(ids.split(), starts, strict=False))
        return table

    def _section(self, ident: str) -> str | None:
        for section, table in self._tables.items():
            if ident in table:
                return section
        if ident in self._absent or not ident or " " in ident:
            return None
        word = f" {ident} "
        for section, (ids, _) in self._places.items():
            if section not in self._tables and word in ids:
                self._table(section)
                return section
        self._absent.add(ident)
        return None

    def get(self, ident: str, default: Any = None) -> Any:
        section = self._section(ident)
        return default if section is None else section

    def extent(self, ident: str) -> tuple[int, int] | None:
        """Where the index says the text of the entity of ``ident`` starts and ends: up to the next entity of its
        section (the reader checks what it finds there)."""
        section = self._section(ident)
        start = self._tables[section].get(ident) if section is not None else None
        if section is None or type(start) is not int:
            return None
        starts = self._places[section][1]
        try:
            after = bisect_right(starts, start)
        except TypeError:
            return None
        return start, (starts[after] if after < len(starts) else self.spans[section][1]) - 1

    def ids(self, section: str) -> list[str]:
        """The ids of ``section`` in KB order (an elevator's tunables after it)."""
        return list(self._table(section))

    def count(self, section: str) -> int:
        """How many entities the index places in ``section`` (an elevator's tunables start where it does)."""
        return len(set(self._places[section][1]))

    def __getitem__(self, ident: str) -> str:
        section = self._section(ident)
        if section is None:
            raise KeyError(ident)
        return section

    def __iter__(self) -> Iterator[str]:
        for section in self._places:
            yield from self._table(section)

    def __len__(self) -> int:
        return sum(len(starts) for _, starts in self._places.values())


class IndexQueries:
    """What the index answers without rebuilding a section: which rules may fire on some facts (those whose
    guard holds), the rule of a name, each caveat's scope and related ids, each elevator's path, kernel range
    and aliases. Each part is decoded on first use; an answer is None where
    its part is damaged (the caller then reads the section)."""

    def __init__(self, places: Places, parts: Mapping[str, bytes]) -> None:
        self._places = places
        self._parts = parts
        self._read: dict[str, Any] = {}

    def _part(self, name: str, read: Callable[[Any], Any]) -> Any:
        """Part ``name`` decoded and made an answer by ``read`` (which raises ValueError where the part does not
        have its shape), once; None where it is damaged."""
        if name not in self._read:
            try:
                self._read[name] = read(loads(self._parts[name]))
            except DAMAGE:
                self._read[name] = None
        return self._read[name]

    def _rows(self, section: str, rows: object) -> list[Any]:
        """The rows of a part that lists each entity of ``section``, id first, in KB order; ValueError else."""
        if not (isinstance(rows, list) and all(type(row) is list for row in rows)):
            raise ValueError(f"damaged {section} part")
        if [row[0] for row in rows] != self._places.ids(section):
            raise ValueError(f"damaged {section} part")
        return rows

    def _rules(self) -> tuple[dict[str, list[tuple[str, str, Any]]], dict[str, str]] | None:
        """Each rule's guard, and the id of each rule's name (``[id, name, guard]`` in the part)."""

        def read(rules: object) -> tuple[dict[str, list[tuple[str, str, Any]]], dict[str, str]]:
            rows = self._rows("rules", rules)
            names = {name: ident for ident, name, _ in rows}
            if len(names) != len(rows) or not all(type(name) is str for name in names):
                raise ValueError("damaged rules part")
            return {ident: [_term(t) for t in terms] for ident, _, terms in rows}, names

        found: tuple[dict[str, list[tuple[str, str, Any]]], dict[str, str]] | None = self._part("rules", read)
        return found

    def rules_that_may_fire(self, facts: Mapping[str, Any]) -> list[str] | None:
        """The ids of the rules whose guard (:func:`iosched.knowledge.rules.guard`) holds on ``facts``, in KB order."""
        rules = self._rules()
        if rules is None:
            return None
        try:
            return [ident for ident, terms in rules[0].items() if all(compares(facts, *t) for t in terms)]
        except DAMAGE:
            return None

    def rule_named(self, name: str) -> str | None:
        """The id of the rule called ``name``; "" when no rule is, None when the index cannot say."""
        rules = self._rules()
        return None if rules is None else rules[1].get(name, "")

    def caveat_scopes(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]] | None:
        """Each caveat's id, the distributions its scope names and its related ids, in KB order."""

        def read(caveats: object) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
            return [(ident, _words(distributions), _words(related))
                    for ident, distributions, related in self._rows("caveats", caveats)]  # fmt: skip

        found: list[tuple[str, tuple[str, ...], tuple[str, ...]]] | None = self._part("caveats", read)
        return found

    def elevator_facts(self) -> list[ElevatorFacts] | None:
        """Each elevator's name, I/O path, kernel range and aliases, in KB order."""
        found: list[ElevatorFacts] | None = self._part("elevators", self._read_elevators)
        return found

    def _read_elevators(self, entries: object) -> list[ElevatorFacts]:
        if not (isinstance(entries, list) and len(entries) == self._places.count("elevators")):
            raise ValueError("damaged elevators part")
        found: list[ElevatorFacts] = []
        for name, path, since, until, aliases in entries:
            versions = [KernelVersion(*v) if type(v) is list and {*map(type, v)} == {int} else v
                        for v in (since, until)]  # fmt: skip
            if not (type(name) is str and type(path) is str and all(v is None or type(v) is KernelVersion
                    for v in versions)):  # fmt: skip
                raise ValueError("damaged elevators part")
            found.append((name, path, versions[0], versions[1], _words(aliases)))
        names = [entry[0] for entry in found]
        if len(set(names)) != len(names) or not set(names) <= set(self._places.ids("elevators")):
            raise ValueError("damaged elevators part")
        return found


def _words(value: object) -> tuple[str, ...]:
    """A list of texts as a tuple; ValueError when it is not one."""
    if not (type(value) is list and {*map(type, value)} <= {str}):
        raise ValueError("damaged KB cache index part")
    return tuple(value)


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
    ``spans`` and ``places`` count from ``base`` in ``text`` (where the sections start in a cache file)."""

    def __init__(self, text: bytes, spans: dict[str, list[int]], rebuild: Callable[[], Kb] | None = None,
                 places: Places | None = None, base: int = 0) -> None:  # fmt: skip
        self._text = text
        self._base = base
        self._spans = spans
        self._rebuild = rebuild
        self._places = places
        self._built: dict[str, tuple[Any, ...]] = {}
        self._decoder: Decoder | None = None

    def _decode(self, start: int, end: int) -> Any:
        """The KB value whose text is at ``[start, end)`` from ``base``, with Structs revived (one decoder for
        every section and entity: making one per read costs more than a small entity's decoding)."""
        if self._decoder is None:
            self._decoder = Decoder(_reviver())
        return self._decoder(self._text[self._base + start : self._base + end].decode("ascii"))

    def __getitem__(self, name: str) -> tuple[Any, ...]:
        built = self._built.get(name)
        if built is None:
            try:
                built = tuple(self._decode(*self._spans[name]))
                if any(type(entity) is not BY_SECTION[name].schema for entity in built):
                    raise ValueError(f"the cached {name} section holds other entities")
            except DAMAGE:
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
        extent = self._places.extent(ident) if self._places is not None else None
        first, last = self._spans[section]
        if section in self._built or extent is None or not first < extent[0] < extent[1] < last:
            return None
        try:
            found = self._decode(*extent)
        except DAMAGE:
            return None
        return found if type(found) is BY_SECTION[section].schema else None

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


class LazyOrigins(Mapping[str, str]):
    """Where each entity came from (``file:line``), read from its JSON text on first use: only ``kb check``
    reports it."""

    def __init__(self, text: bytes, rebuild: Callable[[], Kb] | None = None) -> None:
        self._text = text
        self._rebuild = rebuild
        self._read: Mapping[str, str] | None = None

    def _origins(self) -> Mapping[str, str]:
        if self._read is None:
            try:
                found = loads(self._text)
            except DAMAGE:
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


def read(path: AnyPath, rebuild: Callable[[], Kb] | None = None) -> Kb | None:
    """The cached KB at ``path``; None when absent, untrusted or unreadable (the caller rebuilds it). A
    section found damaged later gives way to ``rebuild()``."""
    if not trusted(path):
        return None
    try:
        with open(path, "rb") as fh:
            return from_plain(fh.read(), rebuild)
    except DAMAGE:
        return None
