"""Input as people type it: every spelling below comes from the KB (its ids, names, synonyms) or from what
/etc/os-release and users write, and maps to the KB's id; a value no vocabulary has is one line, exit 2, with a
"did you mean" when one is close."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from iosched.cli import main
from iosched.fleet.workloads import parse_workload_map
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context, ContextError, resolve
from iosched.knowledge.normalise import workload_spellings


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def spellings_of(ident: str, name: str) -> list[str]:
    """How people write a release: its KB name, the id in capitals, and the os-release forms of it."""
    found = [name, name.upper(), ident.upper()]
    if m := re.fullmatch(r"ubuntu(\d\d)(\d\d)", ident):
        found += [f"ubuntu{m[1]}.{m[2]}", f"Ubuntu {m[1]}.{m[2]}", f"Ubuntu{m[1]}{m[2]}", f"ubuntu {m[1]}.{m[2]} LTS"]
    if m := re.fullmatch(r"sles(\d+)sp(\d+)", ident):
        found += [f"sles{m[1]}-sp{m[2]}", f"SLES {m[1]} SP{m[2]}", f"SLES {m[1]}.{m[2]}", f"sles_{m[1]}_sp{m[2]}"]
    if m := re.fullmatch(r"rhel(\d+)", ident):
        found += [f"rhel {m[1]}.4", f"RHEL{m[1]}.2", f"Rocky {m[1]}.3", f"Red Hat Enterprise Linux {m[1]}.4"]
    if m := re.fullmatch(r"(debian|fedora)(\d+)", ident):
        found += [f"{m[1].title()} {m[2]}", f"{m[1]}-{m[2]}"]
    if m := re.fullmatch(r"amzn(\d+)", ident):
        found += [f"Amazon Linux {m[1]}", f"amzn {m[1]}", f"amazon-linux-{m[1]}"]
    if m := re.fullmatch(r"centos(\d+)", ident):
        found += [f"CentOS Stream {m[1]}", f"centos-stream-{m[1]}", f"CentOS {m[1]}"]
    if m := re.fullmatch(r"ol(\d+)", ident):
        found += [f"Oracle Linux {m[1]}.6", f"Oracle Linux Server {m[1]}.4", f"ol {m[1]}.10", f"OracleLinux {m[1]}"]
    return found


def test_every_distribution_is_accepted_as_people_and_os_release_write_it(kb: Kb) -> None:
    checked = 0
    for distribution in kb.section("distributions"):
        for text in spellings_of(distribution.id, distribution.name):
            resolved = resolve(kb, Context(hw="ssd", distro=text))
            assert resolved.distribution is not None and resolved.distribution.id == distribution.id, text
            assert resolved.context.distro == distribution.id
            checked += 1
    assert checked > 3 * len(kb.section("distributions"))


def test_the_issue_s_spellings(kb: Kb) -> None:
    ids = {d.id for d in kb.section("distributions")}
    wanted = {"ubuntu22.04": "ubuntu2204", "Ubuntu 22.04": "ubuntu2204", "Ubuntu2204": "ubuntu2204",
              "rhel 9.4": "rhel9", "sles15-sp5": "sles15sp5", "SLES 15 SP5": "sles15sp5"}  # fmt: skip
    for text, ident in wanted.items():
        if ident in ids:
            assert resolve(kb, Context(hw="ssd", distro=text)).context.distro == ident


def test_hardware_and_every_vocabulary_fold_case(kb: Kb) -> None:
    for preset in kb.section("hardware"):
        assert resolve(kb, Context(hw=preset.id.upper())).hardware.id == preset.id
    resolved = resolve(kb, Context(hw="SSD", cache="Battery Backed", goal="Latency", io_path="BLK_MQ"))
    assert resolved.facts["cache"] == "battery-backed" and resolved.facts["goal"] == "latency"
    assert resolved.io_path == "blk-mq"


def test_every_workload_synonym_of_the_kb_plans_that_workload_and_the_plan_names_it(kb: Kb, capsys) -> None:
    synonyms = [(s, w.id) for w in kb.section("workloads") for s in w.synonyms]
    assert len(synonyms) >= 5
    for synonym, ident in synonyms:
        code, out, _ = run(capsys, "advise", "--hw", "ssd", "--workload", synonym.upper(), "--format", "json")
        plan = json.loads(out)
        assert code == 0 and plan["context"]["workload"] == ident and plan["facts"]["workload"] == ident
        assert any(a["fact"] == "workload" and synonym.upper() in a["text"] for a in plan["assumptions"])
    code, out, _ = run(capsys, "advise", "--hw", "ssd", "--workload", synonyms[0][0])
    assert code == 0 and synonyms[0][0] in out


def test_device_names_lose_dev_and_the_plan_keeps_the_kernel_name(capsys) -> None:
    code, out, _ = run(capsys, "advise", "--hw", "ssd", "--device", "/dev/sdb", "--format", "json")
    plan = json.loads(out)
    assert code == 0 and plan["device"] == "sdb" and plan["context"]["device"] == "sdb"


def test_a_context_file_is_normalised_as_the_flags_are(tmp_path: Path, kb: Kb, capsys) -> None:
    synonym, ident = next((s, w.id) for w in kb.section("workloads") for s in w.synonyms)
    (tmp_path / "c.yaml").write_text(f"hw: SSD\nworkload: {synonym}\ndevice: /dev/sdc\ndistro: Ubuntu 24.04\n")
    code, out, _ = run(capsys, "advise", "--context", str(tmp_path / "c.yaml"), "--format", "json")
    context = json.loads(out)["context"]
    assert code == 0 and context["hw"] == "ssd" and context["workload"] == ident and context["device"] == "sdc"
    assert context["distro"] in {d.id for d in kb.section("distributions")}


def test_a_fleet_workload_map_takes_synonyms_and_suggests(kb: Kb) -> None:
    spellings = workload_spellings(kb.section("workloads"))
    synonym, ident = next((s, w.id) for w in kb.section("workloads") for s in w.synonyms)
    mapping = parse_workload_map({"hosts": {"db*": synonym.title()}, "default": ident.upper()}, spellings)
    assert mapping.workload_for("db1") == ident and mapping.default == ident
    with pytest.raises(ValueError, match=f"did you mean {synonym}"):
        parse_workload_map({"default": synonym + "x"}, spellings)


@pytest.mark.parametrize(
    ("flag", "typo", "meant"),
    [("--hw", "sdd", "ssd"), ("--workload", "postgress", "postgres"), ("--distro", "ubunt2204", "ubuntu2204"),
     ("--cache", "voltile", "volatile"), ("--goal", "latncy", "latency"), ("--fs", "ext5", "ext4"),
     ("--io-path", "blkmqq", "blk-mq"), ("--symptom", "dirty-stal", "dirty-stall")],
)  # fmt: skip
def test_every_vocabulary_says_did_you_mean(flag: str, typo: str, meant: str, capsys) -> None:
    code, out, err = run(capsys, "advise", "--hw", "ssd", flag, typo)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"did you mean {meant}" in err, err


def test_a_context_error_names_the_close_id(kb: Kb) -> None:
    with pytest.raises(ContextError, match="did you mean ssd"):
        resolve(kb, Context(hw="sdd"))


def test_explain_keeps_its_suggestions(capsys) -> None:
    code, _, err = run(capsys, "explain", "mq-deadline.read_expir")
    assert code == 2 and "did you mean mq-deadline.read_expire" in err
