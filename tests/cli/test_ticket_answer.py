"""The ticket answer (iosched.planning.answer), checked over every capture in tests/ and every KB example: each warning
once, only what concerns the host, only sources a customer can open, an undo that restores what was found."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.knowledge.base import Kb

CAPTURES = Path(__file__).parents[1] / "observe" / "captures"
HOSTS = [("--root", str(p)) for p in sorted(CAPTURES.iterdir()) if p.is_dir()]
FLAGS = [("--hw", "nvme", "--distro", "rhel9"), ("--hw", "virtual", "--distro", "ubuntu2204", "--workload", "db")]
BARRIER_WARNINGS = {"IOS901", "IOS902", "write-barriers-data-loss"}
ELEVATOR_PARAM_WARNINGS = {"udev-rule-skipped-with-elevator-param", "elevator-param-ignored-on-blk-mq", "IOS121"}


def _examples() -> list[tuple[str, ...]]:
    from iosched.knowledge.kbcache import load_checked

    return [("--example", e.id) for e in load_checked(None).section("examples")]


def _answer(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> tuple[str, dict]:
    assert main(["advise", *argv, "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert main(["advise", *argv, "--format", "json"]) == 0
    return markdown, json.loads(capsys.readouterr().out)


def _plans(document: dict) -> list[dict]:
    return document.get("plans", [document])


CASES = [*HOSTS, *FLAGS, *_examples()]


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[-40:])
def test_each_warning_once_about_this_host_with_public_sources(
    kb: Kb, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    markdown, document = _answer(capsys, argv)
    said = re.findall(r"^(?:- |\*\*[\w ]+:\*\* )\*\*(?:warn|consider|recommend)\*\* `([^`]+)`", markdown, re.M)
    assert (said and len(said) == len(set(said))) or not said, said
    plans = _plans(document)
    facts = [p["facts"] for p in plans]
    barrier_off = any(f.get("mount.barriers") is False for f in facts)
    touches_barriers = any("barrier" in s["value"] or s["target"] == "queue.write_cache" for p in plans
                           for s in p["steps"])  # fmt: skip
    if not (barrier_off or touches_barriers):
        assert not BARRIER_WARNINGS & set(said), said
    if not any(f.get("cmdline.elevator") for f in facts) and not any("elevator=" in str(s) for p in plans
                                                                     for s in p["steps"]):  # fmt: skip
        assert not ELEVATOR_PARAM_WARNINGS - {"IOS121"} & set(said), said
    answer = document["answer"]
    for source in answer["sources"]:
        assert getattr(kb.get(source), "url", None), source
    line = next((x for x in markdown.splitlines() if x.startswith("**Sources:** ")), "")
    shown = line.removeprefix("**Sources:** ").split(" · ") if line else []
    assert len(shown) == len(answer["sources"])
    assert all(re.fullmatch(r"\[.+\]\(https?://[^ )]+\)", s) for s in shown), shown  # each one a link
    assert "Live system:" not in markdown


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[-40:])
def test_the_answer_is_short(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """At most 30 lines of Markdown for a host with nothing to change, and 15 more for each device with a step
    (a step that only checks a value expected already is one: it changes the device where the check shows
    otherwise); the host's own settings (sysctls), a block of their own, count as one more."""
    markdown, document = _answer(capsys, argv)
    devices = {s["device"] for p in _plans(document) for s in p["steps"]}  # None: the host's own (sysctls)
    assert markdown.count("\n") <= 30 + 15 * len(devices), markdown


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[-40:])
def test_no_request_to_count_what_was_counted(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """A plan whose queue count was read never asks for it again, nor says it left the scheduler alone for it."""
    markdown, document = _answer(capsys, argv)
    if all("hw.queues" in p["facts"] for p in _plans(document)):
        assert "pass --hw-queues" not in markdown


def test_nothing_to_change_is_short_and_said_in_the_headline(capsys: pytest.CaptureFixture[str]) -> None:
    """The RHEL 8 KVM guest of the issue: nothing changes; its answer was 93 lines and repeated each warning per
    disk."""
    markdown, document = _answer(capsys, ("--root", str(CAPTURES / "sos-rhel8-kvm-lvm")))
    decided = [s for p in _plans(document) for s in p["steps"] if s.get("decide")]
    if not decided:
        assert document["answer"]["headline"].startswith("Nothing to change")
    assert "queues:" not in markdown  # a value decided on the machine is shown as its cases, never as its token
    assert markdown.count("\n") <= 30 + 15 * len({s["device"] for s in decided}), markdown


def test_an_assumed_value_is_undone_to_what_the_apply_found(capsys: pytest.CaptureFixture[str]) -> None:
    """An expected_already step's undo is not its apply: the apply keeps the value it finds, the undo writes it back."""
    markdown, _ = _answer(capsys, FLAGS[0])
    block = markdown.split("```sh\n", 1)[1].split("```", 1)[0]
    apply = next(line for line in block.splitlines() if line.endswith("# apply"))
    undo = next(line for line in block.splitlines() if "# undo: back to the value found" in line)
    variable = apply.split("=", 1)[0]
    assert apply.startswith(f"{variable}=$(") and undo.startswith(f'echo "${variable}" | sudo tee /sys/block/nvme0n1/')
    assert apply.split(" && ", 1)[1].split("  #")[0] != undo.split("  #")[0]


def test_detail_full_keeps_every_device_plan(capsys: pytest.CaptureFixture[str]) -> None:
    root = str(CAPTURES / "sos-sles12sp5-legacy-mpath")
    assert main(["advise", "--root", root, "--format", "markdown", "--detail", "full"]) == 0
    full = capsys.readouterr().out
    assert full.count("## Plan for ") == 2 and "Context: hw=" in full


def test_host_json_is_a_documented_contract_of_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    """advise --root --format json: kind host-plans, its own schema_version, every field and answer field in the
    README's host contract; each of its plans a plan document."""
    _, document = _answer(capsys, ("--root", str(CAPTURES / "sos-rhel8-kvm-lvm")))
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    contract = readme[readme.index("### Host JSON contract") :]
    contract = contract[: contract.index("\n### ")]
    assert document["kind"] == "host-plans" and f"`schema_version` {document['schema_version']})" in readme
    for key in document:
        assert f"| `{key}` |" in contract or f"| `{key}[]` |" in contract, key
    for key in document["answer"]:
        answer = contract.split("| `answer` |")[1]
        assert f"`{key}`" in answer or f"`{key}[]`" in answer, key
    assert {p["kind"] for p in document["plans"]} == {"plan"}


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[-40:])
def test_each_undo_writes_back_what_its_own_step_found(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """A block of commands is pasted whole: the value an undo writes back was kept, last, from the very file or
    sysctl it writes, never by another step's apply."""
    markdown, _ = _answer(capsys, argv)
    kept: dict[str, str] = {}
    for line in markdown.splitlines():
        if found := re.match(r"(was\d*)=\$\((.*?)\) && ", line):
            kept[found.group(1)] = found.group(2).split()[-1]
        elif used := re.search(r'"\$(was\d*)"', line):
            written = re.search(r"tee (\S+)|sysctl -w ([\w.]+)=", line)
            assert written is not None, line
            assert kept.get(used.group(1)) == (written.group(1) or written.group(2)), line


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[-40:])
def test_what_every_case_persists_is_not_read_as_the_last_case(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """A step decided on the machine lists its cases as comments; the persisting commands after them hold for
    every case and say so, instead of reading as part of the last case."""
    markdown, document = _answer(capsys, argv)
    decided = any(step.get("decide") for plan in _plans(document) for step in plan["steps"])
    for block in re.findall(r"```sh\n(.*?)```", markdown, flags=re.S):
        lines = block.splitlines()
        persists = [n for n, line in enumerate(lines) if "  # persist in /" in line and "/etc/fstab" not in line]
        cases = [n for n, line in enumerate(lines) if line.startswith("# check first:")]
        if decided and cases and persists:
            assert "# in every case, persist:" in lines[cases[-1] : persists[0]], block


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a)[-40:])
def test_each_file_the_host_keeps_is_written_once_whole(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """Devices that share a file (a TuneD profile with a unit per disk) get it written once, with every device's
    part, in the answer and in ``--detail full``: written from each device's block, each would overwrite the last
    with its own disk only. The files are the host JSON's (what the script and playbook write)."""
    markdown, document = _answer(capsys, argv)
    assert main(["advise", *argv, "--format", "markdown", "--detail", "full"]) == 0
    full = capsys.readouterr().out
    for path, content in document["files"].items():
        assert markdown.count(f"# persist in {path}\n") == 1, path
        shown = full.split(f"`{path}`:\n\n```text\n")
        assert len(shown) == 2 and shown[1].startswith(content.rstrip("\n") + "\n```"), path
