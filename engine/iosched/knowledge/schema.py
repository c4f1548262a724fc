"""The KB schema: every YAML entity is one of these Structs, declared once, or, for the kinds no plan is made of
(topics, evidence, causes ...), one of :mod:`iosched.knowledge.catalogue`.

Fields are class annotations; :mod:`iosched.knowledge.validate` derives strict, closed pydantic models from them at KB
load time and runs every ``check``. Values that can reach a command, a comment or a generated file carry a
closed grammar (:mod:`iosched.grammar`). Kernel versions are :class:`~iosched.kernel.KernelVersion`, compared
as versions, and every kernel range is a :class:`KernelRange`, checked in one place.
"""

from __future__ import annotations

from iosched.grammar import (
    GLOB,
    ID,
    MOUNT_OPTIONS,
    MOUNT_POINT,
    PATH,
    TEXT,
    URL,
    WORD,
    Constrain,
    glob_match,
    link_problem,
    matches,
)
from iosched.hints import Annotated, Literal
from iosched.kernel import KernelVersion, in_range
from iosched.knowledge.rules import Action, Condition, RuleExample
from iosched.struct import Invalid, Struct
from iosched.vocab import ElevatorPath, Goal, IoPath, Risk, Severity, Unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar

Id = Annotated[str, Constrain(ID)]
Word = Annotated[str, Constrain(WORD)]
Glob = Annotated[str, Constrain(GLOB)]
Path = Annotated[str, Constrain(PATH)]
Url = Annotated[str, Constrain(URL)]
Text = Annotated[str, Constrain(TEXT, strip=True, check=link_problem)]
Value = bool | int | float | str | None
ContextValue = Annotated[str, Constrain(rf"{MOUNT_POINT}|{MOUNT_OPTIONS}")]
"""What a user may say of a context: a word, words separated by commas (mount options), or a path."""
Number = int | float


# ------------------------------------------------------------------------------------------ shared shapes


class Sourced(Struct):
    """A fact: it names at least one source."""

    sources: tuple[Id, ...]

    def check(self) -> None:
        if not self.sources:
            raise Invalid("sources: name at least one source", "KB011")


class KernelRange(Struct):
    """Where something exists or holds: ``since`` is the first kernel with it, ``until`` the first without."""

    since: KernelVersion | None = None
    until: KernelVersion | None = None

    def check(self) -> None:
        if self.since and self.until and self.until <= self.since:
            raise Invalid(f"kernel range: until {self.until} is not after since {self.since}", "KB013")

    def holds_on(self, kernel: KernelVersion) -> bool:
        return in_range(kernel, self.since, self.until)


class Scope(KernelRange):
    """Where a value or statement holds: distributions, a kernel range, other conditions. ``condition`` says it in
    words; ``when`` says what of it the advise facts can decide (a rotational disk), in the rules' language."""

    distributions: tuple[Id, ...] = ()
    condition: Text | None = None
    when: Condition | None = None


class ScopedValue(Sourced):
    """A value that holds within a scope (a distribution, a kernel range, a CONFIG_HZ)."""

    value: Value
    scope: Scope
    note: Text | None = None


