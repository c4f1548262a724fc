"""Persistence: which mechanism keeps each of a plan's changes across reboots, which other tuner would win over
it, and the files that keep them, with the commands that install, reload and remove them. Each mechanism is one
module of :mod:`iosched.mechanisms` that reads and writes its files and knows its precedence (``udev``, ``sysctld``,
``tuned``, ``cmdline``, ``fstab``); this module puts them together: :func:`method_for` decides which mechanism keeps
each step, :func:`overriding` which other tuner would win over it, :func:`files` composes the whole files of one or
many plans, and :mod:`.shell` says how the sh script writes the files and undoes them.

The method of a step is the one the user asked for (``--persist udev,sysctl``), or under ``auto`` the one the host
calls for. Under ``auto`` a host whose probe shows TuneD running a profile keeps schedulers, read-ahead and sysctls
in a TuneD profile (TuneD would otherwise set its own values over a udev rule, after boot and whenever a disk is
added); other hosts use udev rules and sysctl.d. A host on tuned 0.2 (RHEL 6) is one of the others: it never reads a
TuneD 2 profile, so ``--persist tuned`` is refused there. Either way a method that another tuner on the host would
override (:func:`overriding`) gives way to one that holds, when there is one. A scheduler goes with its elevator's
tunables: only a udev rule sets the tunables after the scheduler, and a switch resets them. Boot parameters are kept
by the host's boot loader (zipl on IBM Z, else GRUB), mount options in fstab.

Which other tuner wins over a persistence method for one setting follows from the order in which they act. At
boot the kernel command line acts first; then systemd-sysctl applies the sysctl.d files in file-name order,
``/etc/sysctl.conf`` last; udev applies its rule files in file-name order as it adds each device, and the last
assignment wins. TuneD starts after both and sets its ``[disk]`` options again whenever a disk is added, after
udev's rules for it ran, so it wins over udev rules; its ``[sysctl]`` plugin then applies ``/etc/sysctl.d``,
``/run/sysctl.d`` and ``/etc/sysctl.conf`` again (``reapply_sysctl``, on by default), so those files win over
a TuneD profile's sysctls. tuned 0.2's ktune init script (RHEL 6) writes its elevator at boot, after udev added
the disks. saptune and sapconf apply their notes last. The probe lists the tuners in this
order (:func:`iosched.observe.reader.read_tuners`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from iosched.mechanisms import sysctld, tuned, udev
from iosched.records.plan import Plan, Step, TunedBase
from iosched.steps import STEP_KINDS, kind_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.records.system import Tuner

AUTO = "auto"
NAMES = {"udev": "udev-rule", "tuned": "tuned-profile", "sysctl": "sysctl-d", "grub": "kernel-cmdline",
         "zipl": "zipl"}  # fmt: skip
"""``--persist`` words and the persistence method ids they name."""
WORDS = {method: word for word, method in NAMES.items()}
BOOT_LOADERS = ("kernel-cmdline", "zipl")
_LAST = ("saptune", "sapconf")
_TUNER = {"tuned": "the TuneD profile", "ktune": "tuned 0.2's ktune service", "udev": "the udev rule",
          "sysctl.d": "the sysctl file", "kernel-cmdline": "the kernel command line", "saptune": "saptune",
          "sapconf": "sapconf"}  # fmt: skip
_METHOD = {"udev-rule": f"iosched's udev rule ({udev.FILE})", "sysctl-d": f"iosched's sysctl file ({sysctld.FILE})",
           "tuned-profile": "iosched's TuneD profile"}  # fmt: skip


class PersistError(ValueError):
    """A persistence method that cannot keep a plan's steps on this host (exit 2 in the CLI)."""


# ----------------------------------------------------------------- which method keeps a step


def requested(text: str | None) -> tuple[str, ...]:
    """The method ids a ``--persist`` value names, in its order; () for ``auto`` (or nothing said)."""
    if text is None or text.strip() == AUTO:
        return ()
    words = [w.strip() for w in text.split(",")]
    unknown = [w for w in words if w not in NAMES]
    if unknown:
        valid = ", ".join([AUTO, *NAMES])
        raise PersistError(f"unknown persistence method {unknown[0]!r}; valid: {valid}, or a list such as udev,sysctl")
    return tuple(dict.fromkeys(NAMES[w] for w in words))


