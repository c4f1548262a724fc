"""Is the host a virtual machine, and under which hypervisor? Names as ``systemd-detect-virt --vm`` prints them.

The evidence, in order: a saved ``systemd-detect-virt`` answer; ``/proc/sysinfo`` on IBM Z (z/VM or KVM);
``/sys/hypervisor/type`` (Xen); the DMI vendor strings (the same table of prefixes as systemd's
src/basic/virt.c); ``lscpu``'s hypervisor vendor; the paravirtual clock sources the kernel registered; and
finally the x86 ``hypervisor`` CPU flag, which says that there is a hypervisor without naming it (``vm-other``).
"""

from __future__ import annotations

import re

from iosched.capture.source import Source

VIRT_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
DMI_FILES = ("product_name", "sys_vendor", "board_vendor", "bios_vendor", "product_version")
DMI_PREFIXES = (
    ("KVM", "kvm"), ("OpenStack", "kvm"), ("KubeVirt", "kvm"), ("Amazon EC2", "amazon"), ("QEMU", "qemu"),
    ("VMware", "vmware"), ("VMW", "vmware"), ("innotek GmbH", "oracle"), ("VirtualBox", "oracle"),
    ("Oracle Corporation", "oracle"), ("Xen", "xen"), ("Bochs", "bochs"), ("Parallels", "parallels"),
    ("BHYVE", "bhyve"), ("Hyper-V", "microsoft"), ("Apple Virtualization", "apple"),
    ("Google Compute Engine", "google"),
)  # fmt: skip
LSCPU_VENDORS = (("KVM", "kvm"), ("VMware", "vmware"), ("Microsoft", "microsoft"), ("Xen", "xen"),
                 ("Oracle", "oracle"), ("Parallels", "parallels"), ("bhyve", "bhyve"))  # fmt: skip
CLOCKSOURCES = (("kvm-clock", "kvm"), ("hyperv_clocksource", "microsoft"), ("xen", "xen"))
CLOCKSOURCE_FILE = "sys/devices/system/clocksource/clocksource0/available_clocksource"
CPUINFO_HEAD = 64 * 1024
CONTAINERS = frozenset({"docker", "podman", "lxc", "lxc-libvirt", "systemd-nspawn", "openvz", "rkt", "wsl", "proot"})


def read_virtualization(src: Source) -> str | None:
    """The hypervisor (``kvm``, ``vmware``, ``zvm`` ...), ``none`` on bare metal, None when nothing tells."""
    for detect in (_detect_virt, _sysinfo, _xen, _dmi, _lscpu, _clocksource, _cpu_flag):
        found = detect(src)
        if found is not None:
            return found
    return None


def _detect_virt(src: Source) -> str | None:
    for command in ("systemd-detect-virt -v", "systemd-detect-virt --vm", "systemd-detect-virt"):
        answer = (src.command(command) or "").strip()
        if VIRT_NAME.fullmatch(answer) and answer not in CONTAINERS:
            return answer
    return None


def _sysinfo(src: Source) -> str | None:
    """IBM Z: ``VM00 Control Program: z/VM 7.2.0`` or ``KVM/Linux``; an LPAR has no VM00 lines."""
    text = src.text("proc/sysinfo")
    if text is None:
        return None
    program = re.search(r"^VM00 Control Program:\s*(.+)$", text, re.MULTILINE)
    if program is None:
        return "none" if re.search(r"^LPAR ", text, re.MULTILINE) else None
    return "zvm" if "z/VM" in program.group(1) else "kvm"


def _xen(src: Source) -> str | None:
    return "xen" if (src.value("sys/hypervisor/type") or "").lower() == "xen" else None


def _dmi(src: Source) -> str | None:
    values = {name: src.value(f"sys/class/dmi/id/{name}") for name in DMI_FILES}
    product = values.get("product_name") or ""
    for name in DMI_FILES:
        value = values.get(name) or ""
        for prefix, virt in DMI_PREFIXES:
            if value.startswith(prefix):
                if virt == "amazon" and re.search(r"\.metal(?:-|$)", product):
                    return "none"
                if virt == "qemu":  # QEMU firmware; with a KVM clock it is QEMU accelerated by KVM
                    return _clocksource(src) or virt
                return virt
    if (values.get("sys_vendor") or "").startswith("Microsoft Corporation") and product == "Virtual Machine":
        return "microsoft"
    return None


def _lscpu(src: Source) -> str | None:
    text = src.command("lscpu")
    if text is None:
        return None
    # util-linux 2.37+ indents these lines under "Virtualization features:"
    hypervisor = re.search(r"^\s*Hypervisor:\s*(.+)$", text, re.MULTILINE)
    if hypervisor and "z/VM" in hypervisor.group(1):
        return "zvm"
    vendor = re.search(r"^\s*Hypervisor vendor:\s*(.+)$", text, re.MULTILINE)
    if vendor is None:
        return None
    return next((virt for prefix, virt in LSCPU_VENDORS if vendor.group(1).startswith(prefix)), "vm-other")


def _clocksource(src: Source) -> str | None:
    """A paravirtual clock (``kvm-clock``, Hyper-V's, Xen's) is registered only under its hypervisor."""
    names = (src.value(CLOCKSOURCE_FILE) or "").split()
    return next((virt for clock, virt in CLOCKSOURCES if any(n.startswith(clock) for n in names)), None)


def _cpu_flag(src: Source) -> str | None:
    """x86 only: ``flags`` lines exist; ``hypervisor`` among them means a VM of some kind."""
    text = src.text("proc/cpuinfo", limit=CPUINFO_HEAD, head=True)  # the first processor is enough
    flags = re.search(r"^flags\s*:(.*)$", text or "", re.MULTILINE)
    if flags is None:
        return None
    return "vm-other" if "hypervisor" in flags.group(1).split() else "none"
