"""Untrusted text in captures and probe documents: what lsblk and udev escape is decoded once, as the UTF-8
it spells, and never reaches a probe document as a control character; iosched reads back every probe
document it writes; a damaged probe document is one line and exit 2."""

from __future__ import annotations

import copy
import functools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from iosched.cli import main
from iosched.grammar import UNSEEN_RANGES
from iosched.observe.reader import read_root
from probe_helpers import scratch

UNSEEN = frozenset(chr(c) for first, last in UNSEEN_RANGES for c in range(first, last + 1)) | {"\t", "\n", "\r"}


def lsblk_escaped(text: str) -> str:
    """``text`` as ``lsblk -P`` prints it (util-linux include/carefulputc.h, fputs_quoted_case): ``"``, ``\\``,
    `````, ``$`` and every byte that is not printable ASCII as ``\\xNN``."""
    return "".join(chr(b) if 0x20 <= b < 0x7F and chr(b) not in '"\\`$' else f"\\x{b:02x}" for b in text.encode())


def udev_encoded(text: str) -> str:
    """``text`` as udev's ``*_ENC`` properties hold it (systemd src/shared/device-nodes.c, encode_devnode_name):
    multi-byte UTF-8 kept, every other byte outside ``0-9A-Za-z#+-.:=@_`` as ``\\xNN``."""
    out = []
    for char in text:
        if len(char.encode()) > 1 or (char.isascii() and (char.isalnum() or char in "#+-.:=@_")):
            out.append(char)
        else:
            out.append("".join(f"\\x{b:02x}" for b in char.encode()))
    return "".join(out)


def capture(root: Path, model: str, vendor: str, hostname: str = "h1") -> Path:
    """A capture whose lsblk -P, udev record and sysfs each give a device ``model`` and ``vendor``."""
    block = root / "sos_commands" / "block"
    block.mkdir(parents=True)
    (root / "sos_commands" / "host").mkdir()
    (root / "sos_commands" / "host" / "hostname").write_text(f"{hostname}\n")
    (block / "lsblk_-O_-P").write_text(
        f'NAME="sda" KNAME="sda" MAJ:MIN="8:0" MODEL="{lsblk_escaped(model)}" VENDOR="{lsblk_escaped(vendor)}" '
        'ROTA="1" SCHED="mq-deadline" TYPE="disk" PKNAME=""\n'
    )
    (block / "udevadm_info_.dev.sdb").write_text(
        f"P: /devices/virtual/block/sdb\nN: sdb\nE: DEVNAME=/dev/sdb\nE: DEVTYPE=disk\nE: SUBSYSTEM=block\n"
        f"E: ID_MODEL_ENC={udev_encoded(model)}\nE: ID_VENDOR_ENC={udev_encoded(vendor)}\n"
    )
    sdc = root / "sys" / "block" / "sdc"
    (sdc / "device").mkdir(parents=True)
    (sdc / "queue").mkdir()
    (sdc / "dev").write_text("8:32\n")
    (sdc / "queue" / "scheduler").write_text("[mq-deadline] none\n")
    (sdc / "device" / "model").write_text(f"{model}\n", errors="surrogateescape")
    (sdc / "device" / "vendor").write_text(f"{vendor}\n", errors="surrogateescape")
    (root / "proc").mkdir()
    (root / "proc" / "mounts").write_text(f"/dev/sdc1 /mnt/{mangled(model)} xfs rw,relatime 0 0\n")
    return root


def mangled(path: str) -> str:
    """``path`` as /proc/mounts shows it (linux fs/proc_namespace.c: space, tab, newline and backslash as
    octal escapes), and each other byte below 0x20 escaped too, as no kernel writes it but a capture can."""
    return "".join(f"\\{ord(c):03o}" if c in " \t\n\\" or ord(c) < 0x20 else c for c in path)


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


@pytest.mark.parametrize(
    ("encoded", "expected"),
    [("WDC\\x20WD10EZEX-\\xc3\\xa9", "WDC WD10EZEX-é"), ("Disk\\x20\\xe6\\x97\\xa5", "Disk 日"),
     ("\\xe6\\x97abc", "\ufffdabc"), ("Ünï\\x20x", "Ünï x")],
)  # fmt: skip
def test_udev_escapes_of_utf8_decode_to_the_characters_they_spell(tmp_path: Path, encoded: str, expected) -> None:
    """A cut sequence shows as U+FFFD, never as Latin-1 letters and C1 controls."""
    root = capture(tmp_path / "c", "x", "y")
    record = root / "sos_commands" / "block" / "udevadm_info_.dev.sdb"
    record.write_text(record.read_text().replace("ID_MODEL_ENC=x", f"ID_MODEL_ENC={encoded}"))
    device = read_root(root).device("sdb")
    assert device is not None and device.model == expected


