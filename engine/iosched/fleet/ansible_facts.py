"""Read Ansible facts into one :class:`System` per host: the input of ``iosched fleet``.

``read_facts(path)`` takes a ``jsonfile`` (or ``yaml``) fact cache directory, an ``ansible -m setup --tree``
directory, one document, or a file of console output (see :mod:`iosched.fleet.ansible_docs` for the forms and
:mod:`iosched.fleet.ansible_system` for how each fact is read). Every host comes back as a :class:`HostFacts`,
with a System or with the one-line reason it could not be read; only an unreadable input as a whole raises
:class:`FactsError`. To spread a large cache over processes, map :func:`read_fact_file` over :func:`fact_files`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from iosched.escape import untrusted
from iosched.fleet.ansible_docs import (
    FactDoc,
    FactsError,
    documents,
    fact_files,
    fact_names,
    file_documents,
    not_a_document,
)
from iosched.fleet.ansible_system import named, system_shape
from iosched.records.system import System

__all__ = [
    "FactsError", "HostFacts", "fact_files", "fact_names", "host_facts", "host_shape", "iter_facts", "read_fact_file",
    "read_facts",
]  # fmt: skip


@dataclass(frozen=True)
class HostFacts:
    """One host of the input: its System, or why it could not be read (``error``, one terminal-safe line)."""

    name: str
    """The inventory hostname (the file name of a cache or tree file, the first word of a console header)."""
    source: str
    system: System | None = None
    error: str | None = None


def read_facts(path: Path, known_distros: Collection[str] = ()) -> list[HostFacts]:
    """Every host in a fact directory or file, in name order (directories) or file order (console output).

    ``known_distros`` are the KB's distribution ids; a release outside them gets ``host.distro`` None, and
    ``host.os_release`` still names it (:func:`iosched.observe.classify.classified` maps it to the same id).
    """
    return list(iter_facts(path, known_distros))


def iter_facts(path: Path, known_distros: Collection[str] = ()) -> Iterator[HostFacts]:
    """:func:`read_facts` one host at a time, for fleets too large to hold (a System takes a few KiB)."""
    for doc in documents(path):
        yield host_facts(doc, known_distros)


def read_fact_file(path: Path, known_distros: Collection[str] = ()) -> list[HostFacts]:
    """The host(s) of one file of a fact directory; symbolic links are refused like any non-regular file."""
    return [host_facts(doc, known_distros) for doc in file_documents(path, follow_symlinks=False)]


def host_facts(doc: FactDoc, known_distros: Collection[str] = ()) -> HostFacts:
    """A document's System, or its error; facts of a host that is not Linux are an error too."""
    shape, error = host_shape(doc, known_distros)
    if shape is None or doc.facts is None:
        return HostFacts(doc.name, doc.source, error=error)
    return HostFacts(doc.name, doc.source, system=named(shape, doc.facts, doc.source))


def host_shape(doc: FactDoc, known_distros: Collection[str] = ()) -> tuple[System | None, str | None]:
    """The System of a document's host without its hostname and source (:func:`system_shape`), or why there is
    none: no facts, or the facts of a host that is not Linux."""
    if doc.facts is None:
        return None, doc.error or "no facts"
    platform = doc.facts.get("ansible_system", "Linux")
    if doc.facts.get("ansible_os_family") == "Windows" or platform != "Linux":
        shown = "Windows" if platform == "Linux" else untrusted(platform, 40)
        return None, f"not a Linux host ({shown})"
    try:
        return system_shape(doc.facts, known_distros, doc.from_json), None
    except (ValueError, RecursionError) as exc:  # the devices' JSON text is not JSON after all
        return None, not_a_document(exc)
