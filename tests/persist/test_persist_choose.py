"""Which method persists each step: for any distribution and any tuners a host may run, the method keeps the
step, follows TuneD where it runs, gives way to a method no tuner overrides, honours a request or refuses it
in one error; and which tuner wins over which method, in the order they act."""

from __future__ import annotations

from posixpath import basename

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_strategies import KB
from iosched import persist
from iosched.mechanisms import cmdline, sysctld, tuned, udev
from iosched.persist import PersistError
from iosched.records.plan import Step
from iosched.records.system import Tuner
from iosched.steps import STEP_KINDS, kind_of

DISTROS = [None, *KB.section("distributions")]
ELEVATORS = sorted(KB.elevators)
TUNABLE = next(f"{e.name}.{t.name}" for e in KB.section("elevators") for t in e.tunables if t.writable)
BOOT = next(p for p in KB.section("boot_parameters") if p.values)
MOUNT = next(o for o in KB.section("mount_options") if not o.disables_barriers)


def step(kind: str, target: str, value: str, device: str | None = "sdb") -> Step:
    return Step(kind=kind, target=target, value=value, title=target, because=("IOS000",), reasons=("r",),
                sources=(), device=None if STEP_KINDS[kind].host_wide else device)  # fmt: skip


STEPS = st.one_of(
    st.sampled_from(ELEVATORS).map(lambda e: step("scheduler", "scheduler", e)),
    st.just(step("tunable", TUNABLE, "3")),
    st.sampled_from(["queue.read_ahead_kb", "queue.nr_requests"]).flatmap(
        lambda t: st.sampled_from(["128", "4096", "8192"]).map(lambda v: step("queue-attribute", t, v))),
    st.sampled_from(["10", "20", "40"]).map(lambda v: step("sysctl", "vm.dirty_ratio", v)),
    st.just(step("boot-parameter", BOOT.name, BOOT.values[0])),
    st.just(step("mount-option", MOUNT.id, "true")),
)  # fmt: skip
KEYS = ["scheduler", "queue/read_ahead_kb", "queue/nr_requests", f"iosched/{TUNABLE.split('.', 1)[1]}",
        "vm.dirty_ratio"]  # fmt: skip
VALUES = [*ELEVATORS, "10", "20", "40", "128", "4096", "8192", ">4096", "<64"]
NAMES = {
    "udev": [udev.FILE + ":2", "/usr/lib/udev/rules.d/10-early.rules:3", "/etc/udev/rules.d/60-pgsql.rules:2",
             "/etc/udev/rules.d/99-local.rules:1"],
    "sysctl.d": [sysctld.FILE, "/usr/lib/sysctl.d/99-vendor.conf", "/etc/sysctl.d/10-early.conf",
                 "/etc/sysctl.d/99-sysctl.conf", "/run/sysctl.d/95-run.conf", "/etc/sysctl.conf"],
    "tuned": ["virtual-guest", "throughput-performance", tuned.PREFIX + "virtual-guest", "not a profile"],
    "kernel-cmdline": ["/proc/cmdline"],
    "saptune": ["note 1984787"],
    "sapconf": ["/etc/sysconfig/sapconf"],
}  # fmt: skip
ORDER = list(NAMES)
"""The order a probe lists tuners in: the order they act (iosched.observe.reader.read_tuners)."""


@st.composite
def tuner(draw: st.DrawFn) -> Tuner:
    kind = draw(st.sampled_from(ORDER))
    settings = draw(st.dictionaries(st.sampled_from(KEYS), st.sampled_from(VALUES), max_size=3))
    devices = draw(st.sampled_from([(), ("sdb",), ("sd*",), ("vda",)])) if kind == "udev" else ()
    return Tuner(kind=kind, name=draw(st.sampled_from(NAMES[kind])), settings=settings, active=draw(st.booleans()),
                 devices=devices)  # fmt: skip


TUNERS = st.lists(tuner(), max_size=6).map(lambda ts: sorted(ts, key=lambda t: ORDER.index(t.kind)))
REQUESTS = st.lists(st.sampled_from(sorted(persist.NAMES)), max_size=3).map(lambda words: ",".join(words) or None)


def running(tuners: list[Tuner]) -> bool:
    return tuned.base(tuners) is not None


@settings(max_examples=400, deadline=None)
@given(s=STEPS, tuners=TUNERS, distro=st.sampled_from(DISTROS), s390=st.booleans(), tunables=st.booleans())
def test_auto_keeps_every_step_follows_tuned_and_avoids_overridden_methods(s, tuners, distro, s390, tunables):
    method = persist.method_for(s, (), tuners, distro=distro, s390=s390, with_tunables=tunables)
    kind = kind_of(s)
    if kind.name == "boot-parameter":
        assert method == ("zipl" if s390 else "kernel-cmdline")
        return
    assert persist.keeps(method, s)
    if kind.name == "scheduler" and tunables:
        assert method in STEP_KINDS["tunable"].persist_methods
        return
    if len(kind.persist_methods) == 1:
        assert method == kind.persist_methods[0]
        return
    usable = [m for m in kind.persist_methods if persist.keeps(m, s) and (m != "tuned-profile" or running(tuners))]
    assert method in usable
    holding = [m for m in usable if persist.overriding(m, s, tuners) is None]
    if holding:
        assert method in holding
        if running(tuners) and "tuned-profile" in holding:
            assert method == "tuned-profile"
    else:
        assert method == ("tuned-profile" if "tuned-profile" in usable else usable[0])
    if not running(tuners):
        assert method == kind.persist_methods[0]


