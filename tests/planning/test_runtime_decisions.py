"""A step may decide when it runs: a guest disk whose queue count the plan does not know gets the elevator of
the case the device is in, decided by the sh script, the playbook's library and the udev rule on the machine;
where both cases end alike there is no "it depends"; verify compares against the case the device is in and has a
row for every device of every capture."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from test_converge import linked_root, run
from test_plan_ansible import ansible_env, loop_device, recap, run_playbook, sysfs  # noqa: F401 - a fixture

from engine_strategies import KB
from iosched.knowledge.context import Context
from iosched.mechanisms import udev
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.persist import files
from iosched.planning.engine import advise
from iosched.planning.hostplan import NOT_PLANNED, NOTHING_PLANNED, plan_host, verify
from iosched.records import runtime
from iosched.records.plan import Plan, Step
from iosched.records.system import System, Tuner
from iosched.render import plan_ansible, plan_markdown, plan_shell
from iosched.steps import STEP_KINDS

CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
GUEST_DISTROS = [d.id for d in KB.section("distributions")]


def ends_with(plan: Plan) -> str | None:
    """The elevator the device runs once the plan ran: its scheduler step's value, else what it has."""
    step = next((s for s in (*plan.steps, *(u.step for u in plan.unchanged)) if s.kind == "scheduler"), None)
    return step.value if step is not None else plan.previous_scheduler


def decided(plan: Plan) -> Step | None:
    return next((s for s in plan.steps if s.decide is not None), None)


@pytest.mark.parametrize("distro", GUEST_DISTROS)
@pytest.mark.parametrize("workload", ["db", "desktop"])
def test_every_guest_gets_the_elevator_of_its_queue_count(distro: str, workload: str) -> None:
    """From flags, without the count: each case of the plan ends with the elevator the plan of that known count
    ends with (never "no change" over a wrong elevator); where both end alike, one answer and no IOS150."""
    base = Context(hw="virtual", workload=workload, distro=distro, device="vda")
    plan = advise(KB, base)
    known = [advise(KB, base.replace(hw_queues=case.context)) for case in runtime.QUEUES.cases]
    step = decided(plan)
    if len({ends_with(p) for p in known}) == 1:
        assert step is None and runtime.QUEUES.rule not in {w.id for w in plan.warnings}
        assert ends_with(plan) == ends_with(known[0])
        return
    assert step is not None and runtime.QUEUES.rule in {w.id for w in plan.warnings}, distro
    for choice, case_plan in zip(step.decide.choices, known, strict=True):
        assert (choice.value if choice.value != runtime.KEEP else plan.previous_scheduler) == ends_with(case_plan)
        assert set(choice.because) <= set(case_plan.scheduler_rules)


@pytest.mark.parametrize("elevator", ["mq-deadline", "none", "bfq"])
def test_a_tuner_that_overrides_a_decided_step_is_named(elevator: str) -> None:
    """A step decided on the machine is kept by a udev rule even where TuneD runs (a profile cannot tell the cases
    apart): a running profile that sets the disk's elevator after it is warned of, as for any other step, whenever
    some case of the step sets another elevator than the profile's."""
    tuned = (Tuner(kind="tuned", name="virtual-guest", settings={"scheduler": elevator}),)
    checked = 0
    for distro in GUEST_DISTROS:
        plan = advise(KB, Context(hw="virtual", workload="db", distro=distro, device="vdb"), current={}, tuners=tuned)
        if (step := decided(plan)) is None:
            continue
        checked += 1
        overridden = any(v != elevator for v in step.values)
        warned = {w.id for w in plan.warnings} & {"tuned-overrides-udev", "later-tuner-wins"}
        assert bool(warned) == overridden, (distro, step.values, warned)
        assert all(f"sets {elevator} after" in w.text for w in plan.warnings if w.id in warned)
    assert checked > 0


def test_sles15sp5_bfq_on_a_database_guest_is_corrected_whatever_the_count() -> None:
    plan = advise(KB, Context(hw="virtual", workload="db", distro="sles15sp5", device="vda"))
    step = decided(plan)
    assert plan.previous_scheduler == "bfq" and step is not None
    assert "bfq" not in step.decide.values


