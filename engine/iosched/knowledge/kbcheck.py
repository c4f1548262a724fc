"""Cross-reference checks over a loaded KB; each problem is a Diagnostic with a stable code."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from iosched.diagnostics import Diagnostic
from iosched.knowledge.base import Kb
from iosched.knowledge.facts import FACTS
from iosched.knowledge.rules import unknown_facts
from iosched.knowledge.schema import Scope
from iosched.knowledge.targets import action_problem
from iosched.struct import Struct

_SOURCE_FIELDS = ("sources", "claim_sources", "truth_sources")


def _where(kb: Kb, ident: str) -> tuple[str, int]:
    file, _, line = kb.origins.get(ident, "?:0").rpartition(":")
    return file, int(line or 0)


def _diag(kb: Kb, ident: str, code: str, message: str) -> Diagnostic:
    file, line = _where(kb, ident)
    return Diagnostic(code, file, line, f"{ident}: {message}")


def _walk(entity: Any) -> Iterator[Struct]:
    """Every Struct nested in ``entity`` (itself included)."""
    return (node for node, _ in _walk_fields(entity))


def _walk_fields(entity: Any) -> Iterator[tuple[Struct, dict[str, Any]]]:
    """Every Struct nested in ``entity`` (itself included), with its fields by name."""
    stack = [entity]
    while stack:
        item = stack.pop()
        if isinstance(item, Struct):
            fields = dict(item.fields())
            yield item, fields
            stack.extend(fields.values())
        elif isinstance(item, tuple | list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


Nested = list[tuple[Any, Struct, dict[str, Any]]]
"""Each entity of the KB, each Struct nested in it, and that Struct's fields: walked once for every check."""


def _nested(kb: Kb) -> Nested:
    return [(entity, node, fields) for entity in kb.all() for node, fields in _walk_fields(entity)]


def _check_unique(kb: Kb) -> Iterator[Diagnostic]:
    seen: dict[str, str] = {}
    for section, entities in kb.sections.items():
        for entity in entities:
            if entity.id in seen and seen[entity.id] != section:
                yield _diag(kb, entity.id, "KB104", f"id used in both {seen[entity.id]} and {section}")
            seen.setdefault(entity.id, section)
    addresses: dict[str, str] = {}
    for source in kb.section("sources"):
        if source.url and (first := addresses.setdefault(source.url, source.id)) != source.id:
            yield _diag(kb, source.id, "KB118", f"the address of {first}: one source per page, its note quoting "
                        "each part the KB relies on (a #fragment tells sections of one page apart)")  # fmt: skip