HOSTILE = st.text(
    st.one_of(st.characters(codec="utf-8"), st.sampled_from("\x1b\x07\n\r\t\x00\x7f\x9b\u202e\u2028\\\"$`")),
    min_size=1, max_size=40,
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(model=HOSTILE, vendor=HOSTILE, hostname=HOSTILE)
def test_probe_json_carries_no_control_characters_and_advise_reads_it_back(model, vendor, hostname, capsys) -> None:
    with scratch() as tmp:
        root = capture(Path(tmp) / "c", model, vendor, hostname)
        assert main(["probe", "--root", str(root), "--format", "json"]) == 0
        out = capsys.readouterr().out
        document = json.loads(out)
        for text in strings([document["devices"], document["mounts"]]):
            assert not UNSEEN & set(text), text
        for device in document["devices"]:
            if device["name"] in ("sda", "sdb") and model.strip() and model.isprintable():
                assert device["model"] == " ".join(model.split()), device
        path = Path(tmp) / "probe.json"
        path.write_text(out)
        code = main(["advise", "--context", str(path), "--workload", "db", "--format", "json"])
        captured = capsys.readouterr()
        assert code == 0, captured.err


# ------------------------------------------------------------------------------------------------ damaged documents

PROBED = Path(__file__).parent / "captures" / "sos-rhel8-kvm-lvm"
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=6,
)


def probe_document() -> dict:
    """A fresh copy of the probe document of :data:`PROBED` (probed once per session: each hypothesis example
    damages its own copy)."""
    return json.loads(_probed())


@functools.cache
def _probed() -> str:
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["probe", "--root", str(PROBED), "--format", "json"]) == 0
    return out.getvalue()


def paths(value: object, at: tuple = ()) -> list[tuple]:
    """Every place in a JSON value: keys of mappings and indices of lists."""
    found = [at] if at else []
    if isinstance(value, dict):
        found += [p for k, v in value.items() for p in paths(v, (*at, k))]
    elif isinstance(value, list):
        found += [p for i, v in enumerate(value) for p in paths(v, (*at, i))]
    return found


@st.composite
def damaged(draw: st.DrawFn) -> dict:
    """A probe document with one to three fields removed, replaced by any JSON value or another field's value,
    or added."""
    document = probe_document()
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(document)))
        parent = document
        for key in where[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["delete", "replace", "add", "copy"]))
        if how == "delete":
            del parent[where[-1]]
        elif how == "replace":
            parent[where[-1]] = draw(JSON_VALUES)
        elif how == "copy":  # another field's value: a device its own parent, holders in a cycle, twins
            source = document
            for key in draw(st.sampled_from(paths(document))):
                source = source[key]
            parent[where[-1]] = copy.deepcopy(source)
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=10))] = draw(JSON_VALUES)
    return document


