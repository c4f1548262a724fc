"""Plans for every device of an observed host, and how the host compares with them.

Pure: it takes a :class:`~iosched.records.system.System` (read from a live root, a capture or Ansible facts),
already classified (``host.distro`` and each ``device.hw`` filled), and the user's context for what a
system cannot show (workload, goal, cache). Each device's hardware, path and current values come from what
was read, never from defaults. Stacks are resolved: a dm-multipath device is planned and its paths left
alone; md, LVM and dm-crypt have no elevator, so their member disks are planned instead; partitions,
loop, zram, ram and optical devices are skipped, each with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from posixpath import basename
from typing import Any

from iosched import persist
from iosched.escape import one_line
from iosched.grammar import MOUNT_POINT, SERIAL, compiled, device_name
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError, device_class
from iosched.knowledge.schema import DeviceClass, Distribution
from iosched.mechanisms import udev
from iosched.observe import loops
from iosched.observe.classify import listed
from iosched.observe.mounts import cgroup_layout
from iosched.planning.engine import HOST_VIRT, advise, boot_elevator
from iosched.records import runtime
from iosched.records.evidence import Evidence
from iosched.records.plan import Plan, Step, Unchanged
from iosched.records.system import Device, Host, Mount, System, Tuner
from iosched.steps import kind_of
from iosched.struct import Struct

_BEFORE_UDEV = ("kernel-cmdline", "sysctl.d")
_USER_FIELDS = ("workload", "goal", "cache", "symptoms", "persist", "rehearse")


class Skipped(Struct):
    device: str
    reason: str
    data: str | None = None
    """The file systems on the device, where it is skipped though no other plan covers it (no preset fits, a
    value refused): verify cannot call the host compliant while they were not checked."""


class HostPlan(Struct):
    """The plans of one host, what was skipped and why, and where it was read from."""

    host: dict[str, Any]
    plans: tuple[Plan, ...]
    skipped: tuple[Skipped, ...]
    source: str = ""
    reproduce: str = ""
    """The command that reads the host again and gives these plans (set by the CLI, which knows how it read it)."""

    def summarised(self) -> HostPlan:
        """The same plans with the unattached loop devices skipped in one entry (for reports people read)."""
        empty = [s.device for s in self.skipped if s.reason == loops.UNATTACHED]
        if len(empty) < 2:
            return self
        kept = [s for s in self.skipped if s.reason != loops.UNATTACHED]
        return self.replace(skipped=(*kept, Skipped(device=loops.names(empty), reason=loops.grouped(len(empty)))))


def _multipath(device: Device) -> bool:
    return (device.dm_uuid or "").startswith("mpath-")


def _skip(kb: Kb, device: Device, devices: dict[str, Device]) -> tuple[str, bool] | None:
    """Why a device gets no plan of its own, and whether no other plan covers it, or None when it gets one:
    another plan covers it (its whole disk, its member disks), or nothing in it is to tune, or :func:`_unplanned`
    (uncovered)."""
    if loops.unattached(device):
        return loops.UNATTACHED, False
    if device.kind == "partition" or device.parent:
        return f"a partition: the scheduler belongs to the whole disk {device.parent or 'it is on'}", False
    holders = [devices[h] for h in device.holders if h in devices]
    if any(_multipath(h) for h in holders):
        paths = ", ".join(h.name for h in holders if _multipath(h))
        why = "the multipath device is planned, its paths are left alone"
        return f"a path of the multipath device {paths}: {why}", False
    cls = device_class(kb, device.name)
    if cls is not None and cls.plan == "skip":
        return f"{cls.title}, not planned: {cls.note or 'nothing to tune'}", False
    members = cls is not None and cls.plan == "members"
    if (device.kind == "dm" and not _multipath(device)) or device.kind == "md" or device.scheduler is None or members:
        deciding = dict.fromkeys(_disks_under(device, devices))
        maps = [name for name in deciding if name in devices and _multipath(devices[name])]
        under = ", ".join(f"multipath device {n}" if n in maps else n for n in deciding) or "its member disks"
        what = "devices" if maps else "disks"
        kind = cls.id if members and cls is not None else device.kind
        unplanned = [n for n in deciding if n in devices and _skip(kb, devices[n], devices) is not None]
        fate = f"; {', '.join(unplanned)} not planned (see why)" if unplanned else " and are planned"
        return f"no elevator of its own (bio-based {kind}): the {what} under it ({under}) decide{fate}", False
    uncovered = _unplanned(kb, device, cls)
    return None if uncovered is None else (uncovered, True)


def _unplanned(kb: Kb, device: Device, cls: DeviceClass | None) -> str | None:
    """Why a device with an elevator of its own that nothing else covers gets no plan, or None."""
    if device.kind == "other" and device.size_bytes == 0:
        return "size 0 (an nbd device with no connection, a reader with no medium): nothing to plan"
    if not device_name(device.name):
        return "a kernel name iosched does not plan (only whole disks such as sda, vda, nvme0n1, dm-0)"
    if device.hw is None and cls is not None and not cls.hardware:
        return f"{cls.title}: no hardware preset of the KB describes it; plan it with --device {device.name} --hw HW"
    if device.hw is None:
        return "no hardware preset of the KB fits what was read"
    return None


def _disks_under(device: Device, devices: dict[str, Device], depth: int = 0) -> list[str]:
    """The devices whose elevators decide for a stacked device: the whole disks it is built on (through
    partitions, LVM, dm-crypt, md), or the multipath map whose paths they are (the map is planned, not its paths)."""
    found: list[str] = []
    for name in device.slaves:
        below = devices.get(name)
        if below is None or depth > 8 or _multipath(below):
            found.append(name)
        elif below.parent:
            found.append(below.parent)
        elif below.slaves:
            found += _disks_under(below, devices, depth + 1)
        else:
            found.append(below.name)
    return found


def _stacked_on(system: System, device: Device) -> list[Device]:
    """The device and everything built on it, nearest first: its partitions, and what holds them or it (LVM,
    dm-crypt, multipath maps and their partitions, md), through any number of layers."""
    by_name = {d.name: d for d in system.devices}
    found: list[Device] = []
    queue, seen = [device], {device.name}
    while queue and len(found) < 256:
        current = queue.pop(0)
        found.append(current)
        above = [d for d in system.devices if d.parent == current.name]
        above += [by_name[h] for h in current.holders if h in by_name]
        for d in above:
            if d.name not in seen:
                seen.add(d.name)
                queue.append(d)
    return found


def _mount_names(device: Device) -> set[str]:
    """How ``/proc/mounts`` may name a device, below ``/dev/``: ``sda1``, ``dm-3``, ``mapper/vg-lv``, ``vg/lv``."""
    names = {device.name}
    if device.dm_name:
        names.add(f"mapper/{device.dm_name}")
        if (device.dm_uuid or "").startswith("LVM-"):  # /dev/VG/LV: dm_name is VG-LV with each '-' doubled
            parts = re.split(r"(?<!-)-(?!-)", device.dm_name)
            if len(parts) == 2:
                names.add("/".join(p.replace("--", "-") for p in parts))
    return names


def _mounts_on(system: System, device: Device) -> list[Mount]:
    """Every mount on the device or on anything stacked on it (a partition, an LV, a multipath map, md)."""
    mounts: dict[str, list[Mount]] = {}
    for mount in system.mounts:
        mounts.setdefault(mount.device.removeprefix("/dev/"), []).append(mount)
    stacked = _stacked_on(system, device)
    known = {d.name for d in system.devices}
    names = [n for d in stacked for n in sorted(_mount_names(d))]
    names += [n for d in stacked for h in d.holders if h not in known for n in (h, f"mapper/{h}")]  # a dm name
    return [m for name in names for m in mounts.get(name, [])]


def _mount(system: System, device: Device) -> tuple[str | None, str | None, tuple[str, ...]]:
    """The file system, mount point and options a device carries: of the nearest mount on it or on anything
    stacked on it (a partition, an LV, a multipath map, md); a data file system before ``/`` (the workload's own,
    where the device has one), one whose mount point a plan can name (``/`` or a path of plain names) before one
    it cannot, ``/`` before /boot, and never /boot when the device carries other mounts; of a device mounted more
    than once (btrfs subvolumes, bind mounts), the mount at ``/`` or else its first. A mount point no command may
    name is None: the file system and its options still count, and a step asks for the mount point."""
    found = list(_file_systems(_mounts_on(system, device)).values())
    data = [m for m in found if not (m.mountpoint == "/boot" or m.mountpoint.startswith("/boot/"))]
    data.sort(key=lambda m: (m.mountpoint == "/", not compiled(MOUNT_POINT).fullmatch(m.mountpoint)))
    chosen = next(iter(data or found), None)
    if chosen is None:
        return None, None, ()
    nameable = compiled(MOUNT_POINT).fullmatch(chosen.mountpoint) is not None
    return chosen.fstype, chosen.mountpoint if nameable else None, chosen.options


def _file_systems(mounts: list[Mount]) -> dict[str, Mount]:
    """One mount per file system, keyed by the device mounted: ``/`` where that device is mounted there (the
    btrfs subvolumes SLES mounts beside it, ``/.snapshots``, ``/var``, ``/home``, and bind mounts show the same
    device), else the first mount of it."""
    chosen: dict[str, Mount] = {}
    for mount in mounts:
        if chosen.setdefault(mount.device, mount) is not mount and mount.mountpoint == "/":
            chosen[mount.device] = mount
    return chosen


def _known_options(kb: Kb, fs: str, options: tuple[str, ...]) -> str | None:
    """The mount options a plan decides from, comma-separated: the access mode (``rw``/``ro``, which the kernel
    always shows) and those the KB describes for ``fs`` (``nobarrier``, ``barrier=0`` ...). The others
    (``subvol=/@/.snapshots/1/snapshot``, SELinux's ``context="..."``) are the machine's own and decide nothing."""
    known = {"rw", "ro"} | {o.option for o in kb.section("mount_options") if o.filesystem == fs}
    kept = [o for o in options if o in known]
    return ",".join(dict.fromkeys(kept)) or None


def _unchecked_data(system: System, device: Device) -> str | None:
    """The file systems on a device no plan covers (for verify: a disk with data it did not check), e.g.
    ``xfs on /``; None when it holds none."""
    found = dict.fromkeys(f"{m.fstype} on {m.mountpoint}" for m in _mounts_on(system, device))
    return ", ".join(found) or None


def current_values(system: System, device: Device) -> dict[str, str]:
    """What the device and the host have now, keyed as plans name settings."""
    values = {f"queue.{name}": value.strip() for name, value in device.queue.items()}
    if device.scheduler:
        values["scheduler"] = device.scheduler
        values |= {f"{device.scheduler}.{name}": value.strip() for name, value in device.iosched.items()}
    if system.host.virtualization:
        values[HOST_VIRT] = system.host.virtualization
    return values | {name: value.strip() for name, value in system.sysctls.items()}


def device_ids(device: Device) -> tuple[str | None, str | None]:
    """The serial and WWN a plan of ``device`` names (its udev rules match them): each as read when it is one
    (letters, digits and ``. _ : -``), else None, and the plan matches the device by its kernel name."""
    ids = compiled(SERIAL).fullmatch
    return (device.serial if device.serial and ids(device.serial) else None,
            device.wwn if device.wwn and ids(device.wwn) else None)  # fmt: skip


def context_for(kb: Kb, system: System, device: Device, user: Context) -> Context:
    """The advise context of one observed device: what was read, plus what only the user can say."""
    filesystems = {m.filesystem for m in kb.section("mount_options")}
    fs, mountpoint, options = _mount(system, device)
    serial, wwn = device_ids(device)
    values: dict[str, Any] = {field: getattr(user, field) for field in _USER_FIELDS}
    values |= {
        "hw": device.hw, "device": device.name, "kernel": system.host.kernel, "distro": system.host.distro,
        "io_path": device.io_path, "scheduler": device.scheduler if device.scheduler in kb.elevators else None,
        "offered": ",".join(device.schedulers) if device.schedulers else None,
        "serial": serial, "wwn": wwn,
        "hw_queues": str(device.nr_hw_queues) if device.nr_hw_queues else None,
        "cgroup": cgroup_layout(system.mounts),
    }  # fmt: skip
    if fs is not None and fs in filesystems:
        values |= {"fs": fs, "mountpoint": mountpoint, "mount_options": _known_options(kb, fs, options)}
    return Context(**{k: v for k, v in values.items() if v is not None})


def inferred_queues(kb: Kb, ctx: Context, device: Device, tuners: Sequence[Tuner],
                    current: Mapping[str, str]) -> Context:  # fmt: skip
    """``ctx`` with the queue count the elevator the device runs names, where it was not read (a capture without
    ``mq/``): when one count gives the device that elevator at boot and the other does not, on this host with its
    setters (udev rules, TuneD, boot parameters, the distribution's packages), the elevator is that count's, and
    the plan says so with this evidence. A disk whose elevator was changed by hand since boot can mislead it; so
    the plan's assumption names what it rests on."""
    if ctx.hw_queues is not None or device.scheduler is None or device.io_path != "blk-mq":
        return ctx
    cases = [(case, *boot_elevator(kb, ctx.replace(hw_queues=case.context), tuners, current))
             for case in runtime.QUEUES.cases]  # fmt: skip
    named = [(case, why) for case, boot, why in cases if boot == device.scheduler]
    if len(named) != 1:
        return ctx
    (case, why), reader = named[0], runtime.QUEUES.reader.replace("DEV", device.name)
    others = "; ".join(f"{c.seen} would give {boot or 'no elevator'}" for c, boot, _ in cases if c is not case)
    evidence = (
        f"not read ({reader} is not in what was read): {device.name} runs {device.scheduler}, which it "
        f"gets at boot with {case.seen} in mq/ ({why}), and {others}; unless it was changed by hand since boot"
    )
    return ctx.replace(hw_queues=case.context, hw_queues_from=evidence)


def package_rules(kb: Kb, system: System) -> tuple[Tuner, ...]:
    """The host's tuners, with the udev rules its distribution's packages install that take a value from the
    kernel command line (RHEL 8/9's 40-elevator.rules applies elevator= to every disk) where what was read does
    not hold that file: a capture often lacks /usr/lib/udev/rules.d, but the package is there."""
    distro = kb.get(system.host.distro) if system.host.distro else None
    if not isinstance(distro, Distribution):
        return system.tuners
    read = {basename(t.name.rsplit(":", 1)[0]) for t in system.tuners if t.kind == "udev"}
    tuners = list(system.tuners)
    for rule in distro.udev_rules:
        name = basename(rule.path)
        env = udev.cmdline_imports(rule.content, system.host.cmdline)
        reached = tuple(d.name for d in system.devices if rule.reaches(d.name))
        if name in read or not env or not reached:
            continue
        for number, line in udev.logical_lines(rule.content):
            if found := udev.rule_settings(line, env):
                tuner = Tuner(kind="udev", name=f"{rule.path}:{number}", settings=found, devices=reached)
                later = (i for i, t in enumerate(tuners) if t.kind not in _BEFORE_UDEV
                         and (t.kind != "udev" or basename(t.name) > name))  # fmt: skip
                tuners.insert(next(later, len(tuners)), tuner)
    return tuple(tuners)


def nearest_release(kb: Kb, host: Host) -> str | None:
    """What the plans of a host assume when the KB does not list its release and plans it as the nearest of its
    family (:func:`iosched.observe.classify.distro_id`), or None."""
    distro = kb.get(host.distro) if host.distro else None
    if distro is None or listed(host.os_release, distro.id, host.kernel):
        return None
    read = host.os_release.get("PRETTY_NAME") or " ".join(
        filter(None, (host.os_release.get("ID"), host.os_release.get("VERSION_ID")))
    )
    return f"{one_line(read)} is not in the KB: planned with the facts of {distro.name}, the nearest release it lists"


def plan_host(kb: Kb, system: System, user: Context, evidence: Evidence | None = None,
              only: Iterable[str] = (), plan: Callable[..., Plan] = advise) -> HostPlan:  # fmt: skip
    """A plan for every relevant device of ``system`` (or only the named ones); ``plan`` is advise, or a
    memoising stand-in for it. Raises PersistError when the user's ``persist`` cannot keep a plan here."""
    devices = {d.name: d for d in system.devices}
    tuners = package_rules(kb, system)
    wanted = set(only)
    plans: list[Plan] = []
    skipped: list[Skipped] = []
    for device in system.devices:
        if wanted and device.name not in wanted:
            continue
        rehearsed = user.rehearse is not None and device.name in wanted
        if rehearsed:
            empty = loops.unattached(device)
            skip = (f"{loops.UNATTACHED}; attach an image first: losetup -f --show IMAGE", False) if empty else None
        else:
            skip = _skip(kb, device, devices)
        if skip is not None:
            reason, uncovered = skip
            data = _unchecked_data(system, device) if uncovered else None
            skipped.append(Skipped(device=device.name, reason=reason, data=data))
            continue
        try:
            current = current_values(system, device)
            ctx = inferred_queues(kb, context_for(kb, system, device, user), device, tuners, current)
            plans.append(plan(kb, ctx, evidence, current, tuners))
        except ContextError as exc:
            skipped.append(Skipped(device=device.name, reason=str(exc), data=_unchecked_data(system, device)))
    host = {"hostname": system.host.hostname, "kernel": system.host.kernel, "distro": system.host.distro,
            "virtualization": system.host.virtualization, "arch": system.host.arch}  # fmt: skip
    if assumed := nearest_release(kb, system.host):
        host["distro_assumed"] = assumed
    return HostPlan(host=host, plans=tuple(plans), skipped=tuple(skipped), source=system.source)


# ------------------------------------------------------------------------------------------ verify


NOT_PLANNED = "not planned"
UNCHECKED = "not checked"
"""The status of a device skipped with file systems on it that no plan covers (its ``actual`` names them)."""
"""The setting of the row that stands for a skipped device: nothing of it was compared."""
NOTHING_PLANNED = "no change"
"""The setting of the row of a planned device whose plan changes nothing."""


class Row(Struct):
    device: str
    setting: str
    expected: str | None
    actual: str | None
    status: str
    """``ok``, ``differs`` or ``n/a`` (nothing to compare, never a failure)."""
    because: str


class Verification(Struct):
    """What ``iosched verify`` found: the host's plans and, per device and setting, whether the host agrees."""

    host: HostPlan
    rows: tuple[Row, ...]
    asked: tuple[str, ...] = ()
    """The devices the user named (``--device``): one that was not planned is not compliant."""

    def verdict(self) -> Verdict:
        return verdict(self.rows, self.asked)

    def compliant(self) -> bool:
        """At least one setting compared, none differing, and every device asked about planned."""
        return self.verdict().compliant


def _persist_row(system: System, plan: Plan, step: Step, device: str, required: bool) -> Row | None:
    """Is a change kept across reboots by our file, and would that file win over the other tuners?"""
    method, key = step.persist_method, kind_of(step).tuner_key(step)
    path = persist.location(method, plan.tuned, plan.device)
    setters = [t for t in system.tuners if t.active and key in t.settings and persist.concerns(t, step.device)]
    ours = next((t for t in setters if persist.is_ours(method, t, plan.tuned, plan.device)), None)
    if path is None or (ours is None and not required):
        return None
    winner = persist.overriding(method, step, system.tuners, plan.device)
    if ours is None or ours.settings[key] != step.value:
        actual, status = (ours.settings[key] if ours else "absent"), "differs"
    elif winner is not None:
        actual, status = f"{step.value}, but {winner.label()} sets {winner.settings[key]} later", "differs"
    else:
        actual, status = step.value, "ok"
    return Row(device=device, setting=f"persist {key}", expected=f"{path}: {step.shown}", actual=actual,
               status=status, because=", ".join(step.because))  # fmt: skip


def _lost_at_boot(system: System, plan: Plan, kept: Unchanged) -> bool:
    """Whether a setting the device has now would be lost at boot without iosched's file: the distribution and
    kernel give another value, or another tuner on the host (the last to act that sets it) does."""
    step = kept.step
    if kept.at_boot is not None and kept.at_boot != step.value:
        return True
    key = kind_of(step).tuner_key(step)
    others = [t for t in system.tuners if t.active and key in t.settings and persist.concerns(t, step.device)
              and not persist.is_ours(step.persist_method, t, plan.tuned, plan.device)]  # fmt: skip
    return bool(others) and persist.changes(others[-1].settings[key], step.value)


def _expected(system: System, step: Step, have: str | None) -> tuple[str | None, str]:
    """The value ``step`` wants on this device and why: for a step decided on the machine, its value in the case
    the device is in (None, with the reason, when what decides it was not read)."""
    decision = step.decide
    if decision is None:
        return step.value, ", ".join(step.because)
    device = system.device(step.device or "")
    index = runtime.case_of(decision, device.nr_hw_queues if device is not None else None)
    if index is None:
        return None, f"depends on {decision.reader}, which was not read here"
    choice = decision.choices[index]
    return (have if choice.value == runtime.KEEP else choice.value), ", ".join(choice.because) or "left as it is"


def verify(system: System, host: HostPlan) -> list[Row]:
    """Per device and setting: what the plan wants, what the system has, and whether they agree; then whether
    it is persisted: required where the value would be lost at boot, checked wherever our file sets it."""
    rows: list[Row] = []
    seen: set[tuple[str, str]] = set()
    for plan in host.plans:
        wanted = [(s, True) for s in plan.steps]
        wanted += [(u.step, _lost_at_boot(system, plan, u)) for u in plan.unchanged]
        for step, to_make in wanted:
            kind = kind_of(step)
            where, label = step.device or "host", kind.label(step)
            if (where, label) in seen:
                continue
            seen.add((where, label))
            have = kind.current(system, step)
            expected, because = _expected(system, step, have)
            status = "n/a" if have is None or expected is None else "ok" if have == expected else "differs"
            rows.append(Row(device=where, setting=label, expected=expected, actual=have, status=status,
                            because=because))  # fmt: skip
            if (persisted := _persist_row(system, plan, step, where, to_make)) is not None:
                rows.append(persisted)
    rows += [
        Row(
            device=p.device,
            setting=NOTHING_PLANNED,
            expected=None,
            actual=None,
            status="ok",
            because="planned: no rule changes this device",
        )
        for p in host.plans
        if not p.steps and not p.unchanged
    ]
    rows += [Row(device=s.device, setting=NOT_PLANNED, expected=None, actual=s.data,
                 status=UNCHECKED if s.data else "n/a", because=s.reason) for s in host.skipped]  # fmt: skip
    return rows


class Verdict(Struct):
    """What verify concludes: compliant only when something was compared, nothing differs, every device the
    user named was planned and no device with data on it was left unchecked."""

    compliant: bool
    compared: int
    differs: int
    unchecked: tuple[str, ...]
    """The devices the user named that were not planned, and those with data on them no plan covers."""
    text: str


def verdict(rows: Iterable[Row], asked: Iterable[str] = ()) -> Verdict:
    """The verdict on verify's rows; ``asked`` are the devices the user named. A device skipped with data on it
    that no plan covers is unchecked, named or not."""
    rows = list(rows)
    compared = sum(r.status in ("ok", "differs") for r in rows)
    differs = sum(r.status == "differs" for r in rows)
    named = set(asked)
    skipped = [r for r in rows if r.setting == NOT_PLANNED and (r.device in named or r.status == UNCHECKED)]
    unchecked = tuple(r.device for r in skipped)
    if skipped:
        text = "not checked: " + "; ".join(f"{r.device}" + (f" (holds {r.actual})" if r.actual else "") +
                                           f": {r.because}" for r in skipped)  # fmt: skip
        text += f"; {differs} setting(s) differ" if differs else ""
    elif differs:
        text = f"{differs} setting(s) differ"
    elif not compared:
        text = "nothing compared: no device of this host was planned"
    else:
        text = "compliant"
    ok = not unchecked and not differs and compared > 0
    return Verdict(compliant=ok, compared=compared, differs=differs, unchecked=unchecked, text=text)
