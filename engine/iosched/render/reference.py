"""Markdown for every kind of KB entity: the one renderer behind ``iosched explain``/``list`` and the site.

Every function is pure: it takes the KB, an entity and a :class:`Style` (how to link, which heading level,
whether the output is a site page) and returns Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from iosched.diagnostics import CODES
from iosched.escape import code_block, code_span, html_text
from iosched.grammar import compiled
from iosched.knowledge.kinds import BY_SLUG, kind_of
from iosched.render.links import absolute, anchor, site_base
from iosched.struct import Struct
from iosched.vocab import RISKS, Risk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.knowledge.base import Kb, TunableRef
    from iosched.knowledge.catalogue import (
        CgroupFile,
        Disagreement,
        Evidence,
        PersistenceMethod,
        Topic,
        TunedProfile,
        VendorRule,
    )
    from iosched.knowledge.schema import (
        Assumption,
        BootParameter,
        Caveat,
        DeviceClass,
        Distribution,
        Elevator,
        Example,
        HardwarePreset,
        MountOption,
        QueueAttribute,
        Rule,
        Scope,
        Source,
        Sysctl,
        Workload,
    )

CHART_CLASS = 'class="iosched-chart"'
RISK_ADMONITION: dict[Risk, str] = dict(zip(RISKS, ("danger", "warning", "note"), strict=True))  # most severe first
RISK_LABEL: dict[Risk, str] = {risk: f"Risk: {risk.replace('-', ' ')}" for risk in RISKS}
_NO_UNIT = {"bool", "enum", "name", "string", "count"}


class Style(Struct, kw_only=False):
    """How to render: ``link(entity)`` gives an href, ``level`` the top heading level, ``site`` enables
    site-only markup (heading anchors, admonitions, content tabs, inline SVG charts)."""

    link: Callable[[Any], str | None]
    level: int = 1
    site: bool = False

    def deeper(self, by: int = 1) -> Style:
        return Style(self.link, self.level + by, self.site)


def cli_style(base: str | None = None, version: str = "") -> Style:
    """Command-line output: absolute links to the published site that name the KB ``version`` they come from,
    or plain ids when no site is configured. A configured URL outside its grammar is refused here, before
    anything is rendered."""
    site_base(base)
    return Style(link=lambda entity: absolute(entity, base, version))


if TYPE_CHECKING:
    Renderer = Callable[[Any, Any, Style], str]
RENDERERS: dict[str, Renderer] = {}
"""Kind slug -> the function that renders one entity of that kind (see :func:`renders`)."""


def renders(slug: str) -> Callable[[Renderer], Renderer]:
    """Register the renderer of the entity kind ``slug`` (one of :data:`iosched.knowledge.kinds.KINDS`)."""
    if slug not in BY_SLUG:
        raise KeyError(f"no kind {slug!r} in iosched.knowledge.kinds")

    def register(function: Renderer) -> Renderer:
        RENDERERS[slug] = function
        return function

    return register


# ---------------------------------------------------------------- small pieces


def heading(style: Style, text: str, ident: str | None = None, extra: int = 0) -> str:
    marks = "#" * min(style.level + extra, 6)
    tail = f" {{ #{anchor(ident)} }}" if style.site and ident else ""
    return f"{marks} {text}{tail}"


def moved(link: str, ident: str, style: Style) -> str:
    """On the site, a Markdown link that keeps the anchor ``ident`` had on a page the entity left: a link to the
    old place lands on it, and the site's script (``data-ios-moved``) follows it to the entity's own page."""
    return f'{link}{{ #{anchor(ident)} data-ios-moved="" }}' if style.site else link


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def value_text(value: object, unit: str | None = None) -> str:
    """A value with its unit: ``500 ms``, ``true``; a missing value is a dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    shown = f"`{value}`" if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value)
    return f"{shown} {unit}" if unit and unit not in _NO_UNIT else shown


def kernels(since: object, until: object) -> str:
    """A kernel range: since is inclusive, until is the first kernel without it."""
    if since and until:
        return f"{since} to before {until}"
    if since:
        return f"since {since}"
    if until:
        return f"before {until}"
    return "all kernels"


