"""The advise context: what the user said, validated, and the facts rules see (with assumptions).

Resolution decides, from the KB, the things people get wrong by hand: which class of device a kernel name
is (and whether it has an elevator at all), which block-layer path it is on with this kernel and
distribution, and which scheduler it really has before any change (the distribution's udev rules and
defaults included).
"""

from __future__ import annotations

from iosched.grammar import MOUNT_OPTIONS, MOUNT_POINT, SERIAL, compiled, device_name, glob_match
from iosched.hints import TypeVar
from iosched.kernel import KernelVersion
from iosched.knowledge import normalise
from iosched.knowledge import schema as model
from iosched.knowledge.base import Kb
from iosched.knowledge.schema import DeviceClass, Distribution, HardwarePreset, IoPathRow, Workload, shared
from iosched.records.plan import Assumption
from iosched.struct import Struct
from iosched.vocab import CACHES, GOALS, IO_PATHS, SYMPTOMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_E = TypeVar("_E")

PARTITION = r"(?P<disk>(?:sd|vd|xvd|hd)[a-z]+|(?:nvme\d+n\d+|mmcblk\d+)(?=p))p?\d+"


CGROUP_LAYOUTS = ("v1", "hybrid", "v2")
"""The cgroup hierarchies a host can mount (:attr:`iosched.knowledge.schema.Distribution.cgroup_default`)."""


class ContextError(ValueError):
    """A context the KB cannot resolve (unknown hardware, malformed kernel ...): exit 2 in the CLI."""


class Context(Struct):
    """What the user told advise; every field optional except ``hw``."""

    hw: str | None = None
    workload: str | None = None
    kernel: str | None = None
    distro: str | None = None
    device: str | None = None
    serial: str | None = None
    wwn: str | None = None
    cache: str | None = None
    fs: str | None = None
    mountpoint: str | None = None
    mount_options: str | None = None
    """The file system's current mount options, comma-separated (``rw,nobarrier``)."""
    goal: str | None = None
    io_path: str | None = None
    symptoms: str | None = None
    """What the user has seen, comma-separated (``dirty-stall``)."""
    hw_queues: str | None = None
    """How many hardware queues the device has (one directory each under ``/sys/block/DEV/mq/``), when known;
    ``several`` when only that is known."""
    hw_queues_from: str | None = None
    """How ``hw_queues`` was inferred, when it was not read (the elevator a device runs that only one queue count
    gives it at boot): the plan's assumption says so, with this evidence."""
    scheduler: str | None = None
    """The scheduler the device has now, when it was read from the system (it beats any default)."""
    rehearse: str | None = None
    """The hardware a scratch loop device is planned as (a rehearsal of the plan; see ``DeviceClass.rehearsal``)."""
    offered: str | None = None
    """The elevators the device's scheduler file lists, comma-separated, when read from the system (they beat
    what the KB says the kernel offers)."""
    cgroup: str | None = None
    """The cgroup hierarchy the host mounts (``v1``, ``hybrid``, ``v2``), when read from it or said by the user (it
    beats the release's default)."""
    persist: str | None = None
    """How to persist the plan: ``auto`` (nothing said), or the methods to use (``udev,sysctl``; see
    :func:`iosched.persist.method_for`)."""

    @classmethod
    def from_mapping(cls, data: object) -> Context:
        """A context from a parsed YAML/JSON mapping; unknown keys and non-scalar values are errors."""
        if not isinstance(data, dict):
            raise ContextError("a context file must hold a mapping such as {hw: ssd, workload: db}")
        unknown = sorted(str(k) for k in data if k not in cls.__fields__)
        if unknown:
            known = ", ".join(sorted(cls.__fields__))
            raise ContextError(f"unknown context key(s): {', '.join(unknown)}; known: {known}")
        values: dict[str, str] = {}
        for key, value in data.items():
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                raise ContextError(f"context key {key!r} must be a string, not {type(value).__name__}")
            text = str(value).strip()
            if not text:
                raise ContextError(f"context key {key!r} is empty")
            values[str(key)] = normalise.device(text) if key == "device" else text
        return cls(**values)

    def given(self) -> dict[str, str]:
        """The fields the user set, in declaration order."""
        return {name: value for name, value in self.fields() if value is not None}


