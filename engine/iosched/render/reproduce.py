"""The command that gives a plan again, which every format names, and which runs as written.

A plan from flags, a context file or an example is reproduced by its context as ``iosched advise`` flags (one
flag per context field, each value one shell word: :func:`advise_command`). A plan of an observed host depends on
what was read (the device's current values, the other tuners), so it is reproduced by reading the host again:
``iosched advise --probe`` or ``--root DIR`` with the user's own flags (:func:`host_command`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from iosched.escape import sh_word

FLAG = {"symptoms": "--symptom"}
"""Context fields whose flag is not ``--`` + the field with dashes."""


def _command(words: Iterable[str]) -> str:
    return " ".join(sh_word(w) for w in words)


def _flag(field: str) -> str:
    return FLAG.get(field, "--" + field.replace("_", "-"))


def advise_command(context: Mapping[str, str], more: Iterable[str] = ()) -> str:
    """``iosched advise`` with the flags that give the plan of ``context`` (and ``more``: ``--results F``)."""
    return _command(["iosched", "advise", *(w for k, v in context.items() for w in (_flag(k), str(v))), *more])


def host_command(where: Iterable[str], user: Mapping[str, str | None], more: Iterable[str] = ()) -> str:
    """``iosched advise`` reading the host again (``where``: ``--probe``, or ``--root DIR``, or ``--context
    PROBE.json``) with the fields the user gave (and ``more``)."""
    given = [w for k, v in user.items() if v is not None for w in (_flag(k), str(v))]
    return _command(["iosched", "advise", *where, *given, *more])
