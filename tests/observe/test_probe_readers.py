"""The readers on small trees built for one behaviour each: precedence, masks, includes, confinement."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from iosched.capture.listings import lsblk_pairs, lsblk_table, parents, udev_records
from iosched.capture.source import MAX_BYTES, TreeSource
from iosched.mechanisms.cmdline import cmdline_settings
from iosched.mechanisms.sysctld import read_sysctl_tuners
from iosched.mechanisms.tuned import read_tuned
from iosched.mechanisms.udev import read_udev_tuners, rule_settings
from iosched.observe.blockdevs import parse_scheduler, read_devices
from iosched.observe.reader import read_root
from iosched.observe.release import parse_redhat_release, parse_suse_release
from iosched.observe.virt import read_virtualization


def tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("[mq-deadline] none\n", (("mq-deadline", "none"), "mq-deadline")),
        ("none\n", ((), None)),
        ("noop deadline [cfq] \n", (("noop", "deadline", "cfq"), "cfq")),
        ("none [mq-deadline] kyber bfq \n", (("none", "mq-deadline", "kyber", "bfq"), "mq-deadline")),
        ("[none] mq-deadline\n", (("none", "mq-deadline"), "none")),
        ("", None),
        ("[a] [b]", None),
        ("rm -rf /", None),
    ],
)
def test_scheduler_lines(line: str, expected: object) -> None:
    assert parse_scheduler(line) == expected


def test_udev_etc_overrides_usr_lib_and_dev_null_masks(tmp_path: Path) -> None:
    rule = 'ACTION=="add", KERNEL=="sd*", ATTR{queue/rotational}=="1", ATTR{queue/scheduler}="%s"\n'
    tree(tmp_path, {
        "usr/lib/udev/rules.d/60-sched.rules": rule % "bfq",
        "etc/udev/rules.d/60-sched.rules": rule % "mq-deadline",
        "usr/lib/udev/rules.d/61-other.rules": rule % "kyber",
        "lib/udev/rules.d/62-ra.rules": 'KERNEL=="vd*", \\\n  ATTR{queue/read_ahead_kb}="4096"\n',
    })  # fmt: skip
    (tmp_path / "etc/udev/rules.d/61-other.rules").symlink_to("/dev/null")
    tuners = read_udev_tuners(TreeSource(tmp_path))
    assert [(t.name, t.settings) for t in tuners] == [
        ("/etc/udev/rules.d/60-sched.rules:1", {"scheduler": "mq-deadline"}),
        ("/lib/udev/rules.d/62-ra.rules:1", {"queue/read_ahead_kb": "4096"}),
    ]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ('KERNEL=="sd*", ATTR{queue/scheduler}=="none", GOTO="end"', {}),
        ('ATTR{queue/iosched/slice_idle}="0"', {"iosched/slice_idle": "0"}),
        ('ATTR{queue/nr_requests}:="256"', {"queue/nr_requests": "256"}),
        ("RUN+=\"/bin/sh -c 'echo none > /sys/block/%k/queue/scheduler'\"", {"scheduler": "none"}),
        ('ATTR{bdi/read_ahead_kb}="512"', {}),
    ],
)
def test_udev_rule_settings(rule: str, expected: dict[str, str]) -> None:
    assert rule_settings(rule) == expected


def test_sysctl_d_order_and_precedence(tmp_path: Path) -> None:
    tree(tmp_path, {
        "usr/lib/sysctl.d/50-default.conf": "vm.dirty_ratio = 20\n",
        "etc/sysctl.d/50-default.conf": "vm.dirty_ratio = 10\n",
        "run/sysctl.d/10-early.conf": "; comment\n-vm/dirty_background_ratio = 5\n",
        "etc/sysctl.conf": "# nothing but this\nvm.swappiness=1\n",
    })  # fmt: skip
    tuners = read_sysctl_tuners(TreeSource(tmp_path))
    assert [(t.name, t.settings) for t in tuners] == [
        ("/run/sysctl.d/10-early.conf", {"vm.dirty_background_ratio": "5"}),
        ("/etc/sysctl.d/50-default.conf", {"vm.dirty_ratio": "10"}),
        ("/etc/sysctl.conf", {"vm.swappiness": "1"}),
    ]


def test_tuned_include_override_loop_and_missing_profile(tmp_path: Path) -> None:
    tree(tmp_path, {
        "etc/tuned/active_profile": "mine\n",
        "etc/tuned/mine/tuned.conf": "[main]\ninclude=base, gone\n[disk]\nelevator=none\n[vm]\ndirty_bytes=15%\n",
        "usr/lib/tuned/base/tuned.conf": "[main]\ninclude=mine\n[disk]\nelevator=bfq\nreadahead=8192 s\n"
                                         "[sysfs]\n/sys/block/sda/queue/nr_requests=64\n",
        "run/tuned/tuned.pid": "1234\n",
    })  # fmt: skip
    tuners, missing = read_tuned(TreeSource(tmp_path))
    assert [(t.name, t.active) for t in tuners] == [("mine", True)]
    assert tuners[0].settings == {
        "scheduler": "none", "queue/read_ahead_kb": "4096", "queue/nr_requests": "64", "vm.dirty_ratio": "15",
    }  # fmt: skip
    assert any("include loop" in m for m in missing) and "tuned profile gone (tuned.conf)" in missing


def test_tuned_daemon_not_running(tmp_path: Path) -> None:
    answer = "Current active profile: balanced\nIt seems that tuned daemon is not running, preset profile is not ..."
    tree(tmp_path, {"sos_commands/tuned/tuned-adm_active": answer, "usr/lib/tuned/balanced/tuned.conf": "[disk]\n"})
    tuners, missing = read_tuned(TreeSource(tmp_path))
    assert [(t.name, t.active, t.settings) for t in tuners] == [("balanced", False, {})] and missing == []


def test_kernel_command_line_settings() -> None:
    line = "ro elevator=deadline scsi_mod.use_blk_mq=1 sysctl.vm.dirty_ratio=5 quiet -- elevator=noop"
    assert cmdline_settings(line) == {"scheduler": "deadline", "scsi_mod.use_blk_mq": "1", "vm.dirty_ratio": "5"}


def test_release_files_before_os_release() -> None:
    sles11 = parse_suse_release("SUSE Linux Enterprise Server 11 (x86_64)\nVERSION = 11\nPATCHLEVEL = 4\n")
    assert (sles11["ID"], sles11["VERSION_ID"]) == ("sles", "11.4")
    rhel6 = parse_redhat_release("Red Hat Enterprise Linux Server release 6.10 (Santiago)\n")
    assert (rhel6["ID"], rhel6["VERSION_ID"]) == ("rhel", "6.10")
    centos = parse_redhat_release("CentOS Linux release 7.9.2009 (Core)\n")
    assert (centos["ID"], centos["VERSION_ID"], centos["ID_LIKE"]) == ("centos", "7.9.2009", "rhel fedora")
    assert parse_redhat_release("Something else\n") == {}


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"proc/sysinfo": "LPAR Number: 12\nVM00 Control Program: z/VM    7.2.0\n"}, "zvm"),
        ({"proc/sysinfo": "LPAR Number: 12\nVM00 Control Program: KVM/Linux\n"}, "kvm"),
        ({"proc/sysinfo": "LPAR Number: 12\nLPAR Name: LP01\n"}, "none"),
        ({"sys/class/dmi/id/sys_vendor": "Amazon EC2\n", "sys/class/dmi/id/product_name": "m5.metal\n"}, "none"),
        ({"sys/class/dmi/id/sys_vendor": "Amazon EC2\n", "sys/class/dmi/id/product_name": "m5.large\n"}, "amazon"),
        ({"sys/class/dmi/id/sys_vendor": "Microsoft Corporation\n",
          "sys/class/dmi/id/product_name": "Virtual Machine\n"}, "microsoft"),
        ({"sys/hypervisor/type": "xen\n"}, "xen"),
        ({"proc/cpuinfo": "flags\t\t: fpu vme hypervisor\n"}, "vm-other"),
        ({"proc/cpuinfo": "flags\t\t: fpu vme\n"}, "none"),
        ({"sos_commands/processor/lscpu": "Hypervisor vendor:   KVM\nVirtualization type: full\n"}, "kvm"),
        ({"proc/cpuinfo": "processor : 0\nCPU implementer : 0x41\n"}, None),
    ],
)  # fmt: skip
def test_virtualization_sources(tmp_path: Path, files: dict[str, str], expected: str | None) -> None:
    assert read_virtualization(TreeSource(tree(tmp_path, files))) == expected


def test_symlinks_out_of_the_root_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    tree(outside, {"secret": "vm.dirty_ratio = 99\n", "queue/scheduler": "[bfq] none\n"})
    root = tmp_path / "root"
    (root / "sys/block").mkdir(parents=True)
    (root / "etc").mkdir()
    (root / "sys/block/sdz").symlink_to(outside)
    (root / "etc/os-release").symlink_to("../../outside/secret")
    (root / "etc/sysctl.conf").symlink_to(outside / "secret")
    system = read_root(root)
    assert system.device("sdz").scheduler is None and system.device("sdz").queue == {}
    assert system.host.os_release == {} and not [t for t in system.tuners if t.kind == "sysctl.d"]
    assert any("leads outside the capture" in m for m in system.missing)


def test_links_inside_the_root_are_followed(tmp_path: Path) -> None:
    tree(tmp_path, {"sys/devices/pci0/block/sda/queue/scheduler": "[mq-deadline] none\n",
                    "sys/devices/pci0/block/sda/sda1/partition": "1\n"})  # fmt: skip
    (tmp_path / "sys/block").mkdir()
    (tmp_path / "sys/class/block").mkdir(parents=True)
    (tmp_path / "sys/block/sda").symlink_to("../devices/pci0/block/sda")
    (tmp_path / "sys/class/block/sda1").symlink_to("../../devices/pci0/block/sda/sda1")
    devices, _ = read_devices(TreeSource(tmp_path))
    assert [(d.name, d.kind, d.scheduler, d.parent) for d in devices] == [
        ("sda", "disk", "mq-deadline", None), ("sda1", "partition", None, "sda"),
    ]  # fmt: skip


def test_fifos_devices_huge_and_binary_files_are_refused(tmp_path: Path) -> None:
    tree(tmp_path, {"etc/os-release": 'ID=debian\nVERSION_ID="12"\n\0\1binary'})
    (tmp_path / "proc").mkdir()
    os.mkfifo(tmp_path / "proc/cmdline")  # opening it for reading would block without O_NONBLOCK
    with (tmp_path / "proc/mounts").open("wb") as fh:
        fh.truncate(MAX_BYTES + 1)
    src = TreeSource(tmp_path)
    assert src.text("proc/cmdline") is None and src.text("proc/mounts") is None
    assert src.text("etc/os-release") is None
    assert src.refused == ["proc/cmdline: not a regular file", f"proc/mounts: larger than {MAX_BYTES >> 20} MiB",
                           "etc/os-release: binary"]  # fmt: skip


def test_a_long_cpuinfo_is_read_from_its_head(tmp_path: Path) -> None:
    processor = "processor\t: {}\nflags\t\t: fpu vme hypervisor\n\n"
    tree(tmp_path, {"proc/cpuinfo": "".join(processor.format(n) for n in range(40_000))})
    assert (tmp_path / "proc/cpuinfo").stat().st_size > MAX_BYTES
    system = read_root(tmp_path)
    assert system.host.virtualization == "vm-other" and not any("cpuinfo" in m for m in system.missing)


def test_control_characters_never_leave_the_source(tmp_path: Path) -> None:
    tree(tmp_path, {"etc/os-release": 'ID=debian\nPRETTY_NAME="Evil \x1b[2J\x07\x9b31m name"\r\n'})
    system = read_root(tmp_path)
    assert system.host.os_release["PRETTY_NAME"] == "Evil [2J31m name"


def test_lsblk_tree_with_unicode_and_ascii_branches() -> None:
    text = ("NAME          MAJ:MIN RM  SIZE RO TYPE MOUNTPOINTS\n"
            "vda           252:0    0   20G  0 disk \n"
            "├─vda1        252:1    0    1G  0 part /boot\n"
            "└─vda2        252:2    0   19G  0 part \n"
            "  └─rhel-root 253:0    0   17G  0 lvm  /\n")  # fmt: skip
    rows = lsblk_table(text)
    assert [(r.depth, r.cells["NAME"], r.cells["TYPE"], r.cells["MOUNTPOINTS"]) for r in rows] == [
        (0, "vda", "disk", ""), (1, "vda1", "part", "/boot"), (1, "vda2", "part", ""), (2, "rhel-root", "lvm", "/"),
    ]  # fmt: skip
    assert [(c.cells["NAME"], p.cells["NAME"]) for c, p in parents(rows)] == [
        ("vda1", "vda"), ("vda2", "vda"), ("rhel-root", "vda2"),
    ]  # fmt: skip


def test_lsblk_pairs_and_udev_export() -> None:
    assert lsblk_pairs('NAME="sda" MODEL="Virtual\\x20disk" SCHED="bfq"\ngarbage\n') == [
        {"NAME": "sda", "MODEL": "Virtual disk", "SCHED": "bfq"}
    ]
    records = udev_records("P: /devices/x/block/sda\nN: sda\nE: ID_SERIAL=abc\n\nP: /devices/x/net/eth0\n"
                           "E: SUBSYSTEM=net\nE: INTERFACE=eth0\n")  # fmt: skip
    assert records == {"sda": {"ID_SERIAL": "abc"}}


def test_saptune_notes_with_overrides_and_sapconf(tmp_path: Path) -> None:
    tree(tmp_path, {
        "etc/sysconfig/saptune": 'TUNE_FOR_NOTES="1980196"\nNOTE_APPLY_ORDER="2578899 1980196"\nSAPTUNE_VERSION="3"\n',
        "var/lib/saptune/working/notes/2578899": "[block]\nIO_SCHEDULER=noop, none\nNRREQ=\n[sysctl]\n"
                                                 "vm.dirty_bytes=629145600\n[sysctl:csp=azure]\nvm.swappiness=1\n",
        "etc/saptune/override/2578899": "[block]\nIO_SCHEDULER=mq-deadline\n[sysctl]\nvm.dirty_bytes=\n",
        "etc/sysconfig/sapconf": 'IO_SCHEDULER="noop none"\nDIRTY_BYTES=629145600\nDIRTY_BG_BYTES=\n',
    })  # fmt: skip
    system = read_root(tmp_path)
    assert [(t.kind, t.name, t.settings, t.active) for t in system.tuners] == [
        ("saptune", "note 2578899", {"scheduler": "mq-deadline"}, True),
        ("saptune", "note 1980196", {}, True),
        ("sapconf", "/etc/sysconfig/sapconf", {"scheduler": "noop none", "vm.dirty_bytes": "629145600"}, True),
    ]
    assert "saptune note 1980196 (its sheet)" in system.missing