def test_a_kernel_offering_only_none_gets_one_answer() -> None:
    """blk-mq before 4.11 has no elevator but none: the plan does not say it depends."""
    plan = advise(KB, Context(hw="virtual", workload="db", kernel="4.9", io_path="blk-mq", device="vda"))
    assert decided(plan) is None and runtime.QUEUES.rule not in {w.id for w in plan.warnings}


def test_a_known_count_gets_one_answer_and_no_request_to_count() -> None:
    for queues, elevator in (("1", "mq-deadline"), ("4", "none")):
        plan = advise(KB, Context(hw="virtual", workload="db", distro="rhel9", device="vda", hw_queues=queues))
        assert decided(plan) is None and ends_with(plan) == elevator
        assert not any("mq/" in w.text for w in plan.warnings), [w.id for w in plan.warnings]


def test_the_markdown_says_what_to_check_and_each_case() -> None:
    plan = advise(KB, Context(hw="virtual", workload="db", distro="rhel9", device="vda"))
    text = plan_markdown.render(KB, plan)
    assert "`ls /sys/block/vda/mq/` — one entry: `mq-deadline` (IOS119); several: `none` (IOS105)" in text
    assert "no change" not in text.split("\n", 3)[2]


def test_the_udev_rule_decides_per_case() -> None:
    plan = advise(KB, Context(hw="virtual", workload="db", distro="rhel9", device="vda"))
    (content,) = files([plan]).values()
    lines = [line for line in content.splitlines() if not line.startswith("#")]
    assert [case.udev in line for case, line in zip(runtime.QUEUES.cases, lines, strict=True)] == [True, True]
    assert ['"mq-deadline"' in lines[0], '"none"' in lines[1]] == [True, True]


@pytest.mark.parametrize("queues", [1, 3])
def test_the_script_decides_on_a_copy_of_sys(tmp_path: Path, queues: int) -> None:
    plan = advise(KB, Context(hw="virtual", workload="db", distro="sles15sp5", device="vda"))
    queue = tmp_path / "sys/block/vda/queue"
    queue.mkdir(parents=True)
    for n in range(queues):
        (tmp_path / f"sys/block/vda/mq/{n}").mkdir(parents=True)
    (queue / "scheduler").write_text("mq-deadline kyber [bfq] none\n")
    done = run(plan_shell.render(KB, plan), tmp_path)
    assert done.returncode == 0, done.stderr
    want = "mq-deadline" if queues == 1 else "none"
    assert (queue / "scheduler").read_text().strip() == want
    again = run(plan_shell.render(KB, plan), tmp_path)
    assert f"ok: /sys/block/vda/queue/scheduler is {want}" in again.stdout
    (journal,) = sorted(p for p in (tmp_path / "var/lib/iosched").glob("undo-*") if "." not in p.name)
    undone = run(f"sh {journal}", tmp_path)
    assert undone.returncode == 0, undone.stderr
    assert (queue / "scheduler").read_text().strip() == "bfq"
    assert not (tmp_path / udev.path("vda").lstrip("/")).exists()


@pytest.mark.root
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (a loop device and its sysfs queue)")
def test_the_script_decides_on_a_real_single_queue_device(tmp_path: Path) -> None:
    """A loop device is blk-mq with one hardware queue: the decided plan, moved onto it, sets the one-queue case
    and its journal puts back what was there."""
    with loop_device(tmp_path) as device:
        _decides_on(tmp_path, device)


def _decides_on(tmp_path: Path, loop_device: str) -> None:
    plan = _on_loop(loop_device)
    assert len([p for p in Path(f"/sys/block/{loop_device}/mq").iterdir() if p.name.isdigit()]) == 1
    scheduler = STEP_KINDS["scheduler"]
    before = scheduler.read(sysfs(loop_device, "scheduler").read_text())
    sysfs(loop_device, "scheduler").write_text("none")
    root = linked_root(tmp_path, loop_device)
    done = run(plan_shell.render(KB, plan), root)
    assert done.returncode == 0, done.stderr
    assert scheduler.read(sysfs(loop_device, "scheduler").read_text()) == "mq-deadline"
    (journal,) = sorted(p for p in (root / "var/lib/iosched").glob("undo-*") if "." not in p.name)
    assert run(f"sh {journal}", root).returncode == 0
    assert scheduler.read(sysfs(loop_device, "scheduler").read_text()) == "none"
    sysfs(loop_device, "scheduler").write_text(before)