class Resolved(Struct):
    """A context checked against the KB, with every fact the rules can see."""

    context: Context
    facts: dict[str, Any]
    kernel: KernelVersion
    io_path: str
    device: str
    device_class: DeviceClass | None
    hardware: HardwarePreset
    workload: Workload
    distribution: Distribution | None
    previous: str | None
    """The scheduler the device has before the plan: read from the system, else its real default."""
    previous_why: str
    offered: tuple[str, ...] = ()
    """The elevators the device can be given: read from the system, else its distribution's kernel, else upstream."""
    boot_default: str | None = None
    """The scheduler the device gets at boot with no tuning (the distribution's and kernel's default)."""
    assumptions: tuple[Assumption, ...] = ()

    @property
    def lineage(self) -> frozenset[str]:
        """The ids a KB scope may name the distribution by (:attr:`iosched.knowledge.schema.Distribution.lineage`); none
        without one."""
        return self.distribution.lineage if self.distribution is not None else frozenset()


def _choice(kind: str, value: str, valid: list[str] | tuple[str, ...], synonyms: dict[str, str] | None = None) -> str:
    """The member of ``valid`` that ``value`` spells (see :mod:`iosched.knowledge.normalise`), else a ContextError."""
    found = normalise.choice(value, valid, synonyms)
    if found is None:
        raise ContextError(normalise.unknown(kind, value, valid, synonyms or ()))
    return found


def _named(kb: Kb, kind: type[_E], ident: str) -> _E | None:
    """The entity of ``kind`` whose id ``ident`` is, exactly; only that entry is read."""
    found = kb.get(ident)
    if found is None or found.id != ident:
        return None
    return found if isinstance(found, kind) else None


def _distribution_id(kb: Kb, text: str) -> str:
    """The KB distribution id ``text`` names, as typed or as os-release spells it."""
    if isinstance(kb.get(text), Distribution):
        return text  # the id itself: only that entry is read (the distributions are the KB's largest section)
    where = kb.where or kb.id_sections()
    ids = [ident for ident, section in where.items() if section == "distributions"]
    found = normalise.distribution(text, lambda: kb.section("distributions"), ids)
    if found is None:
        raise ContextError(normalise.unknown("distribution", text, ids))
    return found


def check_ids(ctx: Context) -> None:
    """ContextError for a serial or WWN that is not one (they reach udev rules and TuneD profiles)."""
    for field, value in (("serial", ctx.serial), ("wwn", ctx.wwn)):
        if value is not None and not compiled(SERIAL).fullmatch(value):
            raise ContextError(f"refusing {field} {value!r}: letters, digits and . _ : - only")


def normalised(kb: Kb, ctx: Context) -> tuple[Context, list[Assumption]]:
    """``ctx`` with every value the KB's own spelling (:mod:`iosched.knowledge.normalise`), and a note for each workload
    named by a synonym; a ContextError with a "did you mean" for a value no vocabulary has."""
    changes: dict[str, str] = {}
    notes: list[Assumption] = []

    def pick(field: str, kind: str, valid: list[str] | tuple[str, ...]) -> None:
        value = getattr(ctx, field)
        if value is not None and (found := _choice(kind, value, valid)) != value:
            changes[field] = found

    if ctx.hw is not None and _named(kb, HardwarePreset, ctx.hw) is None:
        pick("hw", "hardware", [h.id for h in kb.section("hardware")])
    if ctx.rehearse is not None and _named(kb, HardwarePreset, ctx.rehearse) is None:
        pick("rehearse", "hardware", [h.id for h in kb.section("hardware")])
    if ctx.workload is not None and _named(kb, Workload, ctx.workload) is None:
        workloads = kb.section("workloads")
        found = _choice("workload", ctx.workload, [w.id for w in workloads], normalise.workload_synonyms(workloads))
        if found != ctx.workload:
            changes["workload"] = found
            if normalise.choice(ctx.workload, [found]) is None:
                workload = next(w for w in workloads if w.id == found)
                text = f"{ctx.workload!r} is the KB's {found} workload ({workload.title})"
                notes.append(Assumption(fact="workload", value=found, text=text, sources=tuple(workload.sources)))
    if ctx.distro is not None and (found := _distribution_id(kb, ctx.distro)) != ctx.distro:
        changes["distro"] = found
    if ctx.device is not None and (name := normalise.device(ctx.device)) != ctx.device:
        changes["device"] = name
    pick("cache", "cache", CACHES)
    pick("goal", "goal", GOALS)
    pick("io_path", "I/O path", IO_PATHS)
    if ctx.scheduler is not None:
        pick("scheduler", "scheduler", sorted(kb.elevator_names()))
    if ctx.fs is not None:
        pick("fs", "file system", sorted({m.filesystem for m in kb.section("mount_options")}))
    if ctx.symptoms is not None:
        symptoms = [_choice("symptom", s.strip(), SYMPTOMS) for s in ctx.symptoms.split(",") if s.strip()]
        if ",".join(symptoms) != ctx.symptoms:
            changes["symptoms"] = ",".join(symptoms)
    return (ctx.replace(**changes) if changes else ctx), notes


