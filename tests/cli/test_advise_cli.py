"""`iosched advise` as a user meets it: formats, and bad input that must fail cleanly with exit 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from iosched.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(kb, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["advise", "--hw", "ssd", "--workload", "db", "--kernel", "6.8", "--format", "json"], capsys)
    assert code == 0
    plan = json.loads(out)
    assert plan["scheduler"] in kb.elevators
    assert plan["steps"]  # a scheduler assumed to be the recommended one is still a step: it checks the device
    for step in plan["steps"]:
        assert {"command", "persist_method", "verify", "expect", "undo", "because", "sources", "current_from",
                "assumption", "expected_already"} <= set(step)  # fmt: skip
    for warning in plan["warnings"]:
        assert {"id", "severity", "text"} <= set(warning)


def test_sh_format_is_valid_posix_sh(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["advise", "--example", "pg-vm-ubuntu2404", "--format", "sh"], capsys)
    assert code == 0 and out.startswith("#!/bin/sh\n")
    subprocess.run(["sh", "-n"], input=out, text=True, check=True)


def test_context_file_matches_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ctx = tmp_path / "ctx.json"
    ctx.write_text(json.dumps({"hw": "hdd", "workload": "desktop", "kernel": "6.8"}))
    assert main(["advise", "--context", str(ctx), "--format", "json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    assert main(["advise", "--hw", "hdd", "--workload", "desktop", "--kernel", "6.8", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["steps"] == from_file["steps"]


BAD_ARGS = {
    "unknown hardware": ["--hw", "floppy"],
    "unknown workload": ["--hw", "ssd", "--workload", "bitcoin"],
    "malformed kernel": ["--hw", "ssd", "--kernel", "six"],
    "unknown distro": ["--hw", "ssd", "--distro", "beos5"],
    "shell metacharacters": ["--hw", "ssd", "--device", "sda;rm -rf /"],
    "path traversal": ["--hw", "ssd", "--device", "../../etc"],
    "newline": ["--hw", "ssd", "--device", "sda\nreboot"],
    "non-ascii look-alike": ["--hw", "ssd", "--device", "sd\u0430"],
    "unknown example": ["--example", "nope"],
    "a partition": ["--hw", "nvme", "--device", "nvme0n1p1"],
    "missing hw": ["--workload", "db"],
    "empty workload": ["--hw", "ssd", "--workload", ""],
    "md has no elevator": ["--hw", "ssd", "--device", "md0"],
    "lvm has no elevator": ["--hw", "ssd", "--device", "dm-3"],
    "a loop device": ["--hw", "ssd", "--device", "loop0"],
    "virtio contradicts nvme": ["--hw", "nvme", "--device", "vda"],
    "nvme contradicts ssd": ["--hw", "ssd", "--device", "nvme0n1"],
    "hostile mount point": ["--hw", "ssd", "--fs", "ext4", "--mountpoint", "/data;rm -rf /"],
    "hostile site url": ["--hw", "ssd", "--site-url", "javascript:alert(1)"],
    "unknown symptom": ["--hw", "ssd", "--symptom", "slow"],
}


def test_a_kernel_with_spaces_is_normalised_in_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, script, _ = run(["advise", "--hw", "ssd", "--kernel", "  6.8 ", "--device", "sdb", "--format", "sh"], capsys)
    assert code == 0
    assert "--kernel 6.8 " in script.splitlines()[1] + " " and "  6.8" not in script


@pytest.mark.parametrize("args", BAD_ARGS.values(), ids=BAD_ARGS.keys())
def test_bad_input_is_one_line_and_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["advise", *args], capsys)
    assert code == 2 and out == ""
    assert err.startswith("iosched: error: ") and err.count("\n") == 1


def test_unknown_hardware_lists_the_valid_ones(kb, capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(["advise", "--hw", "floppy"], capsys)
    assert all(h.id in err for h in kb.section("hardware"))


HOSTILE_FILES = {
    "alias bomb": "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c]\n",
    "list": "- hw\n- ssd\n",
    "nested value": "hw: {kind: ssd}\n",
    "unknown key": "hw: ssd\nflavour: vanilla\n",
    "syntax error": "hw: [ssd\n",
    "binary": "\x00\x01\x02",
    "huge": "hw: ssd\n" + "# padding\n" * 20000,
}


@pytest.mark.parametrize("content", HOSTILE_FILES.values(), ids=HOSTILE_FILES.keys())
def test_hostile_context_file(tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text(content)
    code, out, err = run(["advise", "--context", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.startswith("iosched: error: context file") and err.count("\n") == 1


def test_context_that_is_not_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["advise", "--context", str(tmp_path)], capsys)
    assert code == 2 and "not a regular file" in err


def test_unknown_kb_layer_directory(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["advise", "--hw", "ssd", "--kb", "/no/such/dir"], capsys)
    assert code == 2 and err.count("\n") == 1


def test_local_rule_layer_wins_and_the_plan_says_who_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "policy.yaml").write_text(
        "rules:\n"
        "  - id: IOS991\n"
        "    name: site-nvme-kyber\n"
        "    summary: Our NVMe fleet runs kyber.\n"
        "    severity: recommend\n"
        "    priority: 90\n"
        "    when: {fact: hw, eq: nvme}\n"
        "    actions: [{set: scheduler, to: kyber}]\n"
        "    rationale: Site policy after our own measurements.\n"
        "    sources: [seed-iozone-scheduler-blog]\n"
        "    examples:\n"
        "      - {context: {hw: nvme, kernel: '6.8'}, expect: fires}\n"
        "      - {context: {hw: ssd, kernel: '6.8'}, expect: silent}\n"
    )
    argv = ["advise", "--hw", "nvme", "--workload", "db", "--kernel", "6.8", "--format", "json", "--kb", str(tmp_path)]
    code, out, _ = run(argv, capsys)
    plan = json.loads(out)
    assert code == 0 and plan["scheduler"] == "kyber" and plan["scheduler_rules"] == ["IOS991"]
    lost = [o for o in plan["overridden"] if o["target"] == "scheduler"]
    assert lost and all(o["winner"] == "IOS991" and "priority" in o["why"] for o in lost)


def test_broken_local_layer_is_a_check_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.yaml").write_text("caveats: [{id: x}]\n")
    code, out, err = run(["advise", "--hw", "ssd", "--kb", str(tmp_path)], capsys)
    assert code == 1 and out == "" and "KB011" in err
