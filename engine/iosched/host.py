"""Plans for every device of an observed host, and how the host compares with them.

Pure: it takes a :class:`~iosched.system.model.System` (read from a live root, a capture or Ansible facts),
already classified (``host.distro`` and each ``device.hw`` filled), and the user's context for what a
system cannot show (workload, goal, cache). Each device's hardware, path and current values come from what
was read, never from defaults. Stacks are resolved: a dm-multipath device is planned and its paths left
alone; md, LVM and dm-crypt have no elevator, so their member disks are planned instead; partitions,
loop, zram, ram and optical devices are skipped, each with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from posixpath import basename
from typing import Any

from iosched import persist
from iosched.context import Context, ContextError, device_class
from iosched.engine import HOST_VIRT, advise
from iosched.evidence import Evidence
from iosched.grammar import MOUNT_POINT, SERIAL, compiled, device_name
from iosched.kb import Kb
from iosched.model import Distribution
from iosched.plan import Plan, Step, Unchanged
from iosched.steps import kind_of
from iosched.struct import Struct
from iosched.system import loops, udev
from iosched.system.model import Device, Mount, System, Tuner

_BEFORE_UDEV = ("kernel-cmdline", "sysctl.d")
_USER_FIELDS = ("workload", "goal", "cache", "symptoms", "persist", "rehearse")


class Skipped(Struct):
    device: str
    reason: str


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


def _skip_reason(kb: Kb, device: Device, devices: dict[str, Device]) -> str | None:
    """Why a device gets no plan of its own, or None when it does."""
    if loops.unattached(device):
        return loops.UNATTACHED
    if device.kind == "partition" or device.parent:
        return f"a partition: the scheduler belongs to the whole disk {device.parent or 'it is on'}"
    holders = [devices[h] for h in device.holders if h in devices]
    if any(_multipath(h) for h in holders):
        paths = ", ".join(h.name for h in holders if _multipath(h))
        return f"a path of the multipath device {paths}: the multipath device is planned, its paths are left alone"
    cls = device_class(kb, device.name)
    if cls is not None and cls.plan == "skip":
        return f"{cls.title}, not planned: {cls.note or 'nothing to tune'}"
    members = cls is not None and cls.plan == "members"
    if (device.kind == "dm" and not _multipath(device)) or device.kind == "md" or device.scheduler is None or members:
        disks = dict.fromkeys(_disks_under(device, devices))
        under = ", ".join(disks) or "its member disks"
        kind = cls.id if members and cls is not None else device.kind
        return f"no elevator of its own (bio-based {kind}): the disks under it ({under}) decide and are planned"
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
    """The whole disks a stacked device is built on (through partitions, LVM, dm-crypt, md)."""
    found: list[str] = []
    for name in device.slaves:
        below = devices.get(name)
        if below is None or depth > 8:
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


def _mount(system: System, device: Device) -> tuple[str | None, str | None, str | None]:
    """The file system, mount point and options a device carries: of the nearest mount on it or on anything
    stacked on it (a partition, an LV, a multipath map, md) whose mount point a plan can name (``/`` or a path
    of plain names); a data file system before ``/`` (the workload's own, where the device has one), ``/``
    before /boot, and never /boot when the device carries other mounts."""
    mounts: dict[str, list[Mount]] = {}
    for mount in system.mounts:
        mounts.setdefault(mount.device.removeprefix("/dev/"), []).append(mount)
    stacked = _stacked_on(system, device)
    known = {d.name for d in system.devices}
    names = [n for d in stacked for n in sorted(_mount_names(d))]
    names += [n for d in stacked for h in d.holders if h not in known for n in (h, f"mapper/{h}")]  # a dm name
    found = [m for name in names for m in mounts.get(name, [])]
    data = [m for m in found if not (m.mountpoint == "/boot" or m.mountpoint.startswith("/boot/"))]
    data.sort(key=lambda m: m.mountpoint == "/")
    chosen = next((m for m in data or found if compiled(MOUNT_POINT).fullmatch(m.mountpoint)), None)
    if chosen is None:
        return None, None, None
    return chosen.fstype, chosen.mountpoint, ",".join(chosen.options)


def current_values(system: System, device: Device) -> dict[str, str]:
    """What the device and the host have now, keyed as plans name settings."""
    values = {f"queue.{name}": value.strip() for name, value in device.queue.items()}
    if device.scheduler:
        values["scheduler"] = device.scheduler
        values |= {f"{device.scheduler}.{name}": value.strip() for name, value in device.iosched.items()}
    if system.host.virtualization:
        values[HOST_VIRT] = system.host.virtualization
    return values | {name: value.strip() for name, value in system.sysctls.items()}


def context_for(kb: Kb, system: System, device: Device, user: Context) -> Context:
    """The advise context of one observed device: what was read, plus what only the user can say."""
    filesystems = {m.filesystem for m in kb.section("mount_options")}
    fs, mountpoint, options = _mount(system, device)
    values: dict[str, Any] = {field: getattr(user, field) for field in _USER_FIELDS}
    values |= {
        "hw": device.hw, "device": device.name, "kernel": system.host.kernel, "distro": system.host.distro,
        "io_path": device.io_path, "scheduler": device.scheduler if device.scheduler in kb.elevators else None,
        "offered": ",".join(device.schedulers) if device.schedulers else None,
        "serial": device.serial if device.serial and compiled(SERIAL).fullmatch(device.serial) else None,
        "wwn": device.wwn if device.wwn and compiled(SERIAL).fullmatch(device.wwn) else None,
        "hw_queues": str(device.nr_hw_queues) if device.nr_hw_queues else None,
    }  # fmt: skip
    if fs in filesystems:
        values |= {"fs": fs, "mountpoint": mountpoint, "mount_options": options}
    return Context(**{k: v for k, v in values.items() if v is not None})


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
            reason = f"{loops.UNATTACHED}; attach an image first: losetup -f --show IMAGE" if empty else None
        else:
            reason = _skip_reason(kb, device, devices)
        if reason is not None:
            skipped.append(Skipped(device=device.name, reason=reason))
            continue
        try:
            ctx = context_for(kb, system, device, user)
            plans.append(plan(kb, ctx, evidence, current_values(system, device), tuners))
        except ContextError as exc:
            skipped.append(Skipped(device=device.name, reason=str(exc)))
    host = {"hostname": system.host.hostname, "kernel": system.host.kernel, "distro": system.host.distro,
            "virtualization": system.host.virtualization, "arch": system.host.arch}  # fmt: skip
    return HostPlan(host=host, plans=tuple(plans), skipped=tuple(skipped), source=system.source)


# ------------------------------------------------------------------------------------------ verify


NOT_PLANNED = "not planned"
"""The setting of the row that stands for a skipped device: nothing of it was compared."""


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
    return Row(device=device, setting=f"persist {key}", expected=f"{path}: {step.value}", actual=actual,
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
            status = "n/a" if have is None else "ok" if have == step.value else "differs"
            rows.append(Row(device=where, setting=label, expected=step.value, actual=have, status=status,
                            because=", ".join(step.because)))  # fmt: skip
            if (persisted := _persist_row(system, plan, step, where, to_make)) is not None:
                rows.append(persisted)
    rows += [Row(device=s.device, setting=NOT_PLANNED, expected=None, actual=None, status="n/a", because=s.reason)
             for s in host.skipped]  # fmt: skip
    return rows


class Verdict(Struct):
    """What verify concludes: compliant only when something was compared, nothing differs and every device the
    user named was planned."""

    compliant: bool
    compared: int
    differs: int
    unchecked: tuple[str, ...]
    """The devices the user named that were not planned (so not compared)."""
    text: str


def verdict(rows: Iterable[Row], asked: Iterable[str] = ()) -> Verdict:
    """The verdict on verify's rows; ``asked`` are the devices the user named."""
    rows = list(rows)
    compared = sum(r.status != "n/a" for r in rows)
    differs = sum(r.status == "differs" for r in rows)
    named = set(asked)
    skipped = [r for r in rows if r.setting == NOT_PLANNED and r.device in named]
    unchecked = tuple(r.device for r in skipped)
    if skipped:
        text = "not checked: " + "; ".join(f"{r.device}: {r.because}" for r in skipped)
    elif differs:
        text = f"{differs} setting(s) differ"
    elif not compared:
        text = "nothing compared: no device of this host was planned"
    else:
        text = "compliant"
    ok = not unchecked and not differs and compared > 0
    return Verdict(compliant=ok, compared=compared, differs=differs, unchecked=unchecked, text=text)
