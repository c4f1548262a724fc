"""A fleet's change lines tell a change from a check: a step whose current value was only assumed to be its
target reads ``check X (assumed)`` in every fleet format, never ``X -> X``."""

from __future__ import annotations

import json
from functools import partial

from engine_strategies import KB
from iosched.escape import markdown_text
from iosched.knowledge.context import Context
from iosched.planning.engine import advise
from iosched.planning.fleetplan import FleetHost, change_lines, outcome, plan_set, plan_set_key, summarise
from iosched.planning.hostplan import HostPlan, Skipped
from iosched.render import fleet_json
from iosched.render.fleet_markdown import SHOWN_HOSTS, render
from iosched.render.plan_json import document as plan_document

CONTEXTS = [Context(hw=hw, workload=w) for hw in ("nvme", "ssd", "hdd", "virtual", "raid") for w in ("db", "streaming")]


def fleet() -> list[FleetHost]:
    plans = [advise(KB, ctx) for ctx in CONTEXTS]
    return [FleetHost(name=f"host{i}", plan=HostPlan(host={}, plans=(p,), skipped=())) for i, p in enumerate(plans)]


def test_an_assumed_value_at_its_target_is_a_check_and_a_change_stays_a_change() -> None:
    hosts = fleet()
    steps = [s for h in hosts for p in h.plan.plans for s in p.steps]  # type: ignore[union-attr]
    checks = [s for s in steps if s.expected_already]
    changes = [s for s in steps if not s.expected_already and s.previous]
    assert checks and changes  # the contexts plan both kinds
    lines = {line for h in hosts for line in change_lines(h.plan)}  # type: ignore[arg-type]
    for step in checks:
        assert f"{step.device} {step.target} check {step.value} (assumed) ({', '.join(step.because)})" in lines
    for step in changes:
        assert f"{step.device} {step.target} {step.previous} -> {step.shown} ({', '.join(step.because)})" in lines
    sets = {plan_set_key(h.plan): plan_set(h.plan) for h in hosts if h.plan is not None}
    outcomes = [outcome(h, plan_set_key(h.plan) if h.plan is not None else None) for h in hosts]
    summary = summarise(outcomes, sets)
    documents = partial(plan_document, KB)
    texts = {
        key: found.replace(plans=(), text=fleet_json.compressed_text(found, documents)) for key, found in sets.items()
    }
    written = json.loads(b"".join(fleet_json.lines(outcomes, texts, summary)))
    outputs = {"markdown": render(outcomes, sets, summary), "json": json.dumps(written["summary"])}
    for name, text in outputs.items():
        for step in checks:
            assert f"{step.value} -> {step.value} ({step.because[0]}" not in text, name  # a check, not a change
            assert f"{step.target} check {step.value} (assumed)" in text, name


def test_markdown_has_a_section_per_distinct_change_set_listing_every_one_of_its_hosts() -> None:
    """Many hosts, few plans: one section per change set with its count, its changes and all its hosts (sorted,
    escaped), and each skipped device and reason once with the hosts it is on."""
    optical = Skipped(device="sr0", reason="optical drive (sr), not planned")
    plans = [FleetHost(name=f"{name}{i}", plan=HostPlan(host={}, plans=(advise(KB, ctx),), skipped=(optical,)))
             for name, ctx in (("db", CONTEXTS[0]), ("web", CONTEXTS[-1])) for i in range(12)]  # fmt: skip
    hosts = [*reversed(plans), *fleet(), FleetHost(name="odd*name_", plan=plans[0].plan)]
    sets = {plan_set_key(h.plan): plan_set(h.plan) for h in hosts if h.plan is not None}
    outcomes = [outcome(h, plan_set_key(h.plan) if h.plan is not None else None) for h in hosts]
    summary = summarise(outcomes, sets)
    text = render(outcomes, sets, summary)
    sections = text.split("\n### ")[1:]
    assert len(sections) == len(summary.groups) < len(hosts)
    for n, (group, section) in enumerate(zip(summary.groups, sections, strict=True), 1):
        assert section.startswith(f"Plan {n}: {group.count} host(s)\n")
        for line in group.changes:  # each change once: with its device, or with every device it is made on
            change = line.partition(" ")[2]
            on = [other.partition(" ")[0] for other in group.changes if other.partition(" ")[2] == change]
            assert f"- `{line}`" in section if len(on) == 1 else f"- `{change}` on {len(on)} devices: " in section
        listed = section.split("Hosts: ")[1].split("\n")[0]
        assert listed == markdown_text(", ".join(sorted(group.hosts)))
    assert "odd\\*name\\_" in text and "odd*name_" not in text
    assert summary.groups[0].count == 14 and "db0, db1, db10, db11, db2, db3" in sections[0]  # and host0, alike
    assert text.count("`sr0`") == 1 and "`sr0` on 25 host(s)" in text


def test_a_change_made_on_many_disks_of_a_host_is_said_once_with_its_disks() -> None:
    """A storage host's disks alike: the table names the change once with the first disks and how many, its
    section names every disk; a change on one disk reads as before (``sda scheduler ...``)."""
    names = [f"sd{a}" for a in "abcdefghijkl"]
    plans = tuple(advise(KB, Context(hw="hdd", workload="db", kernel="6.12", device=name)) for name in names)
    hosts = [FleetHost(name="storage1", plan=HostPlan(host={}, plans=plans, skipped=())),
             FleetHost(name="db1", plan=HostPlan(host={}, plans=plans[:1], skipped=()))]  # fmt: skip
    sets = {plan_set_key(h.plan): plan_set(h.plan) for h in hosts if h.plan is not None}
    outcomes = [outcome(h, plan_set_key(h.plan) if h.plan is not None else None) for h in hosts]
    text = render(outcomes, sets, summarise(outcomes, sets))
    lines = change_lines(hosts[0].plan)  # type: ignore[arg-type]
    changes = {line.partition(" ")[2] for line in lines}
    assert len(lines) == len(names) * len(changes)  # the same changes on every disk
    table, *sections = text.split("\n### ")
    of = {section.split("Hosts: ")[1].split("\n")[0]: section for section in sections}
    for change in changes:
        shown = f"{markdown_text(change)} on {len(names)} devices: {', '.join(names[:SHOWN_HOSTS])} and "
        assert table.count(markdown_text(change)) == 2 and shown in table  # once a plan: storage1's, db1's
        assert f"- `{change}` on {len(names)} devices: {', '.join(names)}\n" in of["storage1"]
        assert f"- `sda {change}`" in of["db1"]