def keeps(method: str, step: Step) -> bool:
    """Whether ``method`` can keep the step (a TuneD profile sets no elevator tunables and, of the queue
    attributes, only read-ahead)."""
    return method in kind_of(step).persist_methods and (method != "tuned-profile" or tuned.keeps(step))


def _boot_loader(asked: Sequence[str], distro: Any, s390: bool) -> str:
    native = "zipl" if s390 else "kernel-cmdline"
    wanted = [m for m in asked if m in BOOT_LOADERS]
    if not wanted or native in wanted:
        return native
    from iosched.mechanisms.cmdline import loader_for  # a plan without boot parameters asks no boot loader

    if s390 and loader_for(distro, s390=True).kind == "grub2":
        return "kernel-cmdline"
    loader = "zipl (IBM Z)" if s390 else "GRUB"
    raise PersistError(f"--persist {WORDS[wanted[0]]} does not fit this host, which boots with {loader}: "
                       f"use --persist {WORDS[native]} for its boot parameters")  # fmt: skip


def _refusal(step: Step, asked: Sequence[str], able: Sequence[str], with_tunables: bool) -> str:
    what = f"{kind_of(step).label(step)}" + (f" of {step.device}" if step.device else "")
    said = ",".join(WORDS[m] for m in asked)
    if not able:
        return f"--persist {said} cannot keep {what}"
    why = " (a scheduler goes with its elevator's tunables)" if step.kind == "scheduler" and with_tunables else ""
    return f"--persist {said} cannot keep {what}{why}: add {' or '.join(WORDS[m] for m in able)}, e.g. " \
           f"--persist {said},{WORDS[able[0]]}"  # fmt: skip


def method_for(step: Step, asked: Sequence[str], tuners: Sequence[Tuner], *, distro: Any = None,
               s390: bool = False, with_tunables: bool = False) -> str:  # fmt: skip
    """The persistence method of one step. ``asked`` are the methods the user named (none: auto), ``tuners``
    what the host runs (in the order they act), ``with_tunables`` whether the plan sets tunables of the
    device's elevator. Raises PersistError for a request that cannot keep the step on this host."""
    kind = kind_of(step)
    if kind.name == "boot-parameter":
        return _boot_loader(asked, distro, s390)
    able = [m for m in kind.persist_methods if keeps(m, step)]
    if kind.name == "scheduler" and with_tunables:
        able = [m for m in able if m in STEP_KINDS["tunable"].persist_methods]
    if len(kind.persist_methods) == 1:
        return able[0]
    running = tuned.base(tuners) is not None
    if asked:
        chosen = next((m for m in asked if m in able), None)
        if chosen is None:
            raise PersistError(_refusal(step, asked, able, with_tunables))
        if chosen == "tuned-profile" and any(t.kind == "ktune" for t in tuners):
            raise PersistError(
                "--persist tuned writes a TuneD 2 profile, which this host's tuned 0.2 (/etc/tune-profiles) never "
                "reads: use --persist udev"
            )
        if chosen == "tuned-profile" and not running:
            raise PersistError(
                "--persist tuned builds on the TuneD profile the host runs, and none was read: "
                "plan the host with --probe or --root (tuned-adm active must name a profile)"
            )
        return chosen
    usable = sorted((m for m in able if m != "tuned-profile" or running), key=lambda m: m != "tuned-profile")
    return next((m for m in usable if overriding(m, step, tuners) is None), usable[0])


# ----------------------------------------------------------------- which tuner wins over it


def concerns(tuner: Tuner, device: str | None) -> bool:
    """Whether a tuner can set this device's value (a udev rule limited by KERNEL== to other disks cannot)."""
    return tuner.reaches(device)


def _acts_after(method: str, tuner: Tuner, step: Step, device: str | None = None) -> bool:
    """Whether ``tuner`` sets its value after the file ``method`` writes for the plan of ``device``, at boot or
    when the device appears (each mechanism knows who acts after it)."""
    if tuner.kind in _LAST:
        return True
    if method == "udev-rule":
        return udev.acts_after(tuner, step.device or device)
    if method == "sysctl-d":
        return sysctld.acts_after(tuner, device)
    if method == "tuned-profile":
        return tuned.acts_after(tuner, step)
    return False