def _check_references(kb: Kb, nested: Nested) -> Iterator[Diagnostic]:
    sources = {s.id for s in kb.section("sources")}
    caveats = {c.id for c in kb.section("caveats")}
    distros = {d.id for d in kb.section("distributions")}
    persistence = {p.id for p in kb.section("persistence")}
    elevators = kb.elevators
    for entity, _, fields in nested:
        for name in _SOURCE_FIELDS:
            for ref in fields.get(name, ()):
                if ref not in sources:
                    yield _diag(kb, entity.id, "KB101", f"unknown source {ref!r}")
        for ref in fields.get("caveats", ()):
            if ref not in caveats:
                yield _diag(kb, entity.id, "KB103", f"unknown caveat {ref!r}")
        for ref in fields.get("distributions", ()):
            if ref not in distros:
                yield _diag(kb, entity.id, "KB107", f"unknown distribution {ref!r}")
        elevator = fields.get("elevator")
        if elevator is not None and elevator not in elevators:
            yield _diag(kb, entity.id, "KB102", f"unknown elevator {elevator!r}")
    for elevator in elevators.values():
        if elevator.equivalent and elevator.equivalent not in elevators:
            yield _diag(kb, elevator.id, "KB102", f"equivalent {elevator.equivalent!r} is not an elevator")
        names = {t.name for t in elevator.tunables}
        for tunable in elevator.tunables:
            if tunable.twin and tunable.twin not in names:
                yield _diag(kb, elevator.id, "KB106", f"tunable {tunable.name} names twin {tunable.twin!r}")
    presets = {h.id for h in kb.section("hardware")}
    releases = {d.id: d for d in kb.section("distributions")}
    for distro in releases.values():
        base = releases.get(distro.facts_from) if distro.facts_from else None
        if distro.facts_from and (base is None or base.facts_from or base.family != distro.family):
            yield _diag(kb, distro.id, "KB106", f"facts_from {distro.facts_from!r} is not a release of the "
                        f"{distro.family} family that states its own facts")  # fmt: skip
        for ref in distro.persistence:
            if ref not in persistence:
                yield _diag(kb, distro.id, "KB106", f"unknown persistence method {ref!r}")
        for row in distro.default_schedulers:
            for ref in row.match.hardware if row.match else ():
                if ref not in presets:
                    yield _diag(kb, distro.id, "KB106", f"default scheduler matches unknown hardware preset {ref!r}")
    for entity in (*kb.section("caveats"), *kb.section("evidence"), *kb.section("topics")):
        for ref in entity.related:
            if kb.get(ref) is None:
                yield _diag(kb, entity.id, "KB106", f"related id {ref!r} is not in the KB")
    for profile in kb.section("tuned_profiles"):
        if profile.include and not any(p.name == profile.include for p in kb.section("tuned_profiles")):
            yield _diag(kb, profile.id, "KB106", f"include {profile.include!r} is not a TuneD profile in the KB")
    for item in kb.section("disagreements"):
        if kb.get(item.subject) is None:
            yield _diag(kb, item.id, "KB106", f"subject {item.subject!r} is not in the KB")
    for sysctl in kb.section("sysctls"):
        if sysctl.pairs_with and kb.get(sysctl.pairs_with) is None:
            yield _diag(kb, sysctl.id, "KB106", f"pairs_with {sysctl.pairs_with!r} is not in the KB")


def _name_prefix(glob: str) -> str:
    return re.split(r"[*?\[]", glob, maxsplit=1)[0]


def _names_overlap(a: Any, b: Any) -> bool:
    """Whether some kernel name can match both rows (globs are anchored, so compare their literal prefixes)."""
    ga, gb = (a.match.kernel_names if a.match else ()), (b.match.kernel_names if b.match else ())
    if not ga or not gb:
        return True
    return any(p.startswith(q) or q.startswith(p) for p in map(_name_prefix, ga) for q in map(_name_prefix, gb))


def _kernels_overlap(a: Any, b: Any) -> bool:
    return (a.until is None or b.since is None or b.since < a.until) and (
        b.until is None or a.since is None or a.since < b.until
    )


def _covers_preset(match: Any, preset: Any) -> bool:
    """Whether a row's match can cover devices of a preset, judged by preset id and the preset's rotational fact."""
    return match is None or (
        (not match.hardware or preset.id in match.hardware)
        and (match.rotational is None or preset.facts.get("hw.rotational") == match.rotational)
    )


def _check_default_schedulers(kb: Kb) -> Iterator[Diagnostic]:
    """Two rows of one distribution that can cover the same device must agree or be ordered by precedence."""
    presets = kb.section("hardware")
    for distro in kb.section("distributions"):
        rows = distro.default_schedulers
        for i, a in enumerate(rows):
            for j, b in enumerate(rows[i + 1 :], i + 1):
                if a.elevator == b.elevator or a.io_path != b.io_path or a.precedence != b.precedence:
                    continue
                shared = any(_covers_preset(a.match, h) and _covers_preset(b.match, h) for h in presets)
                if shared and _kernels_overlap(a, b) and _names_overlap(a, b):
                    message = f"default_schedulers rows {i + 1} ({a.elevator}) and {j + 1} ({b.elevator})"
                    yield _diag(
                        kb, distro.id, "KB112", f"{message} can cover one {a.io_path} device with equal precedence"
                    )