def test_a_device_without_kind_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    document = probe_document()
    del document["devices"][0]["kind"]
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(document))
    assert main(["advise", "--context", str(path), "--workload", "db"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "devices[0]" in err and "kind" in err, err


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=damaged())
def test_a_damaged_probe_document_plans_or_is_one_line_and_exit_2(document: dict, capsys) -> None:
    with scratch() as tmp:
        path = Path(tmp) / "probe.json"
        path.write_text(json.dumps(document))
        code = main(["advise", "--context", str(path), "--workload", "db", "--format", "json"])
        err = capsys.readouterr().err
        assert code in (0, 2), err
        if code == 2:
            assert err.startswith("iosched: error: ") and err.count("\n") == 1, err
        assert main(["fleet", str(path), "--workload", "db", "--format", "json"]) == 0
        capsys.readouterr()


# ------------------------------------------------------------------------------------------------ hard links


def counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes of every read of a capture's file, as the reader asks for them."""
    from iosched.capture import source

    sizes: list[int] = []
    real = source._read_bounded

    def counted(fd: int, limit: int) -> bytes:
        data = real(fd, limit)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(source, "_read_bounded", counted)
    return sizes


def queue_capture(root: Path) -> Path:
    queue = root / "sys" / "block" / "sda" / "queue"
    queue.mkdir(parents=True)
    (root / "sys" / "block" / "sda" / "dev").write_text("8:0\n")
    (queue / "scheduler").write_text("[mq-deadline] none\n")
    return queue


def test_a_file_hard_linked_many_times_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from iosched.capture.source import MAX_BYTES

    queue = queue_capture(tmp_path / "c")
    big = queue / "a0"
    big.write_text("1" * (MAX_BYTES - 1))  # just under the limit of one file
    for i in range(1, 300):
        os.link(big, queue / f"a{i}")
    sizes = counting_reads(monkeypatch)
    decoded = counting_decodes(monkeypatch)
    system = read_root(tmp_path / "c")
    assert system.device("sda") is not None
    assert sum(sizes) < 2 * MAX_BYTES, f"{sum(sizes) // MAX_BYTES} MiB read"
    assert sum(decoded) < 2 * MAX_BYTES, f"{sum(decoded) // MAX_BYTES} MiB decoded"


def counting_decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters of every text a capture's reader makes of a file's bytes."""
    from iosched.capture import source

    sizes: list[int] = []
    real = source.clean

    def counted(text: str) -> str:
        sizes.append(len(text))
        return real(text)

    monkeypatch.setattr(source, "clean", counted)
    return sizes


def test_a_refused_file_is_refused_under_each_of_its_names(tmp_path: Path) -> None:
    from iosched.capture.source import TreeSource

    (tmp_path / "a").write_bytes(b"1\0")
    os.link(tmp_path / "a", tmp_path / "b")
    source = TreeSource(tmp_path)
    assert source.text("a") is None and source.text("b") is None
    assert source.refused == ["a: binary", "b: binary"]


@functools.cache
def linked_tree(root: Path) -> Path:
    """Directories, files and links of every kind: relative and absolute, up and out of the tree, to a link, in a
    loop, and dangling."""
    for directory in ("a/b/c", "d"):
        (root / directory).mkdir(parents=True)
    (root / "a/b/c/f").write_text("1\n")
    for link, target in {"a/up": "..", "a/b/back": "../../d", "d/out": "../..", "d/abs": str(root / "a/b"),
                         "d/etc": "/etc", "a/b/c/self": ".", "loop1": "loop2", "loop2": "loop1", "gone": "nowhere",
                         "d/chain": "../a/up"}.items():  # fmt: skip
        (root / link).symlink_to(target)
    return root


NAMES = ["a", "b", "c", "d", "f", "up", "back", "out", "abs", "etc", "self", "loop1", "gone", "chain", "..", ".", ""]


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.sampled_from(NAMES), min_size=1, max_size=6))
@example(parts=["loop1", "..", "gone"])  # past a loop realpath resolves nothing more: "gone" stays itself
def test_a_path_resolves_as_realpath_resolves_it_and_only_inside_is_read(parts, tmp_path_factory) -> None:
    """Each directory of a capture is resolved once, and every path still resolves exactly as
    ``os.path.realpath`` resolves it: a path that leads outside the root is refused."""
    from iosched.capture.source import TreeSource

    root = linked_tree(tmp_path_factory.getbasetemp() / "linked")
    source = TreeSource(root)
    for rel in ("/".join(parts), "/".join(parts[:-1])):  # a path, then its parent again from the cache
        as_posix = "/".join(filter(None, rel.split("/")))  # a//b is a/b (realpath makes /b of loop//b)
        real = os.path.realpath(os.path.join(root, as_posix))
        inside = real == str(root) or real.startswith(f"{root}/")
        assert source._inside(rel) == (real if inside else None), rel


def test_the_bytes_read_from_one_capture_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from iosched.capture.source import MAX_BYTES, MAX_TOTAL_BYTES

    queue = queue_capture(tmp_path / "c")
    for i in range(MAX_TOTAL_BYTES // MAX_BYTES + 40):
        with (queue / f"a{i}").open("wb") as fh:  # sparse: no disk, all the reading
            fh.truncate(MAX_BYTES - 1)
    sizes = counting_reads(monkeypatch)
    system = read_root(tmp_path / "c")
    assert sum(sizes) <= MAX_TOTAL_BYTES + MAX_BYTES
    assert any("read budget" in line for line in system.missing), system.missing


# ------------------------------------------------------------------------------------------------ messages


@pytest.mark.parametrize(("limit", "shown"), [(512 * 1024, "512 KiB"), (1536 * 1024, "1536 KiB"),
                                              (16 * 1024 * 1024, "16 MiB"), (1000, "1000 bytes")])  # fmt: skip
def test_a_size_limit_is_named_as_it_is(tmp_path: Path, limit: int, shown: str) -> None:
    from iosched.capture.source import TreeSource
    from iosched.fleet.ansible_docs import read_regular
    from iosched.yamlsrc import YamlError, parse

    big = tmp_path / "big"
    big.write_text("x" * (limit + 1))
    with pytest.raises(ValueError, match=f"^larger than {shown}$"):
        read_regular(big, limit)
    with pytest.raises(YamlError, match=f"^larger than {shown}$"):
        parse("x" * (limit + 1), limit)
    source = TreeSource(tmp_path)
    assert source.text("big", limit) is None and source.refused == [f"big: larger than {shown}"]


@pytest.mark.parametrize(
    ("value", "reason"),
    [(5, "expected text"), ("x" * 5000, "longer than 4096 characters"), ("a\x1bb", "a control character")],
)
def test_a_probe_document_field_is_refused_for_its_own_reason(value: object, reason: str) -> None:
    from iosched.observe.probejson import ProbeDocumentError, from_document

    document = probe_document()
    document["host"]["kernel"] = value
    with pytest.raises(ProbeDocumentError, match=f"^host.kernel: {reason}"):
        from_document(document)
