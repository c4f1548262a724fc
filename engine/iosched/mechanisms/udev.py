"""udev rules: the rule files a host has that write block queue attributes, and the one iosched writes per device.

Files: udev reads ``*.rules`` from /etc/udev/rules.d, /run, /usr/local/lib, /usr/lib and /lib (udev(7)); a file in
/etc replaces a same-named one further down, and a file that is empty or a link to /dev/null masks it. iosched
writes one file per device (``90-iosched-sdb.rules``), so that plans of different devices never replace each
other's rules and each undo removes only its own.

Reading: ``ATTR{queue/scheduler}="..."`` and ``echo ... > .../queue/...`` assignments, as tuners. A value taken
from the kernel command line (``IMPORT{cmdline}="elevator"`` then ``ATTR{queue/scheduler}="$env{elevator}"``, as
in RHEL 8/9's 40-elevator.rules) is the host's command-line value; without it the rule sets nothing.

Writing: one rule per device, scheduler first (a switch resets the tunables), matched on its WWN or serial.

Precedence: udev applies the rule files in file-name order as it adds each device, and the last assignment wins.
``90-`` sorts iosched's after every package rule the KB knows that writes a queue attribute (the distributions'
``60-io-scheduler``, ``60-block-scheduler`` and ``60-ssd-scheduler``, s390-tools' ``60-readahead``, btrfs-progs'
``64-btrfs-zoned``, amazon-ec2-utils' ``70-ec2-nvme-devices``: a ``60-`` file lost to the last four), and before
an administrator's ``99-`` rules. TuneD sets its ``[disk]`` options after udev's rules ran (:func:`acts_after`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from posixpath import basename

from iosched.escape import sh_comment, sh_lines, sh_word, udev_value
from iosched.grammar import compiled
from iosched.records import runtime
from iosched.records.plan import Step

# The functions that read a machine import its model where they build it: a plan from flags reads none.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from iosched.capture.source import Source
    from iosched.records.system import Tuner

# Files and precedence

DIRECTORY = "/etc/udev/rules.d/"
PREFIX, SUFFIX = "90-iosched-", ".rules"
FILE = f"{DIRECTORY}{PREFIX}DEVICE{SUFFIX}"
"""How the files are named (the documentation's spelling); :func:`path` gives one device's."""


def path(device: str) -> str:
    """The rule file of one device (a kernel name, checked by the DEVICE grammar before it gets here)."""
    return f"{DIRECTORY}{PREFIX}{device}{SUFFIX}"


def class_path(hardware: str) -> str:
    """The rule file of a plan that names no device: its match is every disk of the preset ``hardware``. It sorts
    before every device's file (``class-`` before the kernel names iosched plans: dasd, dm, mmcblk, nvme, sd, vd
    ...), so a device's own rule, applied after it, wins for that device."""
    return f"{DIRECTORY}{PREFIX}{CLASS}{hardware}{SUFFIX}"


CLASS = "class-"


def is_rules(name: str) -> bool:
    """Whether a path is one of iosched's rule files."""
    return name.startswith(DIRECTORY + PREFIX) and name.endswith(SUFFIX)


def rule_file(tuner: Tuner) -> str:
    """The file a tuner was read from (a udev tuner's name is ``FILE:LINE``)."""
    return tuner.name.rsplit(":", 1)[0] if tuner.kind == "udev" else tuner.name


def ours(device: str | None) -> str:
    """The file iosched writes for the plan of ``device`` (without one: the name all of them start with)."""
    return path(device) if device else DIRECTORY + PREFIX


def acts_after(tuner: Tuner, device: str | None) -> bool:
    """Whether ``tuner`` sets a queue attribute after the rule file of ``device``: a later rule file, or a tuning
    daemon (TuneD, tuned 0.2's ktune), which sets its values after udev's rules ran."""
    return tuner.kind in ("tuned", "ktune") or (
        tuner.kind == "udev" and basename(rule_file(tuner)) > basename(ours(device))
    )


# Writing

RELOAD = "sudo udevadm control --reload && sudo udevadm trigger --action=change --subsystem-match=block"
HEAD = 'ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk"'


def terms(matches: Iterable[Any]) -> str:
    """``KEY=="GLOB"`` terms (KB :class:`~iosched.knowledge.schema.UdevMatch` values) as a rule joins them."""
    return ", ".join(f'{m.key}=="{udev_value(m.value)}"' for m in matches)