def _kernel_gives(kb: Kb, distro: Any, preset: Any, kernel: Any) -> str | None:
    """What the blk-mq code of ``kernel`` gives a device of ``preset`` on ``distro``: its default (or the elevator
    its driver requires there), or none where the kernel's scheduler file offers nothing else (before 4.11, or
    where the release's own kernel says so)."""
    expected = preset.kernel_default("blk-mq", kernel)
    rotational = bool(preset.facts.get("hw.rotational"))
    vendor = [row.offered for row in distro.io_paths
              if row.io_path == "blk-mq" and row.offered and row.match.matches(preset.id, "", rotational)
              and not row.match.kernel_names]  # fmt: skip
    offered = vendor[0] if vendor else tuple(kb.offered_on(kernel, "blk-mq"))
    return "none" if expected is not None and expected not in offered else expected


def _check_kernel_rows(kb: Kb) -> Iterator[Diagnostic]:
    """KB116: a blk-mq row that says the kernel itself picks the elevator (``via: kernel``) names what the kernel
    facts of the release's kernel give each device the row covers (the preset's default, or the elevator its
    driver requires there): a row copied from an older release is caught where the kernel changed (zoned 6.10).
    On the legacy path the kernel's default is its Kconfig, the distribution's choice, so rows there are not
    compared."""
    presets = kb.section("hardware")
    for distro in kb.section("distributions"):
        for n, row in enumerate(distro.default_schedulers, 1):
            kernel = distro.kernel if row.holds_on(distro.kernel) else row.since
            if row.via != "kernel" or row.io_path != "blk-mq" or kernel is None or not row.holds_on(kernel):
                continue
            for preset in presets:
                if not _covers_preset(row.match, preset) or (preset.since and kernel < preset.since):
                    continue
                expected = _kernel_gives(kb, distro, preset, kernel)
                if expected is not None and expected != row.elevator:
                    yield _diag(kb, distro.id, "KB116", f"default_schedulers row {n} gives {preset.id} "
                                f"{row.elevator} on blk-mq, but kernel {kernel} gives it {expected}")  # fmt: skip


def _check_facts(kb: Kb, nested: Nested) -> Iterator[Diagnostic]:
    for entity in (*kb.section("hardware"), *kb.section("workloads")):
        for name in sorted(set(entity.facts) - set(FACTS)):
            yield _diag(kb, entity.id, "KB105", f"unknown fact {name!r}")
    for rule in kb.section("rules"):
        for name in unknown_facts(rule.when, rule.actions):
            yield _diag(kb, rule.id, "KB105", f"condition uses unknown fact {name!r}")
    for entity, node, fields in nested:
        when = fields.get("when") if isinstance(node, Scope) else None
        for name in unknown_facts(when) if when is not None else ():
            yield _diag(kb, getattr(entity, "id", "?"), "KB105", f"scope condition uses unknown fact {name!r}")


def _check_subjects(kb: Kb) -> Iterator[Diagnostic]:
    """KB117: every caveat says what it is about, so that it reaches only the plans where that is present."""
    for caveat in kb.section("caveats"):
        if caveat.subject is None:
            yield _diag(kb, caveat.id, "KB117", "a caveat needs a subject: the condition on the plan's facts "
                        "(plan.targets, mount.barriers, cmdline.elevator, device.class ...) that shows it")  # fmt: skip
        else:
            for name in unknown_facts(caveat.subject):
                yield _diag(kb, caveat.id, "KB105", f"subject uses unknown fact {name!r}")
    for entry in (*kb.section("rules"), *kb.section("assumptions")):
        for name in unknown_facts(entry.subject) if entry.subject is not None else ():
            yield _diag(kb, entry.id, "KB105", f"subject uses unknown fact {name!r}")


def _check_rules(kb: Kb) -> Iterator[Diagnostic]:
    from iosched.knowledge.context import ContextError, facts_for_example

    for rule in kb.section("rules"):
        for action in rule.actions:
            if (problem := action_problem(kb, action)) is not None:
                yield _diag(kb, rule.id, "KB108", problem)
        for n, example in enumerate(rule.examples, 1):
            try:
                facts = facts_for_example(kb, example.context)
            except ContextError as exc:
                yield _diag(kb, rule.id, "KB109", f"example {n}: {exc}")
                continue
            fired = rule.when.evaluate(facts)
            if fired != (example.expect == "fires"):
                yield _diag(kb, rule.id, "KB109", f"example {n} expects {example.expect}, but the rule "
                            f"{'fires' if fired else 'is silent'}")  # fmt: skip


