"""The documents of the commands other than ``advise`` and ``verify``, as their renderers in
:mod:`iosched.render.formats` take them: kept apart so that a command pays for building only its own record
class (``advise`` builds none of these)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.diagnostics import Diagnostic
    from iosched.measure.measurements import Judgement
    from iosched.planning.fleetplan import Outcome, PlanSet, Summary
    from iosched.records.plan import Plan
    from iosched.records.system import System
    from iosched.symptoms.diagnosis import DeviceDiagnosis
    from iosched.symptoms.observations import Observed


class Probed(Struct):
    """A host as ``iosched probe`` read it."""

    system: System
    layout: str
    """What was read (``live``, ``sosreport``, ``supportconfig`` ...)."""


class Diagnosed(Struct):
    """What ``iosched diagnose`` found in its readings."""

    observed: Observed
    diagnoses: Sequence[DeviceDiagnosis]
    plans: Mapping[str, Plan | str]
    """Device -> the plan for the context its causes give, or a line saying how to get one."""


class FleetPlans(Struct):
    """The hosts ``iosched fleet`` planned, one per name, and their distinct plan sets."""

    hosts: Sequence[Outcome]
    sets: Mapping[Hashable, PlanSet]
    summary: Summary


class Compared(Struct):
    """The verdict of ``iosched compare``: the judgement, the naive points (``--points``), and whether every
    metric is shown (``--all-metrics``)."""

    judgement: Judgement
    tally: Any = None
    everything: bool = False


class Checked(Struct):
    """What ``iosched kb check`` found in the KB directories ``where`` (as the user named them)."""

    diagnostics: Sequence[Diagnostic]
    where: str
    entries: int