def _on_loop(device: str) -> Plan:
    """SLES 15 SP5's database guest plan (bfq assumed, the queue count decided on the machine), moved onto a loop
    device: the KB rightly refuses to plan a loop device, but its queue is a real one-queue blk-mq queue."""
    plan = advise(KB, Context(hw="virtual", workload="db", distro="sles15sp5", device="vda"))
    moved = tuple(Step.build({**dict(s.fields()), "device": device if s.device else None}) for s in plan.steps)
    return plan.replace(device=device, steps=moved, udev_match=udev.match(device))


@pytest.mark.root
@pytest.mark.ansible
@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (a loop device and its sysfs queue)")
def test_the_playbook_decides_on_a_real_single_queue_device(
    tmp_path: Path,
    ansible_env: dict[str, str],  # noqa: F811 - the fixture imported above
) -> None:
    etc = tmp_path / "root"
    scheduler = STEP_KINDS["scheduler"]
    with loop_device(tmp_path) as device:
        sysfs(device, "scheduler").write_text("none")
        plan = _on_loop(device)
        playbook = tmp_path / "iosched.yml"
        playbook.write_text(plan_ansible.render(KB, [(plan_ansible.EVERY_HOST, [plan])]))

        def play(*args: str) -> dict[str, int]:
            done = run_playbook(ansible_env, tmp_path, playbook, etc, "-e", "iosched_sys_root=", *args)
            assert done.returncode == 0, done.stdout + done.stderr
            return recap(done.stdout)

        assert play()["failed"] == 0
        assert scheduler.read(sysfs(device, "scheduler").read_text()) == "mq-deadline"
        rule = (etc / udev.path(device).lstrip("/")).read_text()
        assert 'TEST!="%S%p/mq/1", ATTR{queue/scheduler}="mq-deadline"' in rule
        assert play("--tags", "all,verify")["changed"] == 0
        assert play("--tags", "undo")["failed"] == 0
        assert scheduler.read(sysfs(device, "scheduler").read_text()) == "none"
        assert not [p for p in etc.rglob("*") if p.is_file()]


def test_the_reader_of_this_machines_disk_counts_its_queues() -> None:
    """The library's reader on the real /sys (read only): the case it tells is the one the probe counts."""
    disks = [p for p in Path("/sys/block").iterdir() if (p / "mq").is_dir() and (p / "queue/scheduler").exists()]
    if not disks:
        pytest.fail("no blk-mq disk on this machine to read")
    for disk in disks[:3]:
        count = sum(1 for p in (disk / "mq").iterdir() if p.name.isdigit())
        script = runtime.library() + f'decided "{disk}/queue/scheduler" queues:one-queue:several-queues\n'
        out = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True).stdout
        assert out == ("one-queue" if count == 1 else "several-queues")


def observed(capture: str) -> System:
    """A capture of tests/, read and classified as the commands read it."""
    distros, presets = {d.id for d in KB.section("distributions")}, {h.id for h in KB.section("hardware")}
    return classified(read_root(CAPTURES / capture), distros, presets)


@pytest.mark.parametrize("capture", sorted(p.name for p in CAPTURES.iterdir() if p.is_dir()))
def test_verify_has_a_row_for_every_device(capture: str) -> None:
    system = observed(capture)
    host = plan_host(KB, system, Context(workload="db"))
    rows = verify(system, host)
    named = {r.device for r in rows}
    for device in system.devices:
        assert device.name in named or any(device.name in r.device for r in rows if "-" in r.device), device.name
    for plan in host.plans:
        assert plan.device in named
        if not plan.steps and not plan.unchanged:
            assert any(r.device == plan.device and r.setting == NOTHING_PLANNED for r in rows)
    assert all(r.setting == NOT_PLANNED or r.device in {p.device for p in host.plans} | {"host"} for r in rows)


