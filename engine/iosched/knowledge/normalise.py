"""Input as people type it, mapped to the KB's ids in one place, and a "did you mean" for every vocabulary.

Every value is case folded and compared with spaces, dots, dashes and underscores dropped (``Ubuntu 22.04``,
``ubuntu22.04`` and ``Ubuntu2204`` are ``ubuntu2204``; ``SLES 15 SP5`` and ``sles15-sp5`` are ``sles15sp5``);
a device name loses its ``/dev/``; a distribution may also be named as ``/etc/os-release`` spells it (``rhel 9.4``,
``Red Hat Enterprise Linux 9.4``, ``Rocky 9.3``) and maps to the KB's release the way a probed host does; a
workload may be named by one of its synonyms (KB data: ``postgres`` is ``db``). Distribution ids, workloads and
synonyms are read from the KB, never listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_DROPPED = str.maketrans("", "", " \t._-")


def close_matches(word: str, names: Iterable[str], n: int = 3) -> list[str]:
    """The names closest to a word the KB does not know (``explain`` and every vocabulary use this one)."""
    import difflib

    return difflib.get_close_matches(word, list(names), n=n, cutoff=0.6)


def unknown(kind: str, value: str, valid: Sequence[str], also: Iterable[str] = ()) -> str:
    """The one-line error for a value outside a vocabulary: a "did you mean" when one is close (among the valid
    and ``also``, the other spellings accepted), then the valid."""
    names = [*valid, *also]
    close = close_matches(fold(value), names) or close_matches(squash(value), names)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    shown = ", ".join(valid) if len(valid) <= 30 else ", ".join(valid[:30]) + ", ..."
    return f"unknown {kind} {value!r}{hint}; valid: {shown}"


def fold(text: str) -> str:
    return text.strip().lower()


def squash(text: str) -> str:
    """``Ubuntu 22.04`` -> ``ubuntu2204``: case folded, without spaces, dots, dashes and underscores."""
    return text.lower().translate(_DROPPED)


def device(text: str) -> str:
    """A kernel device name as typed: ``/dev/sda`` and ``SDA`` are ``sda``."""
    return fold(text).removeprefix("/dev/")


def choice(value: str, valid: Iterable[str], synonyms: Mapping[str, str] | None = None) -> str | None:
    """The member of ``valid`` that ``value`` spells (or the one its synonym stands for), else None."""
    names = list(valid)
    if value in names:
        return value
    wanted = squash(value)
    table = {squash(name): name for name in names} | {squash(k): v for k, v in (synonyms or {}).items()}
    return table.get(wanted)


def option(kind: str, valid: Sequence[str]) -> Callable[[str], str]:
    """An argparse ``type`` for a closed vocabulary: the spelling folded, or a usage error with a "did you mean"."""
    import argparse

    def parse(text: str) -> str:
        found = choice(text, valid)
        if found is None:
            raise argparse.ArgumentTypeError(unknown(kind, text, valid))
        return found

    parse.__name__ = kind
    return parse


def workload_synonyms(workloads: Iterable[Any]) -> dict[str, str]:
    """Synonym -> workload id, from the KB's workloads."""
    return {synonym: w.id for w in workloads for synonym in w.synonyms}


def workload_spellings(workloads: Iterable[Any]) -> dict[str, str]:
    """Every name a workload is accepted by (its id and its synonyms) -> its id."""
    workloads = list(workloads)
    return {w.id: w.id for w in workloads} | workload_synonyms(workloads)


def spelt(value: str, spellings: Mapping[str, str]) -> str | None:
    """The id ``value`` names in a table of spellings -> id (see :func:`workload_spellings`), else None."""
    return spellings.get(value) or choice(value, sorted(set(spellings.values())), spellings)


def distribution(text: str, distributions: Callable[[], Iterable[Any]], ids: Sequence[str]) -> str | None:
    """The KB distribution id that ``text`` names: an id however spelt, or a name and version as people and
    os-release write them (mapped to a release as for a probed host: ``rhel 9.4`` is ``rhel9``); else None.
    ``distributions`` gives the KB's entries (read only when the id alone does not settle it)."""
    found = choice(text, ids)
    if found is not None:
        return found
    import re

    parsed = re.fullmatch(r"([a-z][a-z /_-]*?)[ _-]*(\d+(?:\.\d+)*)(?:[ _-]*sp[ _-]*(\d+))?(?:[ (].*)?", fold(text))
    if parsed is None:
        return None
    name, version, pack = parsed.groups()
    version_id = f"{version}.{pack}" if pack else version
    from iosched.observe.classify import distro_id
    from iosched.observe.distro import ANSIBLE_IDS, REDHAT_NAME_IDS

    prefixes = {squash(k): v for k, v in (ANSIBLE_IDS | REDHAT_NAME_IDS).items()}
    for entry in distributions():
        title, ident = re.match(r"\D+", entry.name), re.match(r"[a-z-]+", entry.id)
        if title and ident:
            prefixes.setdefault(squash(title.group()), ident.group())
    candidates = dict.fromkeys([name.strip().replace(" ", "-"), prefixes.get(squash(name), "")])
    for ident in filter(None, candidates):
        if (hit := distro_id({"ID": ident, "VERSION_ID": version_id}, ids)) is not None:
            return hit
    return None
