"""The TuneD profile of a plan, read back as TuneD reads it: the active profile included, a [disk] unit that
takes exactly the planned disk before the included one, the sysctls merged; and no value from a plan or a
host, however hostile, ever becomes more than the one value it is."""

from __future__ import annotations

import configparser
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine_strategies import KB
from iosched.grammar import SERIAL, WORD, matches
from iosched.knowledge.context import Context
from iosched.mechanisms import tuned
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.records.plan import Plan, Step
from iosched.records.system import Tuner

VIRTUAL_GUEST = Tuner(kind="tuned", name="virtual-guest", settings={"queue/read_ahead_kb": ">4096",
                                                                    "vm.dirty_ratio": "30"})  # fmt: skip
HOSTILE = st.text(alphabet=st.characters(codec="utf-8"), max_size=40) | st.sampled_from([
    "mq-deadline\n[sysctl]\nkernel.sysrq=1", "4096 # comment", "${f:exec:/bin/sh}", "bfq;none", "x=y", " none",
    "%(here)s", "[main]", "none\\", "a\rb", "${i:PROFILE_DIR}",
])  # fmt: skip


def read(text: str) -> configparser.ConfigParser:
    """A profile as TuneD's loader parses it (tuned/profiles/loader.py: '=' only, inline '#', not strict)."""
    parser = configparser.ConfigParser(delimiters=("=",), inline_comment_prefixes=("#",), strict=False,
                                       interpolation=None)  # fmt: skip
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return parser


def udev_properties(**values: str) -> str:
    """What TuneD matches devices_udev_regex against (tuned/hardware/device_matcher_udev.py)."""
    return "".join(f"{k}={v}\n" for k, v in sorted({"DEVTYPE": "disk", "SUBSYSTEM": "block", **values}.items()))


def plan_with(tuners: list[Tuner], **context: str) -> Plan:
    """A plan that changes the scheduler (from none), read-ahead and a writeback sysctl, kept by TuneD."""
    given = {"hw": "hdd", "workload": "streaming", "distro": "sles15sp5", "scheduler": "none",
             "symptoms": "dirty-stall", "persist": "tuned", **context}  # fmt: skip
    return advise(KB, Context(**given), tuners=tuners)


def test_the_profile_includes_the_active_one_and_takes_the_planned_disk_first() -> None:
    plan = plan_with([VIRTUAL_GUEST], device="sdb", serial="SAMSUNG_MZ7.001")
    on_tuned = [s for s in plan.steps if s.persist_method == "tuned-profile"]
    assert {s.kind for s in on_tuned} == {"scheduler", "queue-attribute", "sysctl"}, plan.steps
    (path, text), *_ = [(p, t) for p, t in files([plan]).items() if tuned.is_profile(p)]
    assert path == f"{tuned.DIRECTORY}/{tuned.PREFIX}virtual-guest/tuned.conf"
    profile = read(text)
    assert profile["main"]["include"] == "virtual-guest"
    unit = profile[f"{tuned.PREFIX}sdb"]
    assert unit["type"] == "disk" and int(unit["priority"]) < 0
    regex = unit["devices_udev_regex"]
    assert re.search(regex, udev_properties(ID_SERIAL="SAMSUNG_MZ7.001"), re.MULTILINE)
    for other in ("SAMSUNG_MZ7.0011", "SAMSUNG_MZ7x001", "XSAMSUNG_MZ7.001"):
        assert not re.search(regex, udev_properties(ID_SERIAL=other), re.MULTILINE), other
    wanted = {tuned.DISK_OPTIONS[s.target]: s.value for s in on_tuned if s.device}
    assert {k: unit[k] for k in wanted} == wanted
    sysctls = {s.target: s.value for s in on_tuned if s.kind == "sysctl"}
    assert {k: profile["sysctl"][k] for k in sysctls} == sysctls


def test_the_unit_carries_on_what_the_included_profile_set_for_every_disk() -> None:
    plan = plan_with([VIRTUAL_GUEST], device="sdb", workload="db", distro="rhel9")
    on_tuned = {s.target for s in plan.steps if s.persist_method == "tuned-profile"}
    assert "scheduler" in on_tuned and "queue.read_ahead_kb" not in on_tuned
    unit = read(files([plan])[tuned.path(plan.tuned)])[f"{tuned.PREFIX}sdb"]
    assert unit["readahead"] == VIRTUAL_GUEST.settings["queue/read_ahead_kb"]
    assert unit["devices"] == "sdb"


def test_a_profile_of_iosched_stands_for_the_one_it_includes() -> None:
    ours = Tuner(kind="tuned", name=tuned.PREFIX + "virtual-guest", settings={"scheduler": "kyber"})
    base = tuned.base([ours])
    assert base is not None and base.profiles == ("virtual-guest",) and base.disk == {}
    assert tuned.base([Tuner(kind="tuned", name="virtual-guest", active=False)]) is None
    assert tuned.base([Tuner(kind="tuned", name="no such profile!")]) is None


@settings(max_examples=300, deadline=None)
@given(value=HOSTILE, grammar=st.sampled_from([WORD, SERIAL]))
@example(value="mq-deadline", grammar=WORD)
def test_ini_value_passes_a_value_of_its_grammar_alone_and_refuses_the_rest(value: str, grammar: str) -> None:
    try:
        kept = tuned.ini_value(value, grammar, "value")
    except tuned.TunedProfileError:
        assert not matches(grammar, value)  # these grammars leave out every character TuneD reads specially
        return
    assert kept == value and matches(grammar, value)
    assert read(f"[u]\nkey={kept}\n")["u"]["key"] == value


def _hostile_plan(value: str, target: str) -> Plan:
    plan = plan_with([VIRTUAL_GUEST], device="sdb")
    steps = tuple(Step.build({**dict(s.fields()), "value": value}) if s.target == target else s for s in plan.steps)
    return Plan.build({**dict(plan.fields()), "steps": steps})


@settings(max_examples=200, deadline=None)
@given(value=HOSTILE, target=st.sampled_from(["scheduler", "queue.read_ahead_kb"]))
def test_a_hostile_value_never_reaches_the_profile(value: str, target: str) -> None:
    plan = _hostile_plan(value, target)
    try:
        text = files([plan])[tuned.path(plan.tuned)]
    except tuned.TunedProfileError:
        return
    profile = read(text)
    unit = profile[f"{tuned.PREFIX}sdb"]
    assert unit[tuned.DISK_OPTIONS[target]] == value
    assert set(profile.sections()) <= {"main", f"{tuned.PREFIX}sdb", "sysctl"}
    assert not set(unit) - {"type", "priority", "devices", "elevator", "readahead"}


@pytest.mark.parametrize("name", ["../../etc", "a b", "x\ny", "", "-rf"])
def test_a_hostile_profile_name_from_a_probe_document_is_left_out(name: str) -> None:
    assert tuned.base([Tuner(kind="tuned", name=name)]) is None
