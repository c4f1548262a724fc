"""DASDs on IBM Z: bus ID, discipline (ECKD, FBA) and block size from ``lsdasd`` as supportconfig and sos save
it, from ``/proc/dasd/devices`` and from sysfs; listed by the probe and kept through a probe document.

The expected values are read from the capture's own ``lsdasd -a`` rows (s390-tools zconf/lsdasd at
d619b492e997cef0ddba8073f2a3073c7c2ecc5c, ``newoutput``: bus ID, status, name, major:minor, type, block size,
size, blocks)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iosched.capture.listings import dasd_devices
from iosched.cli import main
from iosched.observe.probejson import from_document
from iosched.observe.reader import read_root
from probe_helpers import capture

SCC_ZVM = capture("scc-sles15sp5-zvm-dasd")


def lsdasd_rows() -> tuple[str, list[list[str]]]:
    """The capture's ``lsdasd -a`` output and its device rows split into words."""
    text = (SCC_ZVM / "fs-diskio.txt").read_text()
    block = text.split("lsdasd -a\n", 1)[1].split("\n\n", 1)[0]
    rows = [line.split() for line in block.splitlines() if re.match(r"\d\.\d\.[0-9a-f]{4} ", line)]
    assert rows
    return block, rows


def test_supportconfig_lsdasd_reaches_each_dasd(capsys: pytest.CaptureFixture[str]) -> None:
    _, rows = lsdasd_rows()
    system = read_root(SCC_ZVM)
    for bus_id, _status, name, _devno, kind, block_size, *_ in rows:
        device = system.device(name)
        assert device is not None
        assert (device.bus_id, device.dasd_type, device.block_size) == (bus_id, kind, int(block_size))
    assert all(d.dasd_type is None for d in system.devices if d.kind != "dasd")
    assert main(["probe", "--root", str(SCC_ZVM)]) == 0
    out = capsys.readouterr().out
    for bus_id, _status, name, _devno, kind, block_size, *_ in rows:
        assert f"  {name} {bus_id} {kind} {block_size}\n" in out
    assert main(["probe", "--root", str(SCC_ZVM), "--format", "json"]) == 0
    kept = from_document(json.loads(capsys.readouterr().out))
    assert [(d.name, d.bus_id, d.dasd_type, d.block_size) for d in kept.devices] == [
        (d.name, d.bus_id, d.dasd_type, d.block_size) for d in system.devices
    ]


def sos_root(tmp_path: Path, files: dict[str, str]) -> Path:
    """A sosreport-shaped tree holding the capture's /proc/partitions and ``files``."""
    root = tmp_path / "sos"
    for rel, text in {"proc/partitions": partitions(), **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def partitions() -> str:
    text = (SCC_ZVM / "fs-diskio.txt").read_text()
    return text.split("/proc/partitions\n", 1)[1].split("\n#==", 1)[0]


def test_sos_lsdasd_and_proc_dasd_devices(tmp_path: Path) -> None:
    block, rows = lsdasd_rows()
    system = read_root(sos_root(tmp_path, {"sos_commands/s390/lsdasd": block}))
    assert {d.name: (d.bus_id, d.dasd_type, d.block_size) for d in system.devices if d.dasd_type} == {
        r[2]: (r[0], r[4], int(r[5])) for r in rows
    }
    # /proc/dasd/devices as the kernel writes it (lsdasd -c prints the same without the colon after blocksize)
    proc = "".join(
        f"{r[0]}({r[4]}) at ( {r[3].replace(':', ':     ')}) is {r[2]:<12}: active at blocksize: {r[5]}, "
        f"{r[7]} blocks, {r[6].removesuffix('MB')} MB\n"
        for r in rows
    )
    system = read_root(sos_root(tmp_path / "proc", {"proc/dasd/devices": proc}))
    assert {d.name: (d.bus_id, d.dasd_type, d.block_size) for d in system.devices if d.dasd_type} == {
        r[2]: (r[0], r[4], int(r[5])) for r in rows
    }


def test_live_sysfs_names_the_discipline_and_the_ccw_device(tmp_path: Path) -> None:
    root = tmp_path / "live"
    device = root / "sys/devices/css0/0.0.0010/0.0.0200"
    (device / "block/dasdd/queue").mkdir(parents=True)
    (device / "discipline").write_text("FBA\n")
    (device / "block/dasdd/device").symlink_to("../../../0.0.0200")
    (device / "block/dasdd/dev").write_text("94:12\n")
    (device / "block/dasdd/queue/logical_block_size").write_text("512\n")
    (device / "block/dasdd/queue/scheduler").write_text("[mq-deadline] none\n")
    (root / "sys/block").mkdir(parents=True)
    (root / "sys/block/dasdd").symlink_to("../devices/css0/0.0.0010/0.0.0200/block/dasdd")
    dasd = read_root(root).device("dasdd")
    assert dasd is not None and (dasd.bus_id, dasd.dasd_type, dasd.block_size) == ("0.0.0200", "FBA", 512)


@given(st.lists(st.text(alphabet="0123456789abcdefx.:() /?ECKDFBAIactivenoflsd\t", max_size=80), max_size=8))
def test_lsdasd_lines_of_any_shape_give_well_formed_entries(lines: list[str]) -> None:
    for name, (bus_id, kind, block_size) in dasd_devices("\n".join(lines)).items():
        assert re.fullmatch(r"dasd[a-z]{1,4}", name) and kind in ("ECKD", "FBA", "DIAG")
        assert re.fullmatch(r"[0-9a-f.]{4,10}", bus_id) and (block_size is None or block_size >= 0)
