"""A page per distribution release (``reference/distributions/ID/``) and their index, listed by family.

A release page says what each class of device gets at boot and what sets it, how to change and keep a setting
there (the mechanisms in the order that wins), its kernel and cgroup hierarchy, the caveats scoped to it, and
links to the advisor preset to it. The index keeps the anchors of the single page it replaces (``#rhel9``),
which ``site/assets/iosched.js`` follows to the release's own page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iosched.knowledge.schema import INHERITED, DefaultScheduler, inherited
from iosched.render.reference import (
    Style,
    boot_loader_block,
    bullets,
    caveats_block,
    code,
    facts_list,
    join,
    moved,
    notes_block,
    ref,
    refs,
    sources_block,
    table,
)

if TYPE_CHECKING:
    from iosched.knowledge.base import Kb
    from iosched.knowledge.schema import Distribution

FAMILIES = {
    "sles": "SUSE Linux Enterprise Server", "opensuse": "openSUSE", "rhel": "Red Hat Enterprise Linux and rebuilds",
    "fedora": "Fedora Linux", "ubuntu": "Ubuntu", "debian": "Debian", "amazon": "Amazon Linux",
}  # fmt: skip
"""Headings of the index, one per ``Distribution.family``."""

VIA = {"tuned": "a TuneD profile", "udev": "a udev rule", "driver": "the driver",
       "kernel": "the kernel's built-in default", "kconfig": "the kernel's build configuration"}  # fmt: skip
"""``DefaultScheduler.via`` in words."""

HIERARCHY = {"v1": "cgroup v1 (legacy): the `blkio.*` files", "hybrid": "hybrid: the controllers, `blkio` among "
             "them, on v1; only systemd's own tree on v2", "v2": "cgroup v2 (unified): the `io.*` files"}  # fmt: skip


def short_name(distro: Distribution) -> str:
    """What people type for a release: ``rhel9`` -> ``rhel 9``, ``sles15sp4`` -> ``sles 15 sp4``."""
    import re

    return " ".join(re.findall(r"[a-z]+|\d+", distro.id)).replace("sp ", "sp")


def _winning_order() -> str:
    ranked = sorted(DefaultScheduler.VIA_RANK, key=lambda via: -DefaultScheduler.VIA_RANK[via])
    steps = dict.fromkeys(VIA[via] for via in ranked if via != "kconfig")
    return ("Later steps of boot overwrite earlier ones, so of the mechanisms that set an elevator the first here "
            f"wins: {', then '.join(steps)}. A value written to sysfs at run time holds until one of them runs "
            "again (a reboot, a device added again, a TuneD profile applied).")  # fmt: skip


def _set_by(distro: Distribution, row: DefaultScheduler) -> str:
    """What sets a default: the mechanism, and for a udev rule the shipped files that write that elevator."""
    files = [f"`{u.path}`" for u in distro.udev_rules if f'ATTR{{queue/scheduler}}="{row.elevator}"' in u.content]
    return VIA[row.via] + (f" ({', '.join(files)})" if row.via == "udev" and files else "")


def _base(kb: Kb, distro: Distribution) -> Distribution | None:
    return kb.get(distro.facts_from) if distro.facts_from else None


def distribution_tab(kb: Kb, distro: Distribution, style: Style) -> str:
    """Runtime and persistent commands for one distribution, built by the same step kind as ``iosched advise``."""
    from iosched.mechanisms import udev
    from iosched.records.plan import Step
    from iosched.steps import STEP_KINDS

    elevator = next((d.elevator for d in distro.default_schedulers), "mq-deadline")
    methods = [m for m in (kb.get(i) for i in distro.persistence) if m is not None]
    example = Step(kind="scheduler", target="scheduler", value=elevator, title="", because=(), reasons=(),
                   sources=(), device="sda")  # fmt: skip
    scheduler = STEP_KINDS["scheduler"]
    rule = udev.content("sda: an example", udev.match("sda"), [example])
    return join(
        f"**Runtime** (until the next reboot; `sda` and `{elevator}` are examples):",
        code(f"{scheduler.verify(example)}\n{scheduler.apply(example)}"),
        f"**Persistent** with a udev rule in `{udev.FILE}`, one file per device:",
        code(udev.install(udev.path("sda"), rule)),
        boot_loader_block(distro),
        "**Methods for this distribution:**" if methods else "",
        bullets(f"{ref(kb, style, m.id, m.title)}: {m.summary}" for m in methods),
    )


def release_page(kb: Kb, distro: Distribution, style: Style, advisor: str) -> str:
    """The body of one release's page, after its title; ``advisor`` is the advisor page's Markdown link."""
    base = _base(kb, distro)
    facts = inherited(distro, base) if base is not None else distro
    taken = [words for f, words in INHERITED.items() if base is not None and getattr(distro, f) in ((), None)
             and getattr(base, f) not in ((), None)]  # fmt: skip
    rows = [
        (d.devices, ref(kb, style, d.elevator), _set_by(facts, d), d.io_path, d.note or "", refs(kb, style, d.sources))
        for d in sorted(facts.default_schedulers, key=lambda d: d.precedence, reverse=True)
    ]
    paths = [(p.devices, p.io_path, ", ".join(f"`{e}`" for e in p.offered) or "as upstream", p.note or "",
              refs(kb, style, p.sources)) for p in facts.io_paths]  # fmt: skip
    udev = [join(f"`{u.path}`" + (f": {u.note}" if u.note else ""), code(u.content, "udev")) for u in facts.udev_rules]
    lineage = distro.lineage
    caveats = [c.id for c in kb.section("caveats") if c.scope and lineage & set(c.scope.distributions)]
    return join(
        facts_list(
            [
                ("Family", FAMILIES[distro.family]),
                ("Kernel", f"{distro.kernel} (the release's own kernel; vendors backport, see the I/O paths below)"),
                (
                    "cgroup hierarchy",
                    HIERARCHY[facts.cgroup_default] if facts.cgroup_default else "no source states it",
                ),
                ("SCSI disks on blk-mq by default", "yes" if distro.scsi_blk_mq else "no"),
                (
                    "NVMe native multipath",
                    None
                    if facts.nvme_multipath is None
                    else "on by default"
                    if facts.nvme_multipath
                    else "off by default",
                ),
                ("Also searched as", f"`{short_name(distro)}`, `{distro.id}`"),
            ]
        ),
        f'[Open the advisor preset to {distro.name}]({advisor}){{ data-ios-preset="{preset(distro)}" }}',
        f"Where its own files were not read, this release takes its {', '.join(taken)} from "
        f"{ref(kb, style, base.id, base.name)}."
        if base is not None and taken
        else "",
        "## At boot: what each class of device gets",
        "Each row names the elevator and what sets it, the mechanism that wins first."
        if rows
        else "_No source in the KB states this release's default elevators._",
        table(("devices", "elevator", "set by", "I/O path", "note", "sources"), rows) if rows else "",
        "**I/O paths that differ from the upstream kernel's:**\n\n"
        + table(("devices", "I/O path", "elevators offered", "note", "sources"), paths)
        if paths
        else "",
        "**udev rules the release ships:**\n\n" + "\n\n".join(udev) if udev else "",
        "## Change it and keep it",
        _winning_order(),
        distribution_tab(kb, facts, style),
        "## Caveats" if caveats else "",
        caveats_block(kb, style, caveats).removeprefix("**Caveats:**\n\n"),
        notes_block(distro.notes),
        sources_block(kb, style, distro.sources),
    )


def preset(distro: Distribution) -> str:
    """The advisor's fragment for a release; the site's script adds it to a link that carries it, since a
    Markdown link's fragment must name a heading."""
    from iosched.sitegen.grid import distro_key

    return f"setting={distro_key(distro.id)}"


def _release_order(distro: Distribution) -> tuple[object, ...]:
    """Releases of a product in version order: ``sles12sp5`` before ``sles15sp1``, ``rhel9`` before ``rhel10``."""
    import re

    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", distro.id))


def index_body(kb: Kb, style: Style) -> str:
    """The releases by family, each row keeping the anchor the single page had."""
    blocks = []
    for family, title in FAMILIES.items():
        rows = [
            (moved(f"[{d.name}]({style.link(d)})", d.id, style), str(d.kernel),
             d.cgroup_default or (_base(kb, d) and _base(kb, d).cgroup_default) or "—")  # type: ignore[union-attr]
            for d in sorted(kb.section("distributions"), key=_release_order) if d.family == family
        ]  # fmt: skip
        if rows:
            blocks += [f"## {title}", table(("release", "kernel", "cgroup hierarchy"), rows)]
    return join(*blocks)
