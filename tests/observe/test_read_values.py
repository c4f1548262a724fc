"""Values read from a host's files are data whatever characters they hold: a sysctl.d value, a TuneD [disk]
option, a udev rule's value or a device's model with spaces, quotes, shell and INI metacharacters or non-ASCII
text never leaves a disk unplanned, and every output escapes what it shows (the RHEL 8 sosreport capture, one
file changed at a time)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iosched.cli import main
from iosched.knowledge.base import Kb
from iosched.knowledge.context import Context
from iosched.observe.classify import classified
from iosched.observe.reader import read_root
from iosched.planning.hostplan import plan_host
from probe_helpers import capture, scratch

RHEL8 = capture("sos-rhel8-kvm-lvm")
# characters real files hold: spaces, quotes, shell and INI metacharacters, '%' and '$' (TuneD variables),
# non-ASCII letters; no line breaks (each value stays on its line)
VALUES = st.one_of(
    st.text(st.sampled_from(" \"'`$%#;=&|<>*?()[]{}\\,.:/@!~^+-_0123456789aZéß"), min_size=1, max_size=16),
    st.just("${f:exec:/bin/sh}"),
).filter(lambda v: v.strip() == v)
TUNED = "usr/lib/tuned/throughput-performance/tuned.conf"
FILES = {
    "etc/sysctl.d/99-sysctl.conf": lambda text, v: text + f"\nvm.dirty_ratio = {v}\n",
    TUNED: lambda text, v: text.replace("readahead=>4096", f"readahead={v}"),
    "etc/udev/rules.d/60-pgsql-scheduler.rules": lambda text, v: text.replace('ahead_kb}="128"', f'ahead_kb}}="{v}"'),
}


def _planned(root: Path, kb: Kb) -> set[str]:
    system = classified(read_root(root), {d.id for d in kb.section("distributions")},
                        {h.id for h in kb.section("hardware")})  # fmt: skip
    return {p.device for p in plan_host(kb, system, Context(workload="db")).plans}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(sorted(FILES)), value=VALUES)
def test_a_value_read_from_a_file_never_makes_a_disk_unplannable(kb: Kb, file: str, value: str, capsys) -> None:
    baseline = _planned(RHEL8, kb)
    with scratch() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(RHEL8, root, symlinks=True)
        target = root / file
        changed = FILES[file](target.read_text(), value)
        assert changed != target.read_text() or file.startswith("etc/sysctl.d")
        target.write_text(changed)
        assert _planned(root, kb) == baseline
        for fmt in ("sh", "markdown", "json"):
            assert main(["advise", "--root", str(root), "--workload", "db", "--format", fmt]) == 0, fmt
            out = capsys.readouterr().out
            assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", out), fmt
