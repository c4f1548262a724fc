"""udev rules that write block queue attributes: ``ATTR{queue/scheduler}="..."`` and ``echo ... > .../queue/...``.

The directories are searched as udev does (udev(7)): a file in /etc/udev/rules.d replaces a same-named one in
/run, /usr/local/lib, /usr/lib or /lib, and a file that is empty or a link to /dev/null masks it. A value taken
from the kernel command line (``IMPORT{cmdline}="elevator"`` then ``ATTR{queue/scheduler}="$env{elevator}"``, as
in RHEL 8/9's 40-elevator.rules) is the host's command-line value; without it the rule sets nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fnmatch import fnmatchcase

from iosched.system import settings
from iosched.system.model import Tuner
from iosched.system.source import Source

RULE_DIRS = ("etc/udev/rules.d", "run/udev/rules.d", "usr/local/lib/udev/rules.d", "usr/lib/udev/rules.d",
             "lib/udev/rules.d")  # fmt: skip
_TOKEN = re.compile(r'([A-Z_]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|-=|:=|=)\s*"((?:[^"\\]|\\.)*)"')
_ENV = re.compile(r"\$env\{(\w+)\}")
_ECHO = re.compile(r"""echo\s+(?:-n\s+)?['"]?([A-Za-z0-9._-]+)['"]?\s*>+\s*['"]?(\S*?queue/[a-z0-9_/]+)""")


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
    found = {}
    for key, attr, op, value in _TOKEN.findall(rule):
        if key == "ATTR" and op in ("=", ":="):
            name = settings.queue_setting(attr)
            text = _ENV.sub(lambda m: (env or {}).get(m[1], "\0"), value)
            if name and "\0" not in text and text:
                found[name] = settings.value(text)
        elif key == "RUN" and op in ("=", "+="):
            for echoed, path in _ECHO.findall(value):
                name = settings.queue_setting(path)
                if name:
                    found[name] = echoed
    return found


def cmdline_imports(text: str, cmdline: str | None) -> dict[str, str]:
    """The variables a rule file imports from the kernel command line (``IMPORT{cmdline}="NAME"``) that the
    command line sets: ``NAME=value``, or ``1`` for a bare ``NAME``, the last one winning as in udev."""
    wanted = {v for _, rule in logical_lines(text) for k, a, op, v in _TOKEN.findall(rule)
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
    requires: dict[str, str] = {}
    conditional = False
    for key, attr, op, value in _TOKEN.findall(rule):
        if op not in ("==", "!="):
            continue
        name = settings.queue_setting(attr) if key == "ATTR" else None
        if name is not None:
            if op == "==" and name != "scheduler":
                requires[name] = value
        elif key not in _KNOWN and not (key == "ENV" and (attr == "DEVTYPE" or attr in env)):
            conditional = True
    return requires, conditional


Guard = tuple[dict[str, str], bool, bool]


def _guard(tokens: list[tuple[str, str, str, str]], rule: str, env: dict[str, str]) -> Guard:
    """What a ``GOTO`` line means for the rules it jumps over: ``X!="v", GOTO`` lets only devices with X == v
    through (requires, conditional), and ``ENV{elevator}=="*?", GOTO`` with elevator= on the command line skips
    them all (the third value)."""
    if "!=" in rule:
        return (*_matches(rule.replace("!=", "=="), env), False)
    skip = any(k == "ENV" and op == "==" and a in env and env[a] and fnmatchcase(env[a], v) for k, a, op, v in tokens)
    return {}, False, skip


def read_udev_tuners(src: Source, cmdline: str | None = None) -> list[Tuner]:
    tuners = []
    for path in effective_rule_files(src):
        text = src.text(path) or ""
        env = cmdline_imports(text, cmdline)
        guards: dict[str, Guard] = {}
        for number, rule in logical_lines(text):
            tokens = _TOKEN.findall(rule)
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