def changes(theirs: str, ours: str) -> bool:
    """Whether a tuner's value would change ours: TuneD's ``>N`` only raises a smaller value, ``<N`` only
    lowers a larger one."""
    bound = theirs[1:].strip()
    if theirs.startswith((">", "<")) and bound.isdigit() and ours.isdigit():
        return int(ours) < int(bound) if theirs.startswith(">") else int(ours) > int(bound)
    return theirs != ours


def overriding(method: str, step: Step, tuners: Sequence[Tuner], device: str | None = None) -> Tuner | None:
    """The tuner that would leave the step's setting at another value than the file ``method`` writes (for
    the plan of ``device``): the last to act after it that sets the setting; None when there is none, or it
    sets the same value (each value a step decided on the machine may set)."""
    key = kind_of(step).tuner_key(step)
    later = [t for t in tuners if t.active and key in t.settings and concerns(t, step.device)
             and _acts_after(method, t, step, device)]  # fmt: skip
    return later[-1] if later and any(changes(later[-1].settings[key], v) for v in step.values) else None


def is_ours(method: str, tuner: Tuner, base: TunedBase | None, device: str | None = None) -> bool:
    """Whether a tuner read from the host is the file iosched writes for ``method`` in the plan of ``device``
    (without a device: in any plan)."""
    if method == "tuned-profile":
        return tuner.kind == "tuned" and base is not None and tuner.name == tuned.name(base)
    if method == "udev-rule":
        file = udev.rule_file(tuner)
        return file == udev.ours(device) if device is not None else udev.is_rules(file)
    if method == "sysctl-d":
        return tuner.name == sysctld.ours(device) if device is not None else sysctld.is_conf(tuner.name)
    return False


def caveat(method: str, tuner: Tuner) -> str:
    """The KB caveat that explains why ``tuner`` wins over ``method``."""
    return "tuned-overrides-udev" if method == "udev-rule" and tuner.kind == "tuned" else "later-tuner-wins"


def describe(step: Step, tuner: Tuner) -> str:
    """``vdb scheduler: the udev rule /etc/udev/...:2 sets none after iosched's udev rule (...)``."""
    key = kind_of(step).tuner_key(step)
    where = f"{step.device} " if step.device else ""
    return (f"{where}{kind_of(step).label(step)}: {_TUNER.get(tuner.kind, tuner.kind)} {tuner.label()} sets "
            f"{tuner.settings[key]} after {_METHOD.get(step.persist_method, step.persist_method)}")  # fmt: skip


# ----------------------------------------------------------------- the files


def _every(step: Step) -> bool:
    return True


def tuned_base(plans: Sequence[Plan]) -> TunedBase | None:
    """The TuneD profiles a host runs, as its plans carry them."""
    return next((plan.tuned for plan in plans if plan.tuned is not None), None)


def files(plans: Sequence[Plan], keep: Callable[[Step], bool] = _every) -> dict[str, str]:
    """Path -> content of every file that persists the kept steps: a udev rule file per device (scheduler
    first), a sysctl.d file per plan that sets sysctls (each setting once, in the first plan's file), one TuneD
    profile with a unit per disk. Files of different devices never share a path: plans coexist."""
    found: dict[str, str] = {}
    disks, tuned_sysctls, seen = [], [], set()
    for plan in plans:
        kept = [s for s in plan.steps if keep(s)]
        on_udev = [s for s in kept if s.persist_method == "udev-rule"]
        if on_udev:
            found.update([_udev_file(plan, on_udev)])
        sysctls = [s for s in kept if s.persist_method == "sysctl-d" and sysctld.line(s) not in seen]
        seen |= {sysctld.line(s) for s in sysctls}
        if sysctls:
            found[sysctld.path(plan.device)] = sysctld.content(sysctls)
        on_tuned = [s for s in kept if s.persist_method == "tuned-profile"]
        if disk := [s for s in on_tuned if s.device is not None]:
            ids = {k: plan.context.get(k) for k in ("serial", "wwn")}
            on = plan.tuned or TunedBase(profiles=(), disk={})
            disks.append((plan.device, tuned.match(plan.device, **ids), disk, on))
        tuned_sysctls += [s for s in on_tuned if s.device is None]
    if disks or tuned_sysctls:
        base = tuned_base(plans)
        if base is None:
            raise PersistError("a step persists through TuneD, but no active TuneD profile was read to include")
        found[tuned.path(base)] = tuned.content(base, disks, tuned_sysctls)
    return found