def match(device: str, *, serial: str | None = None, wwn: str | None = None) -> str:
    """The terms that select one device: its WWN or serial when known (stable), else its kernel name."""
    if wwn:
        return f'ENV{{ID_WWN}}=="{udev_value(wwn)}"'
    if serial:
        return f'ENV{{ID_SERIAL}}=="{udev_value(serial)}"'
    return f'KERNEL=="{udev_value(device)}"'


def assignment(step: Step, value: str | None = None) -> str:
    """``ATTR{queue/scheduler}="mq-deadline"``: the sysfs file relative to the device, and the value (the
    step's, or the one of a case it decides on the machine)."""
    attribute = (
        step.target.removeprefix("queue.") if step.kind != "tunable" else f"iosched/{step.target.split('.', 1)[1]}"
    )
    return f'ATTR{{queue/{attribute}}}="{udev_value(step.value if value is None else value)}"'


def rule(match_terms: str, steps: Iterable[Step]) -> str:
    """One rule line; udev applies assignments in order, so the scheduler comes first (it resets the tunables).
    A step decided on the machine (:mod:`iosched.records.runtime`) makes one line per case, each matching its case."""
    ordered = sorted(steps, key=lambda s: s.kind != "scheduler")
    decision = next((s.decide for s in ordered if s.decide is not None), None)
    if decision is None:
        return ", ".join([HEAD, match_terms, *(assignment(s) for s in ordered)])
    lines = []
    for choice, case in zip(decision.choices, runtime.FACTS[decision.fact].cases, strict=True):
        done = [assignment(s, choice.value if s.decide else None) for s in ordered
                if not (s.decide and choice.value == runtime.KEEP)]  # fmt: skip
        if done:
            lines.append(", ".join([HEAD, match_terms, case.udev, *done]))
    return "\n".join(lines)


def content(comment: str, match_terms: str, steps: Iterable[Step], every: str | None = None) -> str:
    """One device's file (or, ``every`` naming a class of disk, a class rule's): what it is for, and its rule."""
    if every is None:
        head = "# Written by iosched for one device; remove this file (and reload udev) to undo."
    else:
        head = (f"# Written by iosched for every {sh_comment(every)} its match selects: a class rule.\n"
                "# The file of one device (90-iosched-DEVICE.rules) sorts after it and wins for that device.\n"
                "# Remove this file (and reload udev) to undo.")  # fmt: skip
    order = "# udev applies rule files in name order: 90- comes after the rules of packages that set these files."
    return "\n".join([head, order, f"# {sh_comment(comment)}", rule(match_terms, steps)])


def install(file: str, text: str) -> str:
    return f"printf '%s\\n' {sh_lines(text)} | sudo tee {sh_word(file)} >/dev/null\n{RELOAD}"


def remove(file: str) -> str:
    return f"sudo rm -f {sh_word(file)} && {RELOAD}"


# Reading

RULE_DIRS = ("etc/udev/rules.d", "run/udev/rules.d", "usr/local/lib/udev/rules.d", "usr/lib/udev/rules.d",
             "lib/udev/rules.d")  # fmt: skip
_TOKEN = r'([A-Z_]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|-=|:=|=)\s*"((?:[^"\\]|\\.)*)"'
_ENV = r"\$env\{(\w+)\}"
_ECHO = r"""echo\s+(?:-n\s+)?['"]?([A-Za-z0-9._-]+)['"]?\s*>+\s*['"]?(\S*?queue/[a-z0-9_/]+)"""
"""udev rule tokens, ``$env{NAME}`` and an ``echo VALUE > .../queue/ATTR`` in a RUN: compiled on first use."""


def effective_rule_files(src: Source) -> list[str]:
    """Paths of the rule files udev would read, in the order it reads them (by file name)."""
    return src.dropins(RULE_DIRS, ".rules")


def logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, rule) with backslash continuations joined; comments and blanks skipped."""
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield start, pending + line
        pending = ""
    if pending:
        yield start, pending


def rule_settings(rule: str, env: dict[str, str] | None = None) -> dict[str, str]:
    """The queue settings one rule assigns (matches such as ``ATTR{queue/rotational}=="0"`` are not settings);
    ``$env{NAME}`` takes its value from ``env``, and an assignment of an unknown or empty one is left out."""
    from iosched.records.system import queue_setting, setting_value

    found = {}
    for key, attr, op, value in compiled(_TOKEN).findall(rule):
        if key == "ATTR" and op in ("=", ":="):
            name = queue_setting(attr)
            text = compiled(_ENV).sub(lambda m: (env or {}).get(m[1], "\0"), value)
            if name and "\0" not in text and text:
                found[name] = setting_value(text)
        elif key == "RUN" and op in ("=", "+="):
            for echoed, path in compiled(_ECHO).findall(value):
                name = queue_setting(path)
                if name:
                    found[name] = echoed
    return found


def cmdline_imports(text: str, cmdline: str | None) -> dict[str, str]:
    """The variables a rule file imports from the kernel command line (``IMPORT{cmdline}="NAME"``) that the
    command line sets: ``NAME=value``, or ``1`` for a bare ``NAME``, the last one winning as in udev."""
    wanted = {v for _, rule in logical_lines(text) for k, a, op, v in compiled(_TOKEN).findall(rule)
              if k == "IMPORT" and a == "cmdline" and op == "="}  # fmt: skip
    found: dict[str, str] = {}
    for word in (cmdline or "").split(" -- ")[0].split():
        key, sep, value = word.partition("=")
        if key in wanted:
            found[key] = value if sep else "1"
    return found


_KNOWN = ("ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "TEST")


def _matches(rule: str, env: dict[str, str]) -> tuple[dict[str, str], bool]:
    """The queue attributes a rule requires (``ATTR{queue/X}=="v"``) and whether it matches on anything else that
    a reader of files cannot know (a property such as ID_FS_TYPE, a parent's attribute)."""
    from iosched.records.system import queue_setting

    requires: dict[str, str] = {}
    conditional = False
    for key, attr, op, value in compiled(_TOKEN).findall(rule):
        if op not in ("==", "!="):
            continue
        name = queue_setting(attr) if key == "ATTR" else None
        if name is not None:
            if op == "==" and name != "scheduler":
                requires[name] = value
        elif _unread(key, attr, value, env):
            conditional = True
    return requires, conditional


def _unread(key: str, attr: str, value: str, env: dict[str, str]) -> bool:
    """Whether a match is on what a reader of files cannot know: a property such as ID_FS_TYPE, a parent's
    attribute, the hardware queue count (SUSE's ``TEST!="%S%p/mq/1"``)."""
    if key == "TEST":
        return "/mq/" in value
    return key not in _KNOWN and not (key == "ENV" and (attr == "DEVTYPE" or attr in env))


Guard = tuple[dict[str, str], bool, bool]


def _guard(tokens: list[tuple[str, str, str, str]], rule: str, env: dict[str, str]) -> Guard:
    """What a ``GOTO`` line means for the rules it jumps over: ``X!="v", GOTO`` lets only devices with X == v
    through (requires, conditional), and ``ENV{elevator}=="*?", GOTO`` with elevator= on the command line skips
    them all (the third value)."""
    from fnmatch import fnmatchcase  # udev's own matching of values: shell globs

    if "!=" in rule:
        return (*_matches(rule.replace("!=", "=="), env), False)
    skip = any(k == "ENV" and op == "==" and a in env and env[a] and fnmatchcase(env[a], v) for k, a, op, v in tokens)
    return {}, False, skip


def read_udev_tuners(src: Source, cmdline: str | None = None) -> list[Tuner]:
    from iosched.records.system import Tuner

    tuners = []
    for path in effective_rule_files(src):
        text = src.text(path) or ""
        env = cmdline_imports(text, cmdline)
        guards: dict[str, Guard] = {}
        for number, rule in logical_lines(text):
            tokens = compiled(_TOKEN).findall(rule)
            label = next((v for k, _, op, v in tokens if k == "LABEL"), None)
            guards.pop(label or "", None)
            found = rule_settings(rule, env)
            target = next((v for k, _, op, v in tokens if k == "GOTO"), None)
            if target is not None and not found:
                guards[target] = _guard(tokens, rule, env)
                continue
            if found and not any(skip for _, _, skip in guards.values()):
                requires, conditional = _matches(rule, env)
                for guarded, unknown, _ in guards.values():
                    requires, conditional = {**guarded, **requires}, conditional or unknown
                kernels = tuple(v for k, _, op, v in tokens if k == "KERNEL" and op == "==")
                devices = tuple(g for v in kernels for g in v.split("|") if g)
                tuners.append(Tuner(kind="udev", name=f"/{path}:{number}", settings=found, devices=devices,
                                    requires=requires, conditional=conditional))  # fmt: skip
    return tuners