def _check_examples(kb: Kb) -> Iterator[Diagnostic]:
    """Every example is a context that advise can plan: fields it knows, ids the KB has (what resolving it
    against the KB checks, and all that advise refuses a context for)."""
    from iosched.knowledge.context import Context, ContextError, resolve

    for example in kb.section("examples"):
        try:
            resolve(kb, Context.from_mapping(example.context))
        except ContextError as exc:
            yield _diag(kb, example.id, "KB113", f"advise cannot plan this context: {exc}")


def _check_reachable(kb: Kb, nested: Nested) -> Iterator[Diagnostic]:
    """A caveat must reach some plan: cited by a rule or entity, or related to something a plan involves."""
    cited = {c for _, _, fields in nested for c in fields.get("caveats", ())}
    for caveat in kb.section("caveats"):
        if caveat.id not in cited and not caveat.related:
            yield _diag(kb, caveat.id, "KB111", "no rule, setting or scope can bring this caveat into a plan")


def _check_synonyms(kb: Kb) -> Iterator[Diagnostic]:
    """Each spelling of a workload (its id, its synonyms, as :mod:`iosched.knowledge.normalise` compares them)
    names one."""
    from iosched.knowledge.normalise import squash

    owner = {squash(w.id): w.id for w in kb.section("workloads")}
    for workload in kb.section("workloads"):
        for synonym in workload.synonyms:
            taken = owner.setdefault(squash(synonym), workload.id)
            if taken != workload.id or squash(synonym) == squash(workload.id):
                yield _diag(kb, workload.id, "KB114", f"synonym {synonym!r} already spells {taken}")


_RELEASE = re.compile(r"\b(RHEL|SLES|SLE|Ubuntu|Debian|Fedora|Amazon Linux|CentOS Stream)\s?(\d+)")
_FAMILY = {"RHEL": "rhel", "SLES": "sles", "SLE": "sles", "Ubuntu": "ubuntu", "Debian": "debian", "Fedora": "fedora",
           "Amazon Linux": "amzn", "CentOS Stream": "centos"}  # fmt: skip


def _check_caveat_releases(kb: Kb) -> Iterator[Diagnostic]:
    """KB115: a caveat whose title or text names a distribution release that its scope does not (neither its
    distributions, nor its ``when`` on the distribution, nor the condition a user can check): it would be
    shown where it is not true."""
    for caveat in kb.section("caveats"):
        scope = caveat.scope
        when = scope.when if scope is not None else None
        if when is not None and any(c.fact in ("distro", "distro.family") for c in when.comparisons()):
            continue
        named = scope.distributions if scope is not None else ()
        condition = scope.condition or "" if scope is not None else ""
        covered = {f"{_FAMILY[f]}{n}" for f, n in _RELEASE.findall(condition)}
        for family, number in _RELEASE.findall(f"{caveat.title} {caveat.text} {caveat.summary or ''}"):
            release = f"{_FAMILY[family]}{number}"
            if release not in covered and not any(d.startswith(release) for d in named):
                yield _diag(kb, caveat.id, "KB115", f"names {family} {number}, which its scope does not; scope it "
                            "(distributions, when) or say the condition in scope.condition")  # fmt: skip
                break


def check(kb: Kb) -> list[Diagnostic]:
    """All cross-entity problems, sorted by file and line."""
    nested = _nested(kb)
    found = [*_check_unique(kb), *_check_references(kb, nested), *_check_facts(kb, nested),
             *_check_reachable(kb, nested), *_check_default_schedulers(kb), *_check_kernel_rows(kb),
             *_check_synonyms(kb), *_check_caveat_releases(kb), *_check_subjects(kb)]  # fmt: skip
    if kb.section("rules") and not any(d.code == "KB105" for d in found):
        found += [*_check_rules(kb), *_check_examples(kb)]
    return sorted(set(found), key=lambda d: (d.file, d.line, d.code, d.message))