def split(plans: Sequence[Plan]) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The files of a host's plans (:func:`files` of them all) as each plan's own and those several plans share:
    a plan's own are the paths no other plan's files name, with the host's content (a sysctl set by two plans is
    in the first one's file only); the shared ones (the TuneD profile, a unit per disk) are to be written once,
    whole: written from one device's plan, each would keep only that device."""
    host = files(plans)
    named = [files([plan]).keys() for plan in plans]
    naming = Counter(path for paths in named for path in paths)
    own = [{path: host[path] for path in paths if path in host and naming[path] == 1} for paths in named]
    return own, {path: content for path, content in host.items() if naming[path] != 1}


def _udev_file(plan: Plan, steps: Sequence[Step]) -> tuple[str, str]:
    """The udev rule file of a plan and its content: named, headed and matching as one device's, or, for a plan
    that names no device (its match is every disk of its preset), as a class rule."""
    hw, workload = plan.facts.get("hw", "?"), plan.facts.get("workload", "?")
    if plan.names_device:
        what = f"{plan.device}: {hw} disk, {workload} workload"
        return udev.path(plan.device), udev.content(what, plan.udev_match, steps)
    what = f"every {hw} disk, {workload} workload"
    return udev.class_path(str(hw)), udev.content(what, plan.udev_match, steps, every=f"{hw} disk")


def commands(plans: Sequence[Plan], path: str, content: str) -> tuple[str, str | None, str]:
    """How to install one file of ``files(plans)``, check it is in effect (None: reading it back is the check),
    and remove it again."""
    if udev.is_rules(path):
        return udev.install(path, content), None, udev.remove(path)
    if sysctld.is_conf(path):
        return sysctld.install(path, content), None, sysctld.remove(path)
    base = tuned_base(plans)
    assert base is not None and path == tuned.path(base), path
    return tuned.install(content, base), tuned.check(base), tuned.remove(base)


def location(method: str, base: TunedBase | None, device: str) -> str | None:
    """The file iosched writes for a persistence method in the plan of ``device``; None where ``verify``
    cannot read it back (the boot loader, fstab) or no TuneD profile is active to build on."""
    if method == "tuned-profile":
        return tuned.path(base) if base is not None else None
    return {"udev-rule": udev.path(device), "sysctl-d": sysctld.path(device)}.get(method)


def kept_by(plans: Sequence[Plan]) -> dict[str, list[Step]]:
    """The steps of ``plans`` that each file of :func:`files` keeps, by its path: the files a step is in when it
    is the one kept (with the steps equal to it). Each distinct step is placed once, among only the plans that
    hold it (and the one whose TuneD profile the host's profile includes): a plan without a kept step adds no
    file, so a host's plans cost about their steps, not their steps times its plans or files (a host with a
    hundred disks has a hundred rules files)."""
    holding: dict[Step, dict[int, None]] = {}
    for index, plan in enumerate(plans):
        for step in plan.steps:
            holding.setdefault(step, {})[index] = None
    base = next((plan for plan in plans if plan.tuned is not None), None)
    placed: dict[Step, Iterable[str]] = {}
    kept: dict[str, list[Step]] = {}
    for plan in plans:
        for step in plan.steps:
            if step not in placed:
                among = [plans[index] for index in holding[step]]
                if base is not None and all(other is not base for other in among):
                    among.insert(0, base)  # it adds no file, only the profile the host's includes
                placed[step] = files(among, step.__eq__).keys()
            for path in placed[step]:
                kept.setdefault(path, []).append(step)
    return kept
