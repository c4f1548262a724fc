"""Facts a step reads on the machine when it runs: where the right value depends on one of them and the plan does
not know it, the plan carries each case and its value (:class:`~iosched.records.plan.Decision`), and the sh script, the
playbook, the udev rule, the Markdown and ``verify`` each decide on the machine.

A fact is one :class:`RuntimeFact`: the context field that states it, one context value per case, how the target
reads it (a sh function body, a udev match per case, a command a person runs) and which case an observed device
is in. The one shell library (:mod:`iosched.steps.shell`) carries every fact's reader; a step's value is then
the token ``FACT:VALUE:VALUE`` (:func:`token`), which the library turns into the value of the case the device is
in, or ``-`` where that case changes nothing.
"""

from __future__ import annotations

from iosched.records.plan import Decision
from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

KEEP = "-"
"""The value of a case in which the step changes nothing."""


class Case(Struct):
    """One case of a fact: its name, what a person sees when the device is in it, the context value that plans
    it, and the udev match that selects a device in it."""

    name: str
    seen: str
    context: str
    udev: str


class RuntimeFact(Struct):
    """A fact about a device that the target reads when a step runs."""

    id: str
    """The token's name and the plan's ``Decision.fact``."""
    field: str
    """The context field that states it (a plan whose context has it decides when it is made)."""
    rule: str
    """The warn rule that says the plan depends on it (said only where the cases differ)."""
    about: str
    reader: str
    """What a person runs to read it, ``DEV`` standing for the device."""
    cases: tuple[Case, ...]
    sh: str
    """The sh lines that print the case the device whose queue directory is ``$d_queue`` is in (fail: unknown)."""


QUEUES = RuntimeFact(
    id="queues",
    field="hw_queues",
    rule="IOS150",
    about="hardware queues",
    reader="ls /sys/block/DEV/mq/",
    cases=(
        Case(name="one", seen="one entry", context="1", udev='TEST!="%S%p/mq/1"'),
        Case(name="several", seen="several", context="several", udev='TEST=="%S%p/mq/1"'),
    ),
    sh=r"""d_n=$(ls "${d_queue%/queue}/mq" 2>/dev/null | grep -c '^[0-9][0-9]*$')
      if [ "$d_n" -gt 1 ]; then echo several; elif [ "$d_n" -eq 1 ]; then echo one; else exit 1; fi""",
)
"""blk-mq creates ``mq/N`` for each hardware queue (block/blk-mq-sysfs.c); SUSE's 60-io-scheduler.rules tells one
queue from several by ``TEST!="%S%p/mq/1"`` the same way."""

FACTS: dict[str, RuntimeFact] = {f.id: f for f in (QUEUES,)}


def undecided(context: Mapping[str, Any], facts: Mapping[str, Any]) -> RuntimeFact | None:
    """The fact this plan's scheduler depends on and does not know: the queue count of a blk-mq disk whose
    preset leaves it open (a virtual disk)."""
    if facts.get("io_path") == "blk-mq" and "hw.multiqueue" not in facts and context.get(QUEUES.field) is None:
        return QUEUES
    return None


def token(decision: Decision) -> str:
    """The value the shell library decides on the machine: ``queues:mq-deadline:none``."""
    return ":".join((decision.fact, *decision.values))


def case_of(decision: Decision, queues: int | None) -> int | None:
    """The index of the case a device with ``queues`` hardware queues (as read) is in; None when they were not
    read."""
    if decision.fact == QUEUES.id and queues:
        return 0 if queues == 1 else 1
    return None


def library() -> str:
    """The sh function ``decided FILE VALUE`` of the shell library: a token's value in the case the device is in."""
    arms = "".join(
        f"    {f.id}:*)\n      d_values=${{2#*:}}:\n"
        f"      d_case=$(d_queue=${{1%/*}}\n      {f.sh}\n      ) || return 1\n"
        f"      set -- {' '.join(c.name for c in f.cases)}\n"
        '      while [ "$1" != "$d_case" ]; do d_values=${d_values#*:}; shift; done\n'
        "      printf '%s' \"${d_values%%:*}\" ;;\n"
        for f in FACTS.values()
    )
    return (
        "# a value decided on the machine (iosched.records.runtime): FACT:VALUE:VALUE -> the case the device is in\n"
        f"decided() {{\n  case $2 in\n{arms}    *) printf '%s' \"$2\" ;;\n  esac\n}}\n"
    )