def scope_text(scope: Scope) -> str:
    if scope is None:
        return "everywhere"
    parts = []
    if scope.distributions:
        parts.append(", ".join(scope.distributions))
    if scope.since or scope.until:
        parts.append("kernels " + kernels(scope.since, scope.until))
    if scope.condition:
        parts.append(scope.condition)
    return "; ".join(parts) or "everywhere"


def ref(kb: Kb, style: Style, ident: str, text: str | None = None) -> str:
    """A link to a KB id; the id (or text) alone when the KB lacks it or there is no site to link to."""
    entity = kb.get(ident)
    shown = text or f"`{ident}`"
    link = style.link(entity) if entity is not None else None
    return f"[{shown}]({link})" if link else shown


def refs(kb: Kb, style: Style, idents: Iterable[str]) -> str:
    return ", ".join(ref(kb, style, i) for i in idents)


def bullets(items: Iterable[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def facts_list(pairs: Iterable[tuple[str, object]]) -> str:
    """``- **Label:** value`` lines for the values that are present."""
    return bullets(f"**{label}:** {value}" for label, value in pairs if value not in (None, "", ()))


# Left as they are: code, autolinks, the generator's comment and charts.
_KEEP = rf"(?s)(```.*?```|`[^`\n]*`|<https?://[^>\s]+>|<!-- .*? -->|<figure {CHART_CLASS}>.*?</figure>)"
_TAG = r"<(?=[A-Za-z/!?])"
_WILDCARD = r"(?<=[^\s*\\])\*(?!\*)"  # sd*, queue/* (a lone closing *, never part of **)


def escape_tags(block: str) -> str:
    """KB text as Markdown: ``<disk>`` stays text, not an HTML tag, and ``sd*`` a wildcard, not emphasis.

    Code, autolinks and charts are kept as they are; ``**bold**`` still works.
    """
    tag, wildcard = compiled(_TAG), compiled(_WILDCARD)  # on first use: a listing never needs them
    parts = compiled(_KEEP).split(block)
    return "".join(p if i % 2 else wildcard.sub(r"\\*", tag.sub("&lt;", p)) for i, p in enumerate(parts))


def join(*blocks: str | None) -> str:
    """Markdown blocks separated by blank lines; empty blocks are dropped."""
    return "\n\n".join(escape_tags(b.strip("\n")) for b in blocks if b and b.strip()) + "\n"


def sources_block(kb: Kb, style: Style, idents: Iterable[str], label: str = "Sources") -> str:
    items = []
    for ident in idents:
        source = kb.get(ident)
        items.append(f"{ref(kb, style, ident)}: {source.title}" if source is not None else f"`{ident}`")
    return f"**{label}:**\n\n" + bullets(items) if items else ""


def notes_block(notes: Iterable[str]) -> str:
    notes = list(notes)
    return "**Notes:**\n\n" + bullets(notes) if notes else ""


def caveats_block(kb: Kb, style: Style, idents: Iterable[str]) -> str:
    items = []
    for ident in idents:
        caveat = kb.get(ident)
        items.append(
            f"{ref(kb, style, ident, caveat.title)} ({RISK_LABEL[caveat.risk].lower()})"
            if caveat is not None
            else f"`{ident}`"
        )
    return "**Caveats:**\n\n" + bullets(items) if items else ""


def disagreements_block(kb: Kb, style: Style, subject: str) -> str:
    found = [d for d in kb.section("disagreements") if d.subject == subject]
    if not found:
        return ""
    items = [
        f"{ref(kb, style, d.id, 'Claim')}: {d.claim} ({refs(kb, style, d.claim_sources)}). "
        f"**In fact:** {d.truth} ({refs(kb, style, d.truth_sources)})"
        for d in found
    ]
    return "**Sources disagree:**\n\n" + bullets(items)


def one_line(kb: Kb, entity: Any) -> str:
    """A one-line summary of any entity (shortcodes, lists)."""
    if (setting := kb.setting(entity.id)) is not None:
        bits = [setting.summary, f"default {value_text(setting.default, setting.unit)}"]
        if setting.since or setting.until:
            bits.append(kernels(setting.since, setting.until))
        return " · ".join(bits)
    for name in ("summary", "title", "claim", "name"):
        if isinstance(text := getattr(entity, name, None), str):
            return text
    return str(entity.id)


# ---------------------------------------------------------------- tunables, queue attributes, sysctls


def _range_text(setting: Any) -> str:
    if setting.choices:
        return ", ".join(f"`{c}`" for c in setting.choices)
    if setting.range:
        low, high = setting.range.min, setting.range.max
        if low is not None and high is not None:
            return f"{value_text(low)} to {value_text(high)}"
        if low is not None:
            return f"≥ {value_text(low)}"
        return f"≤ {value_text(high)}" if high is not None else ""
    return "0 or 1" if setting.unit == "bool" else ""


def _scoped_defaults(kb: Kb, style: Style, setting: Any) -> str:
    if not setting.defaults:
        return ""
    rows = [
        (value_text(d.value, setting.unit), scope_text(d.scope), d.note or "", refs(kb, style, d.sources))
        for d in setting.defaults
    ]
    return "**Defaults by scope:**\n\n" + table(("value", "where", "note", "sources"), rows)


def setting_body(kb: Kb, style: Style, ident: str, setting: Any) -> str:
    """Everything about a tunable, queue attribute or sysctl except its heading."""
    default = value_text(setting.default, setting.unit)
    if setting.default_note:
        default += f" ({setting.default_note})"
    extra: list[tuple[str, object]] = []
    if getattr(setting, "jiffies", False):
        extra.append(("Stored in", "jiffies (the value depends on CONFIG_HZ)"))
    if twin := getattr(setting, "twin", None):
        extra.append(("Twin", f"`{twin}`"))
    if pairs := getattr(setting, "pairs_with", None):
        extra.append(("Pairs with", ref(kb, style, pairs)))
    facts = facts_list(
        [
            ("Default", default),
            ("Unit", setting.unit),
            ("Range" if not setting.choices else "Choices", _range_text(setting)),
            ("Writable", "yes" if setting.writable else "no (read-only)"),
            ("Kernels", kernels(setting.since, setting.until)),
            *extra,
        ]
    )
    return join(
        setting.summary,
        facts,
        _scoped_defaults(kb, style, setting),
        setting.details,
        notes_block(setting.notes),
        caveats_block(kb, style, setting.caveats),
        disagreements_block(kb, style, ident),
        sources_block(kb, style, setting.sources),
    )


@renders("cgroup-files")
def cgroup_file(kb: Kb, item: CgroupFile, style: Style) -> str:
    where = f"`/sys/fs/cgroup/GROUP/{item.name}`" + (" (root cgroup only)" if item.root_only else "")
    facts = facts_list([("Policy", f"`{item.policy}`"), ("Format", code_span(item.format or "")),
                        ("Kconfig", code_span(item.kconfig or ""))])  # fmt: skip
    return join(heading(style, f"`{item.name}`", item.id), where, facts, setting_body(kb, style, item.id, item))


@renders("tuned-profiles")
def tuned_profile(kb: Kb, item: TunedProfile, style: Style) -> str:
    rows = [(code_span(s.target), value_text(s.value), s.note or "") for s in item.settings]
    versions = item.tuned_versions
    facts = facts_list([
        ("Includes", code_span(item.include or "")),
        ("Ships in", refs(kb, style, item.distributions)),
        ("TuneD versions", versions and kernels(versions.since, versions.until)),
        ("Recommended for", item.recommended_when),
    ])  # fmt: skip
    return join(
        heading(style, f"`{item.name}`", item.id), item.summary, facts,
        "**Settings:**\n\n" + table(("setting", "value", "note"), rows) if rows else "",
        notes_block(item.notes), sources_block(kb, style, item.sources),
    )  # fmt: skip


@renders("vendor-rules")
def vendor_rule(kb: Kb, item: VendorRule, style: Style) -> str:
    rows = [(code_span(s.target), value_text(s.value), s.note or "") for s in item.sets]
    versions = item.versions
    facts = facts_list([
        ("Package", code_span(item.package)), ("File", code_span(item.path)), ("Devices", code_span(item.devices)),
        ("Package versions", versions and kernels(versions.since, versions.until)),
    ])  # fmt: skip
    return join(
        heading(style, f"{item.package}: `{item.path.rsplit('/', 1)[-1]}`", item.id), facts,
        "**Sets:**\n\n" + table(("setting", "value", "note"), rows), item.note,
        code(item.content, "udev") if item.content else "", sources_block(kb, style, item.sources),
    )  # fmt: skip


@renders("topics")
def topic(kb: Kb, item: Topic, style: Style) -> str:
    parts = [heading(style, item.title, item.id), item.summary]
    if item.since or item.until:
        parts.append(facts_list([("Kernels", kernels(item.since, item.until))]))
    for section in item.sections:
        parts += [heading(style, section.title, extra=1), section.text]
        if section.sources:
            parts.append(f"Sources: {refs(kb, style, section.sources)}")
    if item.related:
        parts.append("**Related:** " + ", ".join(ref(kb, style, r) for r in item.related))
    parts.append(sources_block(kb, style, item.sources))
    return join(*parts)


@renders("device-classes")
def device_class(kb: Kb, item: DeviceClass, style: Style) -> str:
    facts = facts_list([
        ("Kernel names", ", ".join(code_span(n) for n in item.kernel_names)),
        ("On blk-mq since", item.blk_mq_since),
        ("Path", "follows scsi-mq" if item.scsi else None),
        ("Elevator", {"always": "yes", "never": "none (bio-based)",
                      "multipath-only": "only request-based dm-multipath"}[item.has_elevator]),
        ("advise plans", {"device": "the device", "members": "its member disks", "skip": "nothing"}[item.plan]),
        ("Hardware queues", "set where it runs: a plan that did not read them decides on the machine"
                            if item.queues_vary else None),
        ("Hardware presets", refs(kb, style, item.hardware)),
    ])  # fmt: skip
    return join(heading(style, f"{item.title} (`{item.id}`)", item.id), facts, item.note,
                sources_block(kb, style, item.sources))  # fmt: skip


@renders("tunables")
def tunable(kb: Kb, item: TunableRef, style: Style) -> str:
    """A tunable (a ``TunableRef``)."""
    title = f"`{item.tunable.name}` of `{item.elevator.name}`" if style.site else f"{item.id}"
    where = f"`/sys/block/DEV/queue/iosched/{item.tunable.name}`"
    parent = f"Tunable of {ref(kb, style, item.elevator.name)}, in {where}."
    # a tunable lives no longer than its elevator: its kernels are the elevator's where it states none
    spans = item.tunable.replace(since=item.tunable.since or item.elevator.since,
                                 until=item.tunable.until or item.elevator.until)  # fmt: skip
    return join(heading(style, title, item.tunable.name), parent, setting_body(kb, style, item.id, spans))


@renders("queue-attributes")
def queue_attribute(kb: Kb, attr: QueueAttribute, style: Style) -> str:
    where = f"`/sys/block/DEV/queue/{attr.name}`"
    return join(heading(style, f"`{attr.name}`" if style.site else attr.id, attr.id), where,
                setting_body(kb, style, attr.id, attr))  # fmt: skip


@renders("sysctls")
def sysctl(kb: Kb, item: Sysctl, style: Style) -> str:
    where = f"`/proc/sys/{item.name.replace('.', '/')}`, `sysctl {item.name}`"
    return join(heading(style, f"`{item.name}`", item.id), where, setting_body(kb, style, item.id, item))


def tunables_table(kb: Kb, style: Style, elevator: Elevator) -> str:
    """One row per tunable; on the site each link keeps the anchor its section had on the elevator's page
    (``#read_expire``), which the site's script follows to the tunable's own page."""
    rows = [
        (
            moved(ref(kb, style, f"{elevator.name}.{t.name}", f"`{t.name}`"), t.name, style),
            value_text(t.default),
            t.unit,
            _range_text(t),
            kernels(t.since, t.until),
            refs(kb, style, t.sources),
        )
        for t in elevator.tunables
    ]
    return table(("tunable", "default", "unit", "range", "kernels", "sources"), rows)


# ---------------------------------------------------------------- entities


@renders("elevators")
def elevator(kb: Kb, item: Elevator, style: Style) -> str:
    prio = item.ioprio.support + (f" since {item.ioprio.since}" if item.ioprio.since else "")
    if item.ioprio.note:
        prio += f" ({item.ioprio.note})"
    facts = facts_list(
        [
            ("I/O path", item.io_path),
            ("Kernels", kernels(item.since, item.until)),
            ("Equivalent", ref(kb, style, item.equivalent) if item.equivalent else None),
            ("Aliases", ", ".join(f"`{a}`" for a in item.aliases)),
            ("Kconfig", f"`{item.kconfig}`" if item.kconfig else None),
            ("I/O priorities", prio),
        ]
    )
    defaults = [
        (ref(kb, style, d.id, d.name), s.devices, s.via)
        for d in kb.section("distributions")
        for s in d.default_schedulers
        if s.elevator == item.name
    ]
    default_on = "**Default on:**\n\n" + table(("distribution", "devices", "chosen by"), defaults) if defaults else ""
    tunables = join(heading(style, "Tunables", extra=1), tunables_table(kb, style, item)) if item.tunables else ""
    return join(
        heading(style, f"`{item.name}`: {item.title}"),
        item.summary,
        facts,
        heading(style, "What it is for", extra=1),
        item.purpose,
        item.description,
        notes_block(item.notes),
        default_on,
        caveats_block(kb, style, item.caveats),
        disagreements_block(kb, style, item.id),
        sources_block(kb, style, item.sources),
        tunables,
    )


def _effects(kb: Kb, style: Style, effects: Iterable[Any]) -> str:
    rows = [(kernels(e.since, e.until), e.effect, e.text, refs(kb, style, e.sources)) for e in effects]
    return table(("kernels", "effect", "what happens", "sources"), rows) if rows else ""


@renders("boot-parameters")
def boot_parameter(kb: Kb, item: BootParameter, style: Style) -> str:
    values = ", ".join(f"`{v}`" for v in item.values)
    return join(
        heading(style, f"`{item.name}=`", item.id),
        item.summary,
        facts_list([("Values", values)]),
        _effects(kb, style, item.effects),
        notes_block(item.notes),
        caveats_block(kb, style, item.caveats),
        disagreements_block(kb, style, item.id),
        sources_block(kb, style, item.sources),
    )


@renders("mount-options")
def mount_option(kb: Kb, item: MountOption, style: Style) -> str:
    return join(
        heading(style, f"{item.filesystem}: `{item.option}`", item.id),
        item.summary,
        facts_list(
            [
                ("File system", item.filesystem),
                ("Disables write barriers", "yes" if item.disables_barriers else "no"),
                ("On by default", "yes" if item.default else "no"),
            ]
        ),
        _effects(kb, style, item.effects),
        notes_block(item.notes),
        caveats_block(kb, style, item.caveats),
        disagreements_block(kb, style, item.id),
        sources_block(kb, style, item.sources),
    )


def code(text: str, lang: str = "sh", title: str | None = None) -> str:
    head = f"```{lang}" + (f' title="{title}"' if title else "")
    return f"{head}\n{text.rstrip()}\n```"


def boot_loader_block(item: Distribution) -> str:
    """How a kernel command-line change takes effect on a distribution: GRUB 2 command or GRUB legacy file."""
    if item.grub_update:
        return "**After editing `GRUB_CMDLINE_LINUX` in `/etc/default/grub`:**\n\n" + code(item.grub_update)
    if item.grub_legacy_config:
        return f"**Boot parameters** (GRUB legacy): add them to the `kernel` line in `{item.grub_legacy_config}`."
    return ""


@renders("distributions")
def distribution(kb: Kb, item: Distribution, style: Style) -> str:
    rows = [
        (d.devices, ref(kb, style, d.elevator), d.via, d.io_path, d.note or "", refs(kb, style, d.sources))
        for d in item.default_schedulers
    ]
    schedulers = table(("devices", "elevator", "chosen by", "I/O path", "note", "sources"), rows) if rows else ""
    udev = [join(f"`{u.path}`" + (f": {u.note}" if u.note else ""), code(u.content, "udev")) for u in item.udev_rules]
    return join(
        heading(style, item.name, item.id),
        facts_list(
            [
                ("Family", item.family),
                ("Kernel", item.kernel),
                ("SCSI disks on blk-mq by default", "yes" if item.scsi_blk_mq else "no"),
                ("Persistence", refs(kb, style, item.persistence)),
            ]
        ),
        "**Default schedulers:**\n\n" + schedulers if schedulers else "",
        "**Shipped udev rules:**\n\n" + "\n\n".join(udev) if udev else "",
        boot_loader_block(item),
        notes_block(item.notes),
        sources_block(kb, style, item.sources),
    )


@renders("persistence")
def persistence_method(kb: Kb, item: PersistenceMethod, style: Style) -> str:
    return join(
        heading(style, item.title, item.id),
        item.summary,
        facts_list([("Applies to", ", ".join(item.applies_to)), ("Kernels", kernels(item.since, item.until))]),
        item.how,
        notes_block(item.notes),
        caveats_block(kb, style, item.caveats),
        sources_block(kb, style, item.sources),
    )


@renders("caveats")
def caveat(kb: Kb, item: Caveat, style: Style) -> str:
    label = RISK_LABEL[item.risk]
    if style.site:
        body = "\n".join(f"    {line}" if line else "" for line in item.text.splitlines())
        box = f'!!! {RISK_ADMONITION[item.risk]} "{label}"\n\n{body}'
    else:
        box = f"> **{label}.** " + " ".join(item.text.split())
    return join(
        heading(style, item.title, item.id),
        box,
        facts_list(
            [
                ("Applies", scope_text(item.scope) if item.scope else None),
                ("Shown where", f"`{item.subject.describe()}`" if item.subject is not None else None),
                ("Related", refs(kb, style, item.related)),
            ]
        ),
        sources_block(kb, style, item.sources),
    )


@renders("evidence")
def evidence(kb: Kb, item: Evidence, style: Style) -> str:
    better = "higher is better" if item.direction == "higher" else "lower is better"
    header = ("", *item.columns)
    rows = [(r.label + (f" ({r.note})" if r.note else ""), *(value_text(v) for v in r.values)) for r in item.rows]
    chart = ""
    if style.site:
        from iosched.render.chart import bar_chart

        svg = bar_chart(item.columns, [(r.label, r.values) for r in item.rows], f"{item.metric} ({item.unit})")
        caption = f"<figcaption>{html_text(item.title)}: {better}</figcaption>"
        chart = f"<figure {CHART_CLASS}>\n{svg}\n{caption}\n</figure>"
    return join(
        heading(style, item.title, item.id),
        facts_list(
            [
                ("Setup", item.setup),
                ("Hardware", item.hardware),
                ("Kernel", item.kernel),
                ("Distribution", item.distribution),
                ("Metric", f"{item.metric}, in {item.unit} ({better})"),
            ]
        ),
        table(header, rows),
        chart,
        f"**Conclusion:** {item.conclusion}",
        "**Limitations:**\n\n" + bullets(item.limitations) if item.limitations else "",
        facts_list([("Related", refs(kb, style, item.related))]),
        sources_block(kb, style, item.sources),
    )


@renders("disagreements")
def disagreement(kb: Kb, item: Disagreement, style: Style) -> str:
    return join(
        heading(style, f"{item.subject}: {item.id}", item.id),
        facts_list(
            [
                ("About", ref(kb, style, item.subject)),
                ("Applies", scope_text(item.scope) if item.scope else None),
            ]
        ),
        f"**Claim:** {item.claim}",
        sources_block(kb, style, item.claim_sources, "Claimed by"),
        f"**In fact:** {item.truth}",
        sources_block(kb, style, item.truth_sources, "Shown by"),
        item.note,
    )


def citations(kb: Kb, source_id: str) -> list[str]:
    """Ids of the entities that cite a source, in KB order."""
    found = [ident for ident, entity in kb.index.items() if source_id in getattr(entity, "sources", ())]
    return [i for i in found if i != source_id]


def source_type(item: Source) -> str:
    """A source's type for readers: the documents the project started from are articles like any other."""
    return "article" if item.type == "seed" else str(item.type)


@renders("sources")
def source(kb: Kb, item: Source, style: Style) -> str:
    cited = citations(kb, item.id)
    return join(
        heading(style, item.title, item.id),
        facts_list(
            [
                ("Id", f"`{item.id}`"),
                ("Type", source_type(item)),
                ("Publisher", item.publisher),
                ("Date", item.date),
                ("Version", item.version),
                ("URL", f"<{item.url}>" if item.url else None),
                ("Where", code_span(item.path) if item.path and item.type != "seed" else None),
                ("Note", item.note),
                ("Cited by", refs(kb, style, cited)),
            ]
        ),
    )


def _facts_table(facts: dict[str, Any]) -> str:
    return table(("fact", "value"), ((f"`{k}`", value_text(v)) for k, v in facts.items())) if facts else ""


@renders("hardware")
def hardware_preset(kb: Kb, item: HardwarePreset, style: Style) -> str:
    from iosched.mechanisms import udev  # only this page needs the udev mechanism

    defaults = getattr(item, "default_elevator", {}) or {}
    return join(
        heading(style, f"{item.title} (`{item.id}`)", item.id),
        item.summary,
        facts_list(
            [
                (
                    "Example device",
                    f"`{item.example_device}`" if getattr(item, "example_device", None) else None,
                ),
                ("udev match", code_span(udev.terms(item.udev_match))),
                ("SCSI", "yes" if getattr(item, "scsi", False) else None),
                ("On blk-mq since", getattr(item, "blk_mq_since", None)),
                (
                    "Kernel default elevator",
                    ", ".join(f"{path}: {ref(kb, style, e)}" for path, e in defaults.items()),
                ),
                (
                    "Required by its driver",
                    "; ".join(
                        f"{r.io_path}: {ref(kb, style, r.elevator)}"
                        + (f" from {r.since}" if r.since else "")
                        + (f" until {r.until}" if r.until else "")
                        for r in getattr(item, "required_elevator", ())
                    ),
                ),
            ]
        ),
        _facts_table(item.facts),
        notes_block(item.notes),
        caveats_block(kb, style, getattr(item, "caveats", ())),
        sources_block(kb, style, item.sources),
    )


@renders("assumptions")
def assumption(kb: Kb, item: Assumption, style: Style) -> str:
    return join(
        heading(style, f"`{item.fact}` = {value_text(item.value)}", item.id),
        item.text,
        facts_list([("Id", f"`{item.id}`")]),
        sources_block(kb, style, item.sources),
    )


@renders("workloads")
def workload(kb: Kb, item: Workload, style: Style) -> str:
    return join(
        heading(style, f"{item.title} (`{item.id}`)", item.id),
        item.summary,
        facts_list([("Goal", item.goal), ("Also called", ", ".join(f"`{s}`" for s in item.synonyms))]),
        _facts_table(item.facts),
        notes_block(item.notes),
        sources_block(kb, style, item.sources),
    )


@renders("examples")
def example(kb: Kb, item: Example, style: Style) -> str:
    return join(
        heading(style, item.summary, item.id),
        table(("field", "value"), ((f"`{k}`", code_span(v)) for k, v in item.context.items())),
        code_block(f"iosched advise --example {item.id}", "sh"),
        sources_block(kb, style, item.sources),
    )


@renders("rules")
def rule(kb: Kb, item: Rule, style: Style) -> str:
    actions = table(
        ("set", "to", "note"), ((f"`{a.set}`", value_text(a.to), a.note or "") for a in item.actions)
    ) if item.actions else ""  # fmt: skip
    examples = table(
        ("context", "expect"),
        ((", ".join(f"`{k}={str(v).lower() if isinstance(v, bool) else v}`" for k, v in e.context.items()),
          e.expect)
         for e in item.examples),
    )  # fmt: skip
    return join(
        heading(style, f"{item.id} `{item.name}`", item.id),
        item.summary,
        facts_list([("Severity", item.severity), ("Priority", item.priority)]),
        f"**When:** `{item.when.describe()}`",
        "**Actions:**\n\n" + actions if actions else "",
        f"**Why:** {item.rationale}",
        caveats_block(kb, style, item.caveats),
        "**Examples** (run as tests):\n\n" + examples,
        sources_block(kb, style, item.sources),
    )


@renders("causes")
def cause(kb: Any, item: Any, style: Style) -> str:
    examples = table(
        ("example facts", "expect"),
        ((", ".join(f"`{k}={str(v).lower() if isinstance(v, bool) else v}`" for k, v in e.facts.items()), e.expect)
         for e in item.examples),
    )  # fmt: skip
    plan = ", ".join(f"`{k}: {v}`" for k, v in item.plan.items())
    return join(
        heading(style, f"{item.id} `{item.name}`", item.id),
        item.summary,
        facts_list(
            [
                ("Priority", item.priority),
                ("Plan", "no I/O problem here" if item.healthy else plan or None),
                ("Evidence", ", ".join(f"`{f}`" for f in item.evidence)),
            ]
        ),
        f"**When:** `{item.when.describe()}`",
        f"**What to do:** {item.advice}",
        f"**Why:** {item.rationale}",
        "**Examples** (facts the rule is tested on by `iosched kb check`, not measurements):\n\n" + examples,
        sources_block(kb, style, item.sources),
    )


def diagnostic_code(code: str) -> str:
    """What a ``kb check`` code reports."""
    text = CODES[code]
    said = "Reported by `iosched kb check` (which then exits 1), with the file and line of each problem."
    return join(f"# {code}", f"{text[0].upper()}{text[1:]}.", said)


def diagnostic_codes() -> str:
    """Every ``kb check`` code, as a table."""
    return table(("code", "reports"), ((f"`{code}`", text) for code, text in CODES.items()))


def render(kb: Kb, entity: Any, style: Style) -> str:
    """Markdown for any entity."""
    return RENDERERS[kind_of(entity).slug](kb, entity, style)


# ---------------------------------------------------------------- lists


def _link(style: Style, entity: Any) -> str:
    """The entity's id, linked to its page when there is a site to link to."""
    link = style.link(entity)
    return f"[`{entity.id}`]({link})" if link else f"`{entity.id}`"


def _setting_row(style: Style, entity: Any, setting: Any) -> tuple[str, ...]:
    return _link(style, entity), value_text(setting.default), setting.unit, setting.summary


# ``iosched list KIND``: header and one row per entity; kinds not listed show id and one-line summary.
_COLUMNS: dict[str, tuple[tuple[str, ...], Callable[[Style, Any], tuple[str, ...]]]] = {
    "tunables": (("tunable", "default", "unit", "summary"), lambda st, t: _setting_row(st, t, t.tunable)),
    "queue-attributes": (("id", "default", "unit", "summary"), lambda st, s: _setting_row(st, s, s)),
    "sysctls": (("id", "default", "unit", "summary"), lambda st, s: _setting_row(st, s, s)),
    "elevators": (
        ("elevator", "I/O path", "kernels", "summary"),
        lambda st, e: (_link(st, e), e.io_path, kernels(e.since, e.until), e.summary),
    ),
    "rules": (("rule", "name", "severity", "summary"), lambda st, r: (_link(st, r), r.name, r.severity, r.summary)),
    "caveats": (("caveat", "risk", "title"), lambda st, c: (_link(st, c), c.risk, c.title)),
    "sources": (("source", "type", "title"), lambda st, s: (_link(st, s), source_type(s), s.title)),
    "disagreements": (("id", "subject", "claim"), lambda st, d: (_link(st, d), f"`{d.subject}`", d.claim)),
}


def list_rows(kb: Kb, kind: str, style: Style) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Header and rows of the table that ``iosched list KIND`` prints and index pages show."""
    header, row = _COLUMNS.get(kind, (("id", "summary"), lambda st, e: (_link(st, e), one_line(kb, e))))
    return header, [row(style, e) for e in kb.entities(kind)]


def list_table(kb: Kb, kind: str, style: Style) -> str:
    header, rows = list_rows(kb, kind, style)
    return table(header, rows) + "\n" if rows else f"_No {BY_SLUG[kind].title.lower()} in the KB._\n"