@settings(max_examples=400, deadline=None)
@given(s=STEPS, tuners=TUNERS, text=REQUESTS, distro=st.sampled_from(DISTROS), s390=st.booleans())
def test_a_request_is_honoured_where_it_can_keep_the_step_and_refused_in_one_line_elsewhere(s, tuners, text, distro,
                                                                                            s390):  # fmt: skip
    asked = persist.requested(text)
    try:
        method = persist.method_for(s, asked, tuners, distro=distro, s390=s390)
    except PersistError as exc:
        assert asked and "\n" not in str(exc)
        return
    assert method == persist.method_for(s, (), tuners, distro=distro, s390=s390) or method in asked
    kind = kind_of(s)
    if asked and kind.name not in ("boot-parameter",) and len(kind.persist_methods) > 1:
        assert method == next(m for m in asked if persist.keeps(m, s))
        assert method != "tuned-profile" or running(tuners)


def test_the_brief_refusals_and_the_words_of_persist() -> None:
    scheduler = step("scheduler", "scheduler", ELEVATORS[0])
    with pytest.raises(PersistError, match="cannot keep scheduler"):
        persist.method_for(scheduler, persist.requested("sysctl"), ())
    with pytest.raises(PersistError, match="TuneD"):
        persist.method_for(scheduler, persist.requested("tuned"), ())
    with pytest.raises(PersistError, match="tunables"):
        persist.method_for(scheduler, persist.requested("tuned"), (), with_tunables=True)
    with pytest.raises(PersistError, match="unknown persistence method 'udevv'"):
        persist.requested("udev,udevv")
    assert persist.requested("auto") == persist.requested(None) == ()
    assert persist.requested("tuned, udev") == ("tuned-profile", "udev-rule")
    assert set(persist.NAMES.values()) <= {m for k in STEP_KINDS.values() for m in k.persist_methods}


def test_boot_parameters_follow_the_boot_loader_and_refuse_the_other_one() -> None:
    boot = step("boot-parameter", BOOT.name, BOOT.values[0])
    for distro in DISTROS:
        assert persist.method_for(boot, persist.requested("grub"), (), distro=distro) == "kernel-cmdline"
        with pytest.raises(PersistError, match="GRUB"):
            persist.method_for(boot, persist.requested("zipl"), (), distro=distro)
        grub_on_z = cmdline.loader_for(distro, s390=True).kind == "grub2"
        if grub_on_z:
            assert persist.method_for(boot, persist.requested("grub"), (), distro=distro, s390=True) == "kernel-cmdline"
        else:
            with pytest.raises(PersistError, match="zipl"):
                persist.method_for(boot, persist.requested("grub"), (), distro=distro, s390=True)


# ------------------------------------------------------------------------------------------------ precedence


def test_tuners_win_in_the_order_they_act() -> None:
    scheduler = step("scheduler", "scheduler", "mq-deadline", "vdb")
    later_rule = Tuner(kind="udev", name="/etc/udev/rules.d/99-local.rules:1", settings={"scheduler": "bfq"})
    earlier_rule = Tuner(kind="udev", name="/usr/lib/udev/rules.d/10-early.rules:1", settings={"scheduler": "bfq"})
    other_disk = Tuner(kind="udev", name="/etc/udev/rules.d/99-local.rules:2", settings={"scheduler": "bfq"},
                       devices=("sd*",))  # fmt: skip
    profile = Tuner(kind="tuned", name="spectrumscale-ece", settings={"scheduler": "none"})
    assert persist.overriding("udev-rule", scheduler, [earlier_rule, other_disk]) is None
    assert persist.overriding("udev-rule", scheduler, [earlier_rule, later_rule]) is later_rule
    assert persist.overriding("udev-rule", scheduler, [later_rule, profile]) is profile
    assert persist.caveat("udev-rule", profile) == "tuned-overrides-udev"
    assert persist.overriding("tuned-profile", scheduler, [later_rule, profile]) is None

    readahead = step("queue-attribute", "queue.read_ahead_kb", "8192", "vdb")
    at_least = Tuner(kind="tuned", name="virtual-guest", settings={"queue/read_ahead_kb": ">4096"})
    assert persist.overriding("udev-rule", readahead, [at_least]) is None
    small = step("queue-attribute", "queue.read_ahead_kb", "128", "vdb")
    assert persist.overriding("udev-rule", small, [at_least]) is at_least

    ratio = step("sysctl", "vm.dirty_ratio", "10")
    vendor = Tuner(kind="sysctl.d", name="/usr/lib/sysctl.d/99-vendor.conf", settings={"vm.dirty_ratio": "30"})
    local = Tuner(kind="sysctl.d", name="/etc/sysctl.d/50-local.conf", settings={"vm.dirty_ratio": "30"})
    tuned_ratio = Tuner(kind="tuned", name="virtual-guest", settings={"vm.dirty_ratio": "30"})
    sap = Tuner(kind="saptune", name="note 2578899", settings={"vm.dirty_ratio": "0"})
    assert persist.overriding("sysctl-d", ratio, [vendor]) is vendor  # 99-vendor.conf sorts after 90-iosched.conf
    assert persist.overriding("sysctl-d", ratio, [local, tuned_ratio]) is None  # TuneD re-applies /etc/sysctl.d
    assert basename(local.name) < basename(sysctld.FILE) < basename(vendor.name)
    assert persist.overriding("tuned-profile", ratio, [vendor, tuned_ratio]) is None  # /usr/lib is not re-applied
    assert persist.overriding("tuned-profile", ratio, [local, tuned_ratio]) is local
    assert persist.overriding("tuned-profile", ratio, [local, tuned_ratio, sap]) is sap
    assert persist.caveat("tuned-profile", sap) == "later-tuner-wins"
    assert KB.get("later-tuner-wins") is not None and KB.get("tuned-overrides-udev") is not None