def _shared_facts(kb: Kb, distro: Distribution) -> Assumption:
    """What a release that takes its I/O facts from another (``facts_from``) assumes of itself."""
    base = kb.get(str(distro.facts_from))
    assert isinstance(base, Distribution), "kbcheck: facts_from names a distribution"
    words = shared(distro, base) or ["nothing"]
    taken = " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
    text = (f"{distro.name} (kernel {distro.kernel}) is planned with the {taken} of {base.name}, the nearest "
            "release whose files were read; this release's own were not")  # fmt: skip
    return Assumption(fact="distro.facts", value=base.id, text=text, sources=tuple(distro.sources))


def kb_assumption(kb: Kb, fact: str) -> model.Assumption | None:
    """The KB's assumption for ``fact`` (what advise assumes when the context does not say it), or None."""
    return next((item for item in kb.section("assumptions") if item.fact == fact), None)


def _assumption(kb: Kb, fact: str) -> Assumption:
    item = kb_assumption(kb, fact)
    if item is None:
        raise ContextError(f"no {fact} given and the KB has no assumption for it")
    return Assumption(fact=fact, value=str(item.value), text=item.text, sources=tuple(item.sources))


_CLASSES: dict[tuple[str, str], DeviceClass | None] = {}


def device_class(kb: Kb, device: str) -> DeviceClass | None:
    """The class of a whole device's kernel name (``vda`` is virtio-blk), or None when the KB has none for it."""
    key = (kb.version, device)
    if key not in _CLASSES:
        found = (c for c in kb.section("device_classes") if any(glob_match(device, p) for p in c.kernel_names))
        _CLASSES[key] = next(found, None)
    return _CLASSES[key]


def _check_device(kb: Kb, ctx: Context, hardware: HardwarePreset) -> DeviceClass | None:
    """Refuse a device name that is malformed, a partition, or a class of device that contradicts ``--hw``."""
    device = ctx.device
    if ctx.rehearse is not None:
        return _check_rehearsal(kb, ctx, hardware)
    if device is None:
        return device_class(kb, hardware.example_device)
    if not device_name(device):
        raise ContextError(f"refusing device name {device!r}: expected a kernel name such as sda, nvme0n1, dm-0")
    if device[-1].isdigit() and (part := compiled(PARTITION).fullmatch(device)):  # a partition's name ends so
        raise ContextError(f"{device} is a partition; the scheduler belongs to the whole disk {part['disk']}")
    cls = _refuse_unplanned(kb, device)
    if cls is None:
        return None
    if cls.has_elevator == "multipath-only" and hardware.id not in cls.hardware:
        raise ContextError(_members_error(device, cls))
    if cls.hardware and hardware.id not in cls.hardware:
        valid = ", ".join(cls.hardware)
        raise ContextError(f"{device} is a {cls.title}, which --hw {hardware.id} contradicts; use --hw {valid}")
    return cls


def _refuse_unplanned(kb: Kb, device: str) -> DeviceClass | None:
    """The class of a whole device's name; refused with its reason when iosched plans nothing on such a device
    (a loop device, a hidden NVMe path) or plans its members instead (md, bcache)."""
    cls = device_class(kb, device)
    if cls is not None and cls.plan == "skip":
        hint = f" To try a plan on it: --device {device} --rehearse HW ({_rehearsable(kb)})" if cls.rehearsal else ""
        raise ContextError(f"{device} is a {cls.title}: nothing to tune there. {cls.note or ''}".strip() + hint)
    if cls is not None and cls.plan == "members":
        raise ContextError(_members_error(device, cls))
    return cls


def _members_error(device: str, cls: DeviceClass) -> str:
    return (
        f"{device} is a {cls.title} with no elevator of its own (bio-based): plan its member or physical disks "
        f"(iosched advise --device sdX ...), or plan them all with iosched advise --probe"
    )


def _rehearsable(kb: Kb) -> str:
    return ", ".join(h.id for h in kb.section("hardware"))


