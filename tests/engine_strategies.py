"""Strategies over every context the KB can describe."""

from __future__ import annotations

from hypothesis import strategies as st

from iosched.knowledge.context import Context
from iosched.knowledge.kbcache import load_checked
from iosched.vocab import CACHES, GOALS

KB = load_checked()  # checked; from the compiled cache keyed by the YAML content: 10 ms, not a second of YAML
# A device name of every class a hardware preset can be (sdc for SCSI disks, vdb for virtio ...).
DEVICES: dict[str, list[str | None]] = {}
for _cls in KB.section("device_classes"):
    _name = _cls.kernel_names[0].replace("*n*", "0n1").replace("*", "c" if _cls.kernel_names[0].endswith("d*") else "1")
    for _hw in _cls.hardware:
        DEVICES.setdefault(_hw, []).append(_name)
OPTIONS = ["rw,relatime", "rw,nobarrier", "rw,barrier=0"]
KERNELS = ["2.6.32", "3.0", "3.10", "3.13", "3.19", "4.4", "4.12", "4.14", "4.18", "4.19", "5.0", "5.4", "5.14",
           "6.1", "6.8", "6.12"]  # fmt: skip


@st.composite
def contexts(draw: st.DrawFn) -> Context:
    """A context built from KB ids: a distribution (implying its kernel) or an explicit kernel."""
    distro = draw(st.none() | st.sampled_from([d.id for d in KB.section("distributions")]))
    filesystems = sorted({m.filesystem for m in KB.section("mount_options")})
    hw = draw(st.sampled_from([h.id for h in KB.section("hardware")]))
    fs = draw(st.none() | st.sampled_from(filesystems))
    return Context(
        hw=hw,
        device=draw(st.none() | st.sampled_from(DEVICES.get(hw, [None]))),
        mount_options=draw(st.none() | st.sampled_from(OPTIONS)) if fs else None,
        workload=draw(st.none() | st.sampled_from([w.id for w in KB.section("workloads")])),
        distro=distro,
        kernel=None if distro and draw(st.booleans()) else draw(st.sampled_from(KERNELS)),
        cache=draw(st.none() | st.sampled_from(CACHES)),
        fs=fs,
        goal=draw(st.none() | st.sampled_from(GOALS)),
    )
