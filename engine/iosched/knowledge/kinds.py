"""Every kind of KB entity, declared once: its YAML section, names, schema and place on the site.

The loader, ``iosched list``/``explain``, links, the export, the site's pages and its navigation are all
derived from :data:`KINDS`; adding a kind is one Struct in :mod:`iosched.knowledge.schema` (or
:mod:`iosched.knowledge.catalogue`, for a kind no plan is made of), one entry here, a renderer registered with
:func:`iosched.render.reference.renders`, and YAML.
"""

from __future__ import annotations

from iosched.knowledge import schema as model
from iosched.struct import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Kind(Struct, kw_only=False):
    slug: str
    """``iosched list SLUG``; the site page ``reference/SLUG.md`` (or ``reference/SLUG/ID.md``)."""
    section: str | None
    """The YAML section key; None for tunables, which live inside their elevator."""
    name: str
    """One entity, in prose: ``boot parameter``."""
    title: str
    """The page title and navigation label: ``Boot parameters``."""
    intro: str
    schema_name: str
    """The name of the class of its entities, in :mod:`iosched.knowledge.schema` or
    :mod:`iosched.knowledge.catalogue`."""
    own_pages: bool = False
    """One page per entity (``reference/SLUG/ID/``), listed on ``reference/SLUG/``; otherwise one page with an
    anchor per entity."""

    @property
    def schema(self) -> type[Struct]:
        """The class of its entities (:mod:`iosched.knowledge.catalogue` is imported when one of its own is first
        named)."""
        return schema_class(self.schema_name)


def schema_class(name: str) -> type[Struct]:
    """The KB schema's class of this name."""
    found = getattr(model, name, None)
    if found is None:
        from iosched.knowledge import catalogue

        found = getattr(catalogue, name)
    return found  # type: ignore[no-any-return]


KINDS: tuple[Kind, ...] = (
    Kind("elevators", "elevators", "elevator", "Elevators",
         "The I/O schedulers of the legacy and the blk-mq block layer, with their tunables.", "Elevator", True),
    Kind("tunables", None, "tunable", "Tunables",
         "Files in `/sys/block/DEV/queue/iosched/`, one set per elevator.", "Tunable", True),
    Kind("queue-attributes", "queue_attributes", "queue attribute", "Queue attributes",
         "Files in `/sys/block/DEV/queue/` that shape how requests reach the device.", "QueueAttribute", True),
    Kind("sysctls", "sysctls", "sysctl", "Writeback sysctls",
         "Virtual-memory settings that decide when dirty pages are written back.", "Sysctl", True),
    Kind("cgroup-files", "cgroup_files", "cgroup file", "cgroup I/O control",
         "Files of the cgroup v2 I/O controller, and which block-layer policy reads each.", "CgroupFile"),
    Kind("boot-parameters", "boot_parameters", "boot parameter", "Boot parameters",
         "Kernel command-line and module parameters, and what each does on which kernels.", "BootParameter",
         True),
    Kind("mount-options", "mount_options", "mount option", "Mount options",
         "File-system mount options that matter for I/O.", "MountOption"),
    Kind("distributions", "distributions", "distribution", "Distributions",
         "How each distribution release picks the elevator by default, and the files it ships.", "Distribution",
         True),
    Kind("tuned-profiles", "tuned_profiles", "TuneD profile", "TuneD profiles",
         "TuneD profiles and the block and writeback settings they make effective.", "TunedProfile"),
    Kind("vendor-rules", "vendor_rules", "vendor rule", "Vendor udev rules",
         "udev rules that packages ship whatever the distribution.", "VendorRule"),
    Kind("persistence", "persistence", "persistence method", "Apply and persist",
         "How a setting is applied now and kept across reboots, and where each method works.",
         "PersistenceMethod"),
    Kind("caveats", "caveats", "caveat", "Caveats", "What can go wrong, by risk.", "Caveat"),
    Kind("topics", "topics", "topic", "Topics",
         "Subjects that span many settings: writeback throttling, stacking, zoned storage ...", "Topic", True),
    Kind("rules", "rules", "rule", "Rules", "The rules behind every recommendation.", "Rule", True),
    Kind("causes", "causes", "cause", "Causes of slow I/O",
         "What `iosched diagnose` can name from iostat, sar and /proc numbers, and what each leads to.",
         "Cause", True),
    Kind("evidence", "evidence", "evidence", "Evidence",
         "Benchmark results from the sources, as tables and charts.", "Evidence"),
    Kind("disagreements", "disagreements", "disagreement", "Sources disagree",
         "Claims in the sources that the kernel contradicts, with what is true instead.", "Disagreement"),
    Kind("device-classes", "device_classes", "device class", "Device classes",
         "What a device's kernel name says about its driver, block-layer path and elevator.", "DeviceClass"),
    Kind("hardware", "hardware", "hardware preset", "Hardware presets",
         "The kinds of device the advice tells apart.", "HardwarePreset"),
    Kind("workloads", "workloads", "workload", "Workloads", "The workloads the advice tells apart.", "Workload"),
    Kind("assumptions", "assumptions", "assumption", "Assumptions",
         "What `iosched advise` assumes when you do not say.", "Assumption"),
    Kind("examples", "examples", "example", "Examples",
         "Situations from the sources, each a context for `iosched advise --example ID`.", "Example"),
    Kind("sources", "sources", "source", "Bibliography", "Every source the KB cites.", "Source"),
)  # fmt: skip

BY_SLUG: dict[str, Kind] = {k.slug: k for k in KINDS}
BY_SECTION: dict[str, Kind] = {k.section: k for k in KINDS if k.section}
_BY_SCHEMA: dict[str, Kind] = {k.schema_name: k for k in KINDS}


def kind_of(entity: Any) -> Kind:
    """The kind of a KB entity (a tunable reference counts as a tunable); KeyError for anything else."""
    cls = type(getattr(entity, "tunable", entity))
    kind = _BY_SCHEMA[cls.__name__]
    if kind.schema is not cls:  # a record of the same name that is not a KB entity (a plan's Assumption)
        raise KeyError(cls.__name__)
    return kind