def _check_rehearsal(kb: Kb, ctx: Context, hardware: HardwarePreset) -> DeviceClass:
    """A rehearsal plans a scratch device (a loop device) as if it were ``--rehearse HW``; nothing else."""
    device = ctx.device
    if device is None:
        raise ContextError("--rehearse needs the scratch device: --device loopN (losetup -f --show IMAGE)")
    cls = device_class(kb, device) if device_name(device) else None
    if cls is None or not cls.rehearsal:
        raise ContextError(f"--rehearse plans a scratch loop device, and {device} is not one: plan it with --hw")
    return cls


def vendor_capability(distro: Distribution | None, hardware: HardwarePreset, device: str,
                      kernel: KernelVersion) -> IoPathRow | None:  # fmt: skip
    """The distribution's statement of this device's path and offered elevators on its own kernel (same major and
    minor version as the release's), or None where upstream holds: the one place vendor backports are read."""
    if distro is None or kernel[:2] != distro.kernel[:2]:
        return None
    rotational = bool(hardware.facts.get("hw.rotational"))
    rows = [row for row in distro.io_paths if row.match.matches(hardware.id, device, rotational)]
    return max(rows, key=lambda row: row.match.specificity, default=None)


def _io_path(kb: Kb, hardware: HardwarePreset, cls: DeviceClass | None, kernel: KernelVersion,
             distro: Distribution | None, vendor: IoPathRow | None) -> tuple[str, str]:  # fmt: skip
    """The block-layer path of this device on this kernel, and why."""
    legacy_gone = max((until for _, path, _, until, _ in kb.elevator_facts() if path == "legacy" and until),
                      default=None)  # fmt: skip
    if cls is not None and cls.has_elevator == "never":
        return "bio", f"a {cls.title} is bio-based: it has no request queue and no elevator"
    if vendor is not None and distro is not None:
        return vendor.io_path, f"{distro.name}: {vendor.devices} are on {vendor.io_path}"
    if legacy_gone and kernel >= legacy_gone:
        return "blk-mq", f"the legacy block layer is gone since {legacy_gone}"
    since = cls.blk_mq_since if cls is not None and not cls.scsi else hardware.blk_mq_since
    title = cls.title if cls is not None and not cls.scsi else hardware.title
    scsi = cls.scsi if cls is not None else hardware.scsi
    if scsi and distro is not None and kernel[:2] == distro.kernel[:2]:
        path = "blk-mq" if distro.scsi_blk_mq else "legacy"
        return path, f"{distro.name} {'enables' if distro.scsi_blk_mq else 'does not enable'} scsi-mq by default"
    if since and kernel >= since:
        return "blk-mq", f"{title} uses blk-mq since {since}"
    if scsi or "legacy" in hardware.default_elevator or (cls is not None and cls.id != "nvme-namespace"):
        return "legacy", f"{title} uses the legacy single-queue path before {since}"
    return "bio", f"{title} bypasses the request queue (no elevator) before {since}"


def offered_elevators(kb: Kb, io_path: str, kernel: KernelVersion, vendor: IoPathRow | None,
                      read: str | None = None) -> tuple[str, ...]:  # fmt: skip
    """The elevators a device on ``io_path`` can be given: its scheduler file as read, else what its
    distribution's kernel offers there, else what the upstream kernel offers."""
    if io_path == "bio":
        return ()
    if read is not None:
        known = set(kb.elevator_names())
        return tuple(name for name in (n.strip() for n in read.split(",")) if name in known)
    if vendor is not None and vendor.io_path == io_path and vendor.offered:
        return vendor.offered
    return tuple(kb.offered_on(kernel, io_path))


def resolve_alias(kb: Kb, name: str, offered: tuple[str, ...]) -> str:
    """The elevator a name selects among those offered: ``deadline`` written on blk-mq selects mq-deadline."""
    if name in offered:
        return name
    aliases = {elevator: aliases for elevator, _, _, _, aliases in kb.elevator_facts()}
    return next((e for e in offered if name in aliases[e]), name)


