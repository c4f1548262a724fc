"""The cached KB (plain JSON data) rebuilds exactly the validated one, and needs no pydantic."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings

from engine_strategies import KB, contexts
from iosched.knowledge.context import Context
from iosched.knowledge.export import export_kb
from iosched.knowledge.kbcache import from_plain
from iosched.knowledge.kbcompile import dumps
from iosched.planning.engine import advise
from iosched.render import plan_json

COMPILED = from_plain(dumps(KB))


def test_cache_rebuilds_equal_entities() -> None:
    assert COMPILED.sections == KB.sections


def test_export_is_identical() -> None:
    assert export_kb(COMPILED) == export_kb(KB)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctx=contexts())
def test_plans_are_identical(ctx: Context) -> None:
    assert plan_json.render(COMPILED, advise(COMPILED, ctx)) == plan_json.render(KB, advise(KB, ctx))


def test_the_cache_revives_only_kb_classes() -> None:
    """Plans, evidence and probed systems have Structs with KB names (Assumption, Evidence): never revived."""
    import iosched.records.evidence
    import iosched.records.plan
    import iosched.records.system
    from iosched.knowledge import catalogue
    from iosched.knowledge import schema as model
    from iosched.knowledge.kbcache import _struct_classes

    classes = _struct_classes()
    assert classes["Assumption"] is model.Assumption and classes["Evidence"] is catalogue.Evidence
    assert not {"Plan", "Device", "System"} & classes.keys()
    assert (
        iosched.records.plan.Assumption is not model.Assumption
        and iosched.records.evidence.Evidence is not catalogue.Evidence
    )


def _imported(cache: str, commands: list[list[str]], modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``commands`` on a warm KB cache."""
    probe = (
        "import sys\n"
        "from iosched.cli import main\n"
        f"for argv in {commands!r}:\n"
        "    assert main(argv) == 0\n"
        f"found = sorted(m for m in {modules!r} if m in sys.modules)\n"
        "import json\n"  # after looking: the probe's own import is not the commands'
        "print(json.dumps(found))\n"
    )
    env = {**os.environ, "IOSCHED_CACHE_DIR": cache}
    subprocess.run([sys.executable, "-c", "from iosched.knowledge.kbcache import load_checked; load_checked()"],
                   env=env,
                   check=True)  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])  # after what the commands printed


def test_everyday_commands_do_not_import_what_start_up_cannot_afford(tmp_path) -> None:
    """pydantic and yaml are for loading the KB, rich for a terminal; pathlib, dataclasses, inspect, html,
    typing, json (whose import compiles six regular expressions) and importlib (``__import__`` does what a
    command needs of it) each cost a noticeable share of a command's start-up."""
    commands = [
        ["advise", "--hw", "ssd", "--workload", "db", "--format", "json"],
        ["advise", "--hw", "hdd", "--workload", "db", "--format", "markdown"],
        ["advise", "--example", "pg-vm-ubuntu1604", "--format", "sh"],
        ["explain", "mq-deadline.read_expire", "--format", "markdown"],
        ["list", "elevators", "--format", "json"],
    ]
    heavy = ("pydantic", "yaml", "rich", "pathlib", "dataclasses", "inspect", "html", "typing", "json", "importlib")
    assert _imported(str(tmp_path), commands, heavy) == []


def test_kb_export_does_not_import_pydantic_or_yaml(tmp_path) -> None:
    assert _imported(str(tmp_path), [["kb", "export"]], ("pydantic", "yaml")) == []


def test_a_plan_from_flags_imports_no_reader_of_host_files(tmp_path) -> None:
    """A plan from flags reads nothing of the host: the parsers of its files (TuneD profiles, captures, probe
    documents) and the model of what they read stay unimported."""
    commands = [
        ["advise", "--hw", "ssd", "--workload", "db", "--format", "json"],
        ["advise", "--example", "pg-vm-ubuntu1604", "--format", "sh"],
    ]
    readers = ("iosched.mechanisms.ini", "iosched.observe.reader", "iosched.capture.source",
               "iosched.observe.probejson",
               "iosched.records.system")  # fmt: skip
    assert _imported(str(tmp_path), commands, readers) == []


def test_a_plan_without_measurements_or_boot_parameters_loads_neither(tmp_path) -> None:
    """Measured evidence (iosched.records.evidence) and the boot loader's commands (iosched.mechanisms.cmdline) are
    loaded only by the plans that have them."""
    commands = [["advise", "--hw", "ssd", "--workload", "db", "--format", "json"]]
    assert _imported(str(tmp_path), commands, ("iosched.records.evidence", "iosched.mechanisms.cmdline")) == []