@pytest.mark.parametrize("device_class", [c for c in KB.section("device_classes") if c.queues_vary])
def test_a_class_whose_queue_count_varies_is_decided_on_the_machine(device_class) -> None:
    """virtio-blk, xen-blkfront and rbd: the queue count is the hypervisor's, the backend's or the kernel
    version's, never the preset's; a plan without it carries both cases."""
    hw = device_class.hardware[0] if device_class.hardware else "ssd"
    device = device_class.kernel_names[0].replace("*", "a" if hw == "virtual" else "0")
    plan = advise(KB, Context(hw=hw, workload="db", device=device, kernel="6.12"))
    step = decided(plan)
    assert step is not None and step.values == ("mq-deadline", "none"), device
    assert runtime.QUEUES.rule in {w.id for w in plan.warnings}


@pytest.mark.parametrize("distro", [d.id for d in KB.section("distributions") if d.family == "sles"])
def test_suses_bfq_rule_reaches_only_single_queue_disks(distro: str) -> None:
    """SUSE's 60-io-scheduler.rules gives bfq where TEST!="%S%p/mq/1": a disk with several queues keeps the
    kernel's none, and a disk that has bfq from it has one queue."""
    rows = [r for r in KB.get(distro).default_schedulers if r.elevator == "bfq" and r.via == "udev"]
    for row in rows:
        assert row.match is not None and row.match.queues == "one", distro
    for hw, device in (("hdd", "sda"), ("virtual", "sda")):
        several = advise(KB, Context(hw=hw, workload="db", distro=distro, device=device, hw_queues="4"))
        assert several.previous_scheduler != "bfq" or several.io_path != "blk-mq", (distro, hw)


@pytest.mark.parametrize(
    ("capture", "device", "inferred"),
    [("sos-rhel8-kvm-lvm", "vda", "1"), ("scc-sles15sp5-sap-vmware", "sda", "several"),
     ("sos-rhel8-kvm-lvm", "vdb", None)],
)  # fmt: skip
def test_a_capture_without_mq_names_the_queue_class_by_the_elevator_the_kernel_chose(
    capture: str, device: str, inferred: str | None
) -> None:
    """Where only one queue count gives the disk, on this host with its setters, the elevator it runs, the plan
    takes that count and says so (an assumption naming the evidence); where a setter of the host (vdb's own udev
    rule) gives the same elevator whatever the count, it decides on the machine."""
    system = observed(capture)
    (plan,) = plan_host(KB, system, Context(workload="db"), only=[device]).plans
    said = [a for a in plan.assumptions if a.fact == "hw_queues"]
    if inferred is None:
        assert not said and decided(plan) is not None
        return
    assert decided(plan) is None and plan.context["hw_queues"] == inferred
    (assumption,) = said
    assert f"runs {system.device(device).scheduler}" in assumption.text and "not read" in assumption.text


def test_suses_rule_on_the_queue_count_is_not_a_setter_a_reader_can_apply() -> None:
    """TEST!="%S%p/mq/1" matches on the hardware queue count: read from a capture, the rule is conditional."""
    rules = [r for r in KB.get("sles15sp5").udev_rules if "mq/1" in r.content]
    assert rules
    (line,) = [line for _, line in udev.logical_lines(rules[0].content) if 'TEST!="%S%p/mq/1"' in line]
    assert udev._matches(line, {})[1] is True


@pytest.mark.parametrize("distro", [d.id for d in KB.section("distributions")])
def test_a_multipath_map_hears_of_suses_bfq_rule_where_the_rule_reaches_it(distro: str) -> None:
    """SUSE's rule handles dm-* on change events and gives bfq to a rotational single-queue device, which a
    request-based multipath map over rotational LUNs is: said where the KB holds that rule (SLES 15 SP5 to SP7; SP7's
    copy is an excerpt, the file upstream handles dm-* as SP5's does), and nowhere else."""
    plan = advise(KB, Context(hw="san", workload="db", distro=distro, device="dm-0"))
    rules = [r.content for r in KB.get(distro).udev_rules]
    reaches = any('TEST!="%S%p/mq/1", ATTR{queue/scheduler}="bfq"' in text for text in rules)
    said = "sles15-bfq-on-rotational-multipath-map" in {w.id for w in plan.warnings}
    assert said == (reaches and plan.io_path == "blk-mq"), distro