def default_scheduler(kb: Kb, hardware: HardwarePreset, device: str, io_path: str, kernel: KernelVersion,
                      distro: Distribution | None, offered: tuple[str, ...], queues: int | None = None,
                      known: bool | None = None) -> tuple[str | None, str]:  # fmt: skip
    """The scheduler a device gets with no tuning, and why: the most specific default of the distribution
    that applies (udev rules before driver and kernel defaults), else the kernel's default for the hardware
    and, where it is known, its number of hardware queues (several give none, as elevator_get_default(), unless
    the driver requires an elevator on this kernel, as zoned devices did before 6.10)."""
    if io_path == "bio":
        return None, "the device has no elevator"
    required = hardware.required_on(io_path, kernel)
    several = (io_path == "blk-mq" and bool(known) and required is None
               and not hardware.facts.get("hw.intelligent"))  # fmt: skip
    several_why = f"the kernel gives none to a device with {queues or 'several'} hardware queues (elevator_get_default)"
    if distro is not None:
        rotational = bool(hardware.facts.get("hw.rotational"))
        rows = [row for row in distro.default_schedulers
                if row.applies(hardware.id, device, rotational, io_path, kernel, known)]  # fmt: skip
        if rows:
            row = max(rows, key=lambda row: row.precedence)
            if several and row.via in ("kernel", "kconfig"):
                return "none", several_why
            name = resolve_alias(kb, row.elevator, offered)
            return name, f"{distro.name}: {row.devices} get {row.elevator} ({row.via})"
    default = hardware.kernel_default(io_path, kernel)
    if default not in offered and "none" in offered and io_path == "blk-mq":
        return "none", f"kernel {kernel} has no blk-mq schedulers but none"
    if several:
        return "none", several_why
    if required is not None:
        return default, f"kernel {kernel} requires {default} for a {hardware.title} on {io_path}"
    return default, f"the kernel's default for a {hardware.title} on {io_path}"


SEVERAL = "several"
"""``hw_queues`` when the device has more than one hardware queue and the count is not known."""


def _queues(value: str | None) -> tuple[int | None, bool | None]:
    """The number of hardware queues given in a context, checked, and whether there are several (None: not
    known)."""
    if value is None:
        return None, None
    if value == SEVERAL:
        return None, True
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise ContextError(f"refusing hw_queues {value!r}: a whole number from 1 to 65535, or several "
                           "(ls /sys/block/DEV/mq/)")  # fmt: skip
    return int(value), int(value) > 1