class Range(Struct):
    min: Number | None = None
    max: Number | None = None

    def accepts(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


class Setting(Sourced, KernelRange):
    """Common shape of anything with a value: tunables, queue attributes, sysctls, cgroup files."""

    name: Id
    summary: Text
    details: Text | None = None
    unit: Unit
    default: Value
    default_note: Text | None = None
    defaults: tuple[ScopedValue, ...] = ()
    range: Range | None = None
    choices: tuple[Word, ...] = ()
    writable: bool = True
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    def check(self) -> None:
        if self.range and isinstance(self.default, int | float) and not self.range.accepts(self.default):
            raise Invalid(f"default {self.default!r} is outside range {self.range.min}..{self.range.max}")
        if self.choices and isinstance(self.default, str) and self.default not in self.choices:
            raise Invalid(f"default {self.default!r} is not one of {list(self.choices)}")
        if self.writable and isinstance(self.default, str) and not matches(WORD, self.default):
            raise Invalid(f"default {self.default!r} of a writable setting is not a plain word", "KB014")

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is a valid setting (range, choices and the value grammar)."""
        if self.unit == "bool":
            return value in (0, 1) and not isinstance(value, float)
        if self.choices:
            return value in self.choices
        if self.range:
            return self.range.accepts(value)
        if isinstance(value, str):
            return matches(WORD, value)
        return isinstance(value, int | float) and not isinstance(value, bool)


# ------------------------------------------------------------------------------------------ elevators


class Tunable(Setting):
    """A file in ``queue/iosched/`` of one elevator."""

    jiffies: bool = False
    twin: Id | None = None


class IoPriority(Sourced):
    support: Literal["full", "class-only", "none"]
    since: KernelVersion | None = None
    note: Text | None = None


class Elevator(Sourced, KernelRange):
    name: Id
    title: Text
    io_path: ElevatorPath
    summary: Text
    purpose: Text
    description: Text | None = None
    equivalent: Id | None = None
    aliases: tuple[Id, ...] = ()
    kconfig: Id | None = None
    ioprio: IoPriority
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()
    tunables: tuple[Tunable, ...] = ()

    @property
    def id(self) -> str:
        return self.name

    def check(self) -> None:
        if self.since is None:
            raise Invalid("since: the first kernel with this elevator is required", "KB011")
        names = [t.name for t in self.tunables]
        if len(names) != len(set(names)):
            raise Invalid("tunable names repeat")


class QueueAttribute(Setting):
    @property
    def id(self) -> str:
        return f"queue.{self.name}"


class Sysctl(Setting):
    pairs_with: Id | None = None

    @property
    def id(self) -> str:
        return self.name


# ------------------------------------------------------------------------------------------ boot and mount


class Effect(Sourced, KernelRange):
    """What a parameter or option does within a kernel range."""

    effect: Literal["works", "legacy-only", "no-op", "warns", "removed", "fails"]
    text: Text


class BootParameter(Sourced):
    name: Id
    summary: Text
    values: tuple[Word, ...] = ()
    effects: tuple[Effect, ...]
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    @property
    def id(self) -> str:
        return self.name

    def check(self) -> None:
        if not self.effects:
            raise Invalid("effects: give at least one", "KB011")


class MountOption(Sourced):
    filesystem: Id
    option: Id
    summary: Text
    disables_barriers: bool = False
    restores_barriers: bool = False
    default: bool = False
    effects: tuple[Effect, ...] = ()
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.filesystem}.{self.option}"


# ------------------------------------------------------------------------------------------ distributions


class DeviceMatch(Struct):
    """Which devices a default applies to; an omitted field matches any device, every given field must hold.

    ``hardware`` names KB hardware presets, ``kernel_names`` are globs on the kernel name in udev's KERNEL==
    syntax (``sd*[!0-9]``, ``vd*``, ``mmcblk*``), ``rotational`` is the value of queue/rotational, ``queues``
    whether the device has one hardware queue or several (as a udev rule tells them apart: ``TEST!="%S%p/mq/1"``).
    """

    hardware: tuple[Id, ...] = ()
    kernel_names: tuple[Glob, ...] = ()
    rotational: bool | None = None
    queues: Literal["one", "several"] | None = None

    @property
    def specificity(self) -> int:
        """How many fields narrow the match; among rows of one mechanism the narrower match wins."""
        return bool(self.hardware) + bool(self.kernel_names) + (self.rotational is not None) + bool(self.queues)

    def matches(self, hardware: str, name: str, rotational: bool, several: bool | None = None) -> bool:
        """True when a device of preset ``hardware`` called ``name`` with this rotational flag is covered; a
        queue count not known (``several`` None) does not rule a row out."""
        return (
            (not self.hardware or hardware in self.hardware)
            and (not self.kernel_names or any(glob_match(name, glob) for glob in self.kernel_names))
            and (self.rotational is None or self.rotational == rotational)
            and (self.queues is None or several is None or several == (self.queues == "several"))
        )


class DefaultScheduler(Sourced, KernelRange):
    """How a distribution (or kernel) picks the elevator for a class of device.

    A row applies to a device when its io_path is the device's path, the kernel is in [since, until) and
    ``match`` covers the device. Of the applicable rows, the one with the highest ``precedence`` is what the
    device really has: first by mechanism, because later steps of boot overwrite earlier ones (TuneD beats a
    udev rule, a udev rule beats the driver, the driver beats the kernel's built-in or Kconfig default), then by
    the narrower ``match`` (a row without one is the broadest). Rows that can apply to one device with equal
    precedence name the same elevator (``kb check`` code KB111).
    """

    VIA_RANK: ClassVar[dict[str, int]] = {"kernel": 0, "kconfig": 0, "driver": 1, "udev": 2, "tuned": 3}

    devices: Text
    match: DeviceMatch | None = None
    elevator: Id
    via: Literal["kernel", "kconfig", "udev", "driver", "tuned"]
    io_path: ElevatorPath
    note: Text | None = None

    @property
    def precedence(self) -> tuple[int, int]:
        return self.VIA_RANK[self.via], self.match.specificity if self.match else 0

    def applies(self, hardware: str, name: str, rotational: bool, io_path: str, kernel: KernelVersion,
                several: bool | None = None) -> bool:  # fmt: skip
        """True when this row covers the device on this path and kernel (and queue count, where known)."""
        return (
            self.io_path == io_path
            and self.holds_on(kernel)
            and (self.match is None or self.match.matches(hardware, name, rotational, several))
        )


class IoPathRow(Sourced):
    """The block-layer path a distribution's own kernel puts a class of device on, and the elevators its scheduler
    file offers there: vendor kernels backport, so the upstream version a kernel is named after does not say it
    (RHEL 7's 3.10 kernel runs virtio-blk and NVMe on blk-mq, whose scheduler file offers only none).

    Of the rows that match a device, the narrowest ``match`` holds; a device no row matches follows upstream.
    """

    devices: Text
    match: DeviceMatch
    io_path: IoPath
    offered: tuple[Id, ...] = ()
    """What queue/scheduler lists on that path; empty: what upstream offers on the kernel (or nothing on bio)."""
    note: Text | None = None


class UdevRuleFile(Sourced):
    path: Path
    content: Text
    note: Text | None = None

    @property
    def skipped(self) -> tuple[str, ...]:
        """Kernel-name globs the file jumps past (``KERNEL=="dm-*|md*", GOTO="..."``): devices it never sets."""
        rules = (line.strip() for line in self.content.splitlines() if "GOTO=" in line)
        return tuple(g for line in rules if line.startswith('KERNEL=="') and line.count('"') == 4
                     for g in line.split('"')[1].split("|"))  # fmt: skip

    def reaches(self, device: str) -> bool:
        return not any(glob_match(device, g) for g in self.skipped)


GrubUpdate = Literal["update-grub", "grub2-mkconfig -o /boot/grub2/grub.cfg", "grub2-mkconfig -o /boot/grub/grub.cfg"]


class BootLoader(Sourced):
    """The boot loader of an architecture that does not boot with the distribution's GRUB (IBM Z: zipl).

    ``config`` holds the kernel command line and ``update`` must run after it changes (zipl rewrites the boot
    record); ``edit`` is the command that adds a parameter where the file is not edited by hand (grubby for Boot
    Loader Specification entries; PARAMETER stands for the parameter).
    """

    arch: Literal["s390x"]
    name: Literal["zipl", "grub2"]
    config: Path
    update: Literal["zipl", "grub2-mkconfig -o /boot/grub2/grub.cfg"]
    edit: Literal["grubby --update-kernel=ALL --args=PARAMETER"] | None = None
    note: Text | None = None


class Distribution(Sourced):
    id: Id
    name: Text
    family: Literal["sles", "opensuse", "rhel", "fedora", "ubuntu", "debian", "amazon"]
    kernel: KernelVersion
    scsi_blk_mq: bool
    """SCSI disks use blk-mq by default."""
    default_schedulers: tuple[DefaultScheduler, ...] = ()
    io_paths: tuple[IoPathRow, ...] = ()
    """Classes of device whose path or offered elevators on this release differ from the upstream kernel's."""
    udev_rules: tuple[UdevRuleFile, ...] = ()
    grub_update: GrubUpdate | None = None
    grub_legacy_config: Path | None = None
    boot_loaders: tuple[BootLoader, ...] = ()
    """Architectures that boot another way (IBM Z); the GRUB fields hold for the others."""
    persistence: tuple[Id, ...] = ()
    notes: tuple[Text, ...] = ()
    nvme_multipath: bool | None = None
    """The default of nvme_core.multipath on the release's kernel: true (native multipathing: a namespace shared by
    several controllers is one bio-based nvmeXnY head over hidden paths nvmeXcYnZ), false (one nvmeXnY per
    controller, which DM Multipath maps into a dm-N device that schedules I/O); None where no source states it."""
    cgroup_default: Literal["v1", "hybrid", "v2"] | None = None
    """The cgroup hierarchy systemd mounts by default: v1 (legacy), hybrid (the controllers, blkio among them, on v1
    and only systemd's own tree on v2) or v2; None where no source states it. Where the io controller is decides
    which io.* or blkio.* files exist."""
    facts_from: Id | None = None
    """The release of the same family whose default schedulers, I/O paths, udev rules, boot loaders, persistence
    methods and cgroup hierarchy this one shares where it states none of its own: a service pack whose own files
    were not read names the nearest one that was. Its own name, kernel, ``scsi_blk_mq`` and GRUB command stand; a
    plan on it says what it takes from the other (see :func:`inherited`)."""

    @property
    def lineage(self) -> frozenset[str]:
        """The ids a scope may name this release by: its own, and the release it takes its facts from."""
        return frozenset((self.id, self.facts_from) if self.facts_from else (self.id,))

    @property
    def elevator_param_rule(self) -> UdevRuleFile | None:
        """The shipped udev rule file that writes elevator= from the kernel command line to disks as they are
        added (RHEL 8/9's 40-elevator.rules), so the parameter works where the kernel ignores it; else None."""
        return next((r for r in self.udev_rules if 'IMPORT{cmdline}="elevator"' in r.content
                     and 'ATTR{queue/scheduler}="$env{elevator}"' in r.content), None)  # fmt: skip

    def check(self) -> None:
        if (self.grub_update is None) == (self.grub_legacy_config is None):
            raise Invalid("give exactly one of grub_update (GRUB 2) and grub_legacy_config (GRUB legacy)")
        arches = [b.arch for b in self.boot_loaders]
        if len(arches) != len(set(arches)):
            raise Invalid("boot_loaders name an architecture twice")


INHERITED = {
    "default_schedulers": "default schedulers",
    "io_paths": "I/O paths",
    "udev_rules": "udev rules",
    "boot_loaders": "boot loaders",
    "persistence": "persistence methods",
    "cgroup_default": "cgroup hierarchy",
    "nvme_multipath": "NVMe multipath default",
}
"""What a release with ``facts_from`` takes from the release it names, where it leaves the field empty, in words."""


def inherited(distro: Distribution, base: Distribution) -> Distribution:
    """``distro`` with each of the :data:`INHERITED` fields it leaves empty taken from ``base``."""
    return distro.replace(**{f: getattr(base, f) for f in INHERITED if getattr(distro, f) in ((), None)})


def shared(distro: Distribution, base: Distribution) -> list[str]:
    """The :data:`INHERITED` facts ``distro`` holds as ``base`` states them, in words."""
    return [words for f, words in INHERITED.items() if getattr(distro, f) not in ((), None)
            and getattr(distro, f) == getattr(base, f)]  # fmt: skip


# ------------------------------------------------------------------------------------------ caveats and evidence


class Caveat(Sourced):
    id: Id
    title: Text
    risk: Risk
    text: Text
    summary: Text | None = None
    """One or two sentences for a ticket answer, which links to the full text."""
    scope: Scope | None = None
    related: tuple[Id, ...] = ()
    subject: Condition | None = None
    """What the caveat is about, in the rules' language over the plan's facts and what the plan does
    (``plan.targets``, ``plan.persist``, ``host.*``): it is shown only where its subject is present in this host
    or plan (a barrier-off mount, a step that sets read-ahead, elevator= on the command line). ``kb check``
    refuses a caveat without one (KB117)."""


class Source(Struct):
    id: Id
    title: Text
    type: Literal["kernel-source", "kernel-doc", "vendor-doc", "seed", "mailing-list", "article",
                  "tool", "live-system", "manual"]  # fmt: skip
    url: Url | None = None
    path: Text | None = None
    """Where to find it when there is no URL: a file in a repository, a live system's description."""
    publisher: Text | None = None
    date: Text | None = None
    version: Text | None = None
    note: Text | None = None
    quotes: tuple[Text, ...] = ()
    """Verbatim lines of the source that KB facts copy numbers from (whitespace collapsed)."""
    sources: ClassVar[tuple[str, ...]] = ()

    def check(self) -> None:
        if not (self.url or self.path):
            raise Invalid("a source needs a url or a path", "KB011")


# ------------------------------------------------------------------------------------------ engine inputs


UdevKey = Literal["KERNEL", "SUBSYSTEM", "ENV{DEVTYPE}", "ATTR{queue/rotational}", "ATTR{queue/zoned}",
                  "ENV{DM_UUID}", "ENV{ID_SERIAL}", "ENV{ID_WWN}"]  # fmt: skip


class UdevMatch(Struct):
    """One ``KEY=="GLOB"`` term of a udev rule."""

    key: UdevKey
    value: Glob


class DeviceClass(Sourced):
    """What a kernel device name says: the driver, its block-layer path by kernel, whether it has an elevator."""

    id: Id
    title: Text
    kernel_names: tuple[Glob, ...]
    scsi: bool = False
    """Its path follows scsi-mq (the distribution's and the kernel's default)."""
    blk_mq_since: KernelVersion | None = None
    has_elevator: Literal["always", "never", "multipath-only"]
    plan: Literal["device", "members", "skip"]
    """What advise plans: the device itself, its member disks (no elevator of its own), or nothing."""
    hardware: tuple[Id, ...] = ()
    """The hardware presets such a device can be."""
    note: Text | None = None
    queues_vary: bool = False
    """Its hardware queue count is set where it runs (the hypervisor, the backend, the kernel version), not by the
    hardware preset it is planned as: a plan that did not read the count decides on the machine."""
    rehearsal: bool = False
    """A scratch device a plan may be rehearsed on (``advise --device loop0 --rehearse ssd``): planned as if it
    were that hardware, and the plan says so."""


class RequiredElevator(Sourced, KernelRange):
    """An elevator the kernel itself gives a class of device on a path whatever its number of hardware queues,
    within a kernel range: the driver requires a feature only it provides (zoned write ordering from 5.4 to 6.9,
    elevator_init_mq() and ELEVATOR_F_ZBD_SEQ_WRITE). Outside the range elevator_get_default() holds."""

    io_path: ElevatorPath
    elevator: Id
    note: Text | None = None


class HardwarePreset(Sourced):
    """A class of device for ``--hw``: the facts rules see, and how its driver reaches the block layer."""

    id: Id
    title: Text
    summary: Text
    facts: dict[Id, Value]
    scsi: bool = False
    since: KernelVersion | None = None
    """The first kernel that can drive this class of device (host-managed zoned disks: 4.10)."""
    blk_mq_since: KernelVersion | None = None
    default_elevator: dict[ElevatorPath, Id] = {}  # noqa: RUF012 - Structs are frozen
    """What the kernel gives such a device on each path when nothing is required of it (elevator_get_default())."""
    required_elevator: tuple[RequiredElevator, ...] = ()
    udev_match: tuple[UdevMatch, ...]
    example_device: Annotated[str, Constrain(r"[a-z][a-z0-9]{0,15}(?:-[0-9]{1,4})?")]
    notes: tuple[Text, ...] = ()
    caveats: tuple[Id, ...] = ()

    def required_on(self, io_path: str, kernel: KernelVersion) -> RequiredElevator | None:
        """The elevator the kernel requires for such a device on this path and kernel, if any."""
        return next((r for r in self.required_elevator if r.io_path == io_path and r.holds_on(kernel)), None)

    def kernel_default(self, io_path: str, kernel: KernelVersion) -> str | None:
        """The upstream kernel's elevator for such a device on this path and kernel (its queue count as the
        preset's facts say): the required one where the driver requires one, else the plain default."""
        required = self.required_on(io_path, kernel)
        if required is not None:
            return required.elevator
        return next((name for path, name in self.default_elevator.items() if path == io_path), None)


class Workload(Sourced):
    id: Id
    title: Text
    summary: Text
    goal: Goal
    facts: dict[Id, Value] = {}  # noqa: RUF012 - Structs are frozen
    notes: tuple[Text, ...] = ()
    synonyms: tuple[Id, ...] = ()
    """What people also call it (``postgres`` for ``db``): accepted wherever a workload is named."""


class Assumption(Sourced):
    """What advise assumes when the context does not say."""

    id: Id
    fact: Id
    value: Value
    text: Text
    subject: Condition | None = None
    """Where the assumption bears on a plan, on the plan's facts (a write cache where the barriers of a file
    system are in question); a plan lists it only there. None: everywhere."""


class Example(Sourced):
    """A built-in situation for ``iosched advise --example ID``: the context a source's setup gives."""

    id: Id
    summary: Text
    context: dict[Annotated[str, Constrain(r"[a-z][a-z_]{0,31}")], ContextValue]


class Rule(Sourced):
    id: Annotated[str, Constrain(r"IOS\d{3}")]
    name: Annotated[str, Constrain(r"[a-z0-9][a-z0-9-]*")]
    summary: Text
    severity: Severity
    priority: int = 50
    when: Condition
    actions: tuple[Action, ...] = ()
    rationale: Text
    confirm: Text | None = None
    """The measurement that would show the change helps, for changes proposed on general guidance."""
    caveats: tuple[Id, ...] = ()
    subject: Condition | None = None
    """For a rule without actions (advice, a warning): what of the plan it speaks of, as a caveat's subject,
    when that is only known once the steps are (``plan.persist``: the plan writes a udev rule)."""
    examples: tuple[RuleExample, ...]

    def check(self) -> None:
        expected = {e.expect for e in self.examples}
        if expected != {"fires", "silent"}:
            raise Invalid("examples: give at least one that fires and one that stays silent", "KB110")