def resolve(kb: Kb, ctx: Context) -> Resolved:
    """Check ``ctx`` against the KB and compute the facts; what is missing is assumed from the KB."""
    if ctx.rehearse is not None and ctx.hw is None:
        ctx = ctx.replace(hw=ctx.rehearse)
    if ctx.hw is None and ctx.device is not None and device_name(ctx.device):
        _refuse_unplanned(kb, ctx.device)
    if ctx.hw is None:
        raise ContextError(f"no hardware given (--hw); valid: {', '.join(h.id for h in kb.section('hardware'))}")
    ctx, assumed = normalised(kb, ctx)
    if ctx.rehearse is not None and ctx.rehearse != ctx.hw:
        raise ContextError(f"--hw {ctx.hw} contradicts --rehearse {ctx.rehearse}: a rehearsal plans as one hardware")
    hardware = _named(kb, HardwarePreset, str(ctx.hw))
    if ctx.workload is None:
        assumed.append(_assumption(kb, "workload"))
    workload = _named(kb, Workload, ctx.workload or str(assumed[-1].value))
    assert hardware is not None and workload is not None, "normalised() checked both ids"
    distro = kb.get(ctx.distro) if ctx.distro else None
    if distro is not None and distro.facts_from:
        assumed.append(_shared_facts(kb, distro))
    try:
        if ctx.kernel is not None:
            kernel = KernelVersion.parse(ctx.kernel)
        elif distro is not None:
            kernel = distro.kernel
            why = f"the default kernel of {distro.name}"
            assumed.append(Assumption(fact="kernel", value=str(kernel), text=why, sources=tuple(distro.sources)))
        else:
            assumed.append(_assumption(kb, "kernel"))
            kernel = KernelVersion.parse(str(assumed[-1].value))
    except ValueError as exc:
        raise ContextError(str(exc)) from None
    check_ids(ctx)
    if ctx.mountpoint is not None and not compiled(MOUNT_POINT).fullmatch(ctx.mountpoint):
        raise ContextError(f"refusing mount point {ctx.mountpoint!r}: / or an absolute path of plain names")
    if ctx.mount_options is not None and not compiled(MOUNT_OPTIONS).fullmatch(ctx.mount_options):
        raise ContextError(f"refusing mount options {ctx.mount_options!r}: words separated by commas")
    cls = _check_device(kb, ctx, hardware)
    device = ctx.device or hardware.example_device
    if ctx.device is None:
        assumed.append(Assumption(fact="device", value=device, text=f"an example {hardware.title} name; pass --device"))
    vendor = vendor_capability(distro, hardware, device, kernel)
    if ctx.io_path is not None:
        io_path = ctx.io_path
    else:
        io_path, why = _io_path(kb, hardware, cls, kernel, distro, vendor)
        sources = tuple(vendor.sources if vendor else cls.sources if cls is not None else hardware.sources)
        assumed.append(Assumption(fact="io_path", value=io_path, text=why, sources=sources))
    cache = ctx.cache
    if cache is None:
        assumed.append(_assumption(kb, "cache"))
        cache = str(assumed[-1].value)
    queues, several = _queues(ctx.hw_queues)
    if ctx.hw_queues_from is not None and ctx.hw_queues is not None:
        assumed.append(Assumption(fact="hw_queues", value=ctx.hw_queues, text=ctx.hw_queues_from,
                                  sources=("linux-elevator-c-default",)))  # fmt: skip
    offered = offered_elevators(kb, io_path, kernel, vendor, ctx.offered)
    boot_default, boot_why = default_scheduler(kb, hardware, device, io_path, kernel, distro, offered, queues,
                                               several)  # fmt: skip
    if ctx.scheduler is not None:
        previous: str | None = ctx.scheduler
        previous_why = "read from the system"
    else:
        previous, previous_why = boot_default, boot_why
    options = tuple(o.strip() for o in (ctx.mount_options or "").split(",") if o.strip())
    facts: dict[str, Any] = {
        **{k: v for k, v in hardware.facts.items() if v is not None},
        **{k: v for k, v in workload.facts.items() if v is not None},
        "hw": hardware.id,
        "workload": workload.id,
        "goal": ctx.goal or workload.goal,
        "kernel": str(kernel),
        "io_path": io_path,
        "cache": cache,
    }
    if queues is not None:
        facts["hw.queues"] = queues
    if several is not None:
        facts["hw.multiqueue"] = several
    elif cls is not None and cls.queues_vary and io_path == "blk-mq":  # not the preset's to say: decided on the machine
        facts.pop("hw.multiqueue", None)
    if cls is not None:
        facts["device.class"] = cls.id
    if ctx.rehearse is not None:
        facts["device.rehearsal"] = True
    if previous is not None:
        facts["scheduler.now"] = previous
    if ctx.scheduler == "noop":
        facts["noop.named"] = True
    if ctx.fs is not None:
        facts["fs"] = ctx.fs
    for symptom in (s.strip() for s in (ctx.symptoms or "").split(",") if s.strip()):
        facts["symptom." + symptom.replace("-", "_")] = True
    if options:
        off = {o.option for o in kb.section("mount_options") if o.disables_barriers}
        facts["mount.barriers"] = not off.intersection(options)
    if distro is not None:
        facts["distro"] = distro.id
        facts["distro.family"] = distro.family
        facts["distro.udev_elevator_param"] = distro.elevator_param_rule is not None
        if distro.cgroup_default is not None:
            facts["cgroup.version"] = distro.cgroup_default
        if distro.nvme_multipath is not None:
            facts["distro.nvme_multipath"] = distro.nvme_multipath
    if ctx.cgroup is not None:
        if ctx.cgroup not in CGROUP_LAYOUTS:
            raise ContextError(f"refusing cgroup {ctx.cgroup!r}: one of {', '.join(CGROUP_LAYOUTS)} "
                               "(stat -fc %T /sys/fs/cgroup: cgroup2fs is v2; tmpfs is v1, or hybrid beside "
                               "/sys/fs/cgroup/unified)")  # fmt: skip
        facts["cgroup.version"] = ctx.cgroup
    return Resolved(
        context=ctx, facts=facts, kernel=kernel, io_path=io_path, device=device, device_class=cls,
        hardware=hardware, workload=workload, distribution=distro, previous=previous, previous_why=previous_why,
        offered=offered, boot_default=boot_default, assumptions=tuple(assumed),
    )  # fmt: skip


def facts_for_example(kb: Kb, example: dict[str, Any]) -> dict[str, Any]:
    """The facts a rule example's context resolves to (``measured.best`` may be given directly)."""
    data = dict(example)
    best = data.pop("measured.best", None)
    facts = resolve(kb, Context.from_mapping(data)).facts
    if best is not None:
        facts["measured.best"] = _choice("scheduler", str(best), sorted(kb.elevator_names()))
    return facts
