"""Plans as one Ansible playbook that applies, persists, verifies and undoes them, host by host.

Shape. One play over every planned host rather than one play per host: Ansible runs the hosts in parallel
and the tasks are written once. Each host's plan is data in the play's ``vars``, ``iosched_plans`` keyed by
inventory hostname (the key ``all``, for ``iosched advise`` without ``--host``, is the plan of every host
not named), and the tasks read ``iosched_plans[inventory_hostname]``. A second play, tagged
``[never, undo]``, runs only with ``--tags undo``. Both plays share the one ``vars`` mapping (a YAML anchor).

Values. Scheduler, elevator tunables, queue attributes and sysctls are set by one POSIX sh script, the same
text for every kind, run once per kind with the host's ``FILE VALUE`` lines on stdin. It reads each file as
:meth:`~iosched.steps.base.StepKind.read` does (the bracketed name in a scheduler file, else the text),
writes only a value that differs and prints ``change: FILE: OLD -> NEW`` for it, which ``changed_when``
reads. Before it first changes a value it keeps the old one under ``/var/lib/iosched/previous/<path>``
(for a scheduler, also every tunable of the elevator it replaces, which the switch resets); undo writes
those back, scheduler first, and removes them, so it restores what the host had, not what the KB assumed.
It refuses a scheduler the device does not offer, goes on past a value it cannot set and fails the task
naming all of them. ``ansible.builtin.copy`` with ``unsafe_writes: true`` can write a sysfs file, but it
cannot read the scheduler file (which lists every elevator), cannot keep the value it replaces, and the
``mode`` ansible-lint asks of it lands on the sysfs file itself (``mode: preserve`` left a loop device's
``read_ahead_kb`` at 0600), so the script is both safer and simpler. One run per kind, not per value, also
keeps a host with many disks fast. The persistent files (:func:`iosched.persist.files`) are written by
``copy``, whose handlers reload udev, load the sysctl.d file and switch TuneD to iosched's profile (which
includes the ones the host ran, ``iosched_host.tuned``); undo switches TuneD back before it removes it.

Modes and tags. Under ``--check`` the script reads and reports but never writes; with ``--diff`` a report
task lists each value that would change and ``copy`` shows each file's diff. ``--tags verify`` reads every
value and file back and fails naming each one that differs. Tags: ``scheduler``, ``tunable``,
``queue-attribute``, ``sysctl``, ``persist``, ``verify`` (only when asked), ``mount-option`` and
``boot-parameter`` (which, like the sh script, only say what to do by hand) and ``undo`` (only when
asked). ``consider`` steps apply only with ``-e iosched_apply_consider=true``, like
``IOSCHED_APPLY_CONSIDER=1`` for the sh script.

Roots. ``iosched_root`` (default empty) prefixes the files the playbook writes under /etc and /var/lib;
``iosched_sys_root`` (default: ``iosched_root``) prefixes /sys and /proc. Set both to run against a copy of
a system, or only ``iosched_root`` to tune real devices while the files go to a scratch directory. The
handlers run only when ``iosched_root`` is empty.

Safety. Host names must be inventory hostnames of letters, digits, dots, dashes and underscores, and every
value and path its grammar (:mod:`iosched.grammar`); anything else raises :class:`PlaybookError`. Plan data
reaches the YAML only through PyYAML's safe dumper, tagged ``!unsafe`` so Ansible never evaluates a
template in it, and reaches the script only on stdin, never in its text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from iosched import __version__
from iosched.grammar import DEVICE, NAME, PATH, WORD, matches
from iosched.kb import Kb
from iosched.persist import files, sysctld, tuned, tuned_base, udev
from iosched.plan import Plan, Step, TunedBase, host_steps, unattended
from iosched.render.escape import one_line, sh_comment, terminal
from iosched.steps import STEP_KINDS, STEP_ORDER, kind_of

HOST = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,252}")
"""An inventory hostname the playbook accepts."""
EVERY_HOST = "all"
RUNTIME_KINDS = tuple(name for name in STEP_ORDER if STEP_KINDS[name].runtime)
SAVED = "/var/lib/iosched/previous"
RELOAD_UDEV = "Reload udev rules"
LOAD_SYSCTL = "Load the sysctl.d file"
SWITCH_TUNED = "Switch TuneD to the iosched profile"


def _handler(path: str) -> str | None:
    return RELOAD_UDEV if udev.is_rules(path) else LOAD_SYSCTL if sysctld.is_conf(path) else None


SCRIPT = r"""# Sets, verifies or restores one kind of value; stdin has one "FILE VALUE" line per value.
mode=$IOSCHED_MODE kind=$IOSCHED_KIND sys=$IOSCHED_SYS saved=$IOSCHED_SAVED failed=0
problem() { printf 'iosched: %s\n' "$*" >&2; failed=$((failed + 1)); }
current() {
  value=$(cat "$1")
  value=${value#"${value%%[![:space:]]*}"}
  value=${value%"${value##*[![:space:]]}"}
  if [ "$2" = scheduler ]; then
    case $value in *\[*\]*) value=${value#*\[}; value=${value%%\]*} ;; esac
  fi
  printf '%s' "$value"
}
keep() { [ -e "$2" ] || { mkdir -p "${2%/*}" && printf '%s\n' "$1" > "$2"; }; }
put() { printf '%s\n' "$2" 2>/dev/null > "$1" && [ "$(current "$1" "$3")" = "$2" ]; }
set_value() {
  file=$sys$1 want=$2 kept=$saved$1
  if [ ! -f "$file" ] && [ "$mode" = check ] && [ "$kind" = tunable ]; then
    echo "change: $file: (comes with the new elevator) -> $want"
    return
  fi
  [ -f "$file" ] || { problem "no such file: $file"; return; }
  now=$(current "$file" "$kind")
  [ "$now" != "$want" ] || return 0
  if [ "$kind" = scheduler ]; then
    case " $(tr -d '[]' < "$file") " in
      *" $want "*) ;;
      *) problem "$file offers $(cat "$file"), not $want"; return ;;
    esac
  fi
  [ "$mode" != verify ] || { problem "$file reads $now; the plan sets $want"; return; }
  echo "change: $file: $now -> $want"
  [ "$mode" != check ] || return 0
  keep "$now" "$kept" || { problem "cannot keep the value of $file in $kept"; return; }
  if [ "$kind" = scheduler ]; then
    for tunable in "${file%/scheduler}"/iosched/*; do
      if [ -f "$tunable" ]; then keep "$(cat "$tunable")" "${kept%/scheduler}/iosched/${tunable##*/}"; fi
    done
  fi
  put "$file" "$want" "$kind" || problem "could not set $file to $want"
}
restore() {
  old=$(cat "$2") now=$(current "$1" "$3")
  if [ "$now" != "$old" ]; then
    echo "change: $1: $now -> $old"
    [ "$mode" = undo ] || return 0
    put "$1" "$old" "$3" || { problem "could not restore $1 to $old"; return; }
  fi
  [ "$mode" != undo ] || rm -f "$2"
}
undo_value() {
  file=$sys$1 kept=$saved$1
  if [ -f "$kept" ] && [ -f "$file" ]; then
    restore "$file" "$kept" "$kind"
  elif [ -f "$kept" ]; then
    problem "$file is gone; its value before iosched stays in $kept"
  fi
  [ "$kind" = scheduler ] || return 0
  for old in "${kept%/scheduler}"/iosched/*; do
    live=${file%/scheduler}/iosched/${old##*/}
    if [ -f "$old" ] && [ -f "$live" ]; then
      restore "$live" "$old" tunable
    elif [ "$mode" = undo ]; then
      rm -f "$old"
    fi
  done
}
while read -r path value; do
  case $mode in undo | check-undo) undo_value "$path" ;; *) set_value "$path" "$value" ;; esac
done
[ "$failed" -eq 0 ] || { echo "iosched: $failed value(s) not as planned" >&2; exit 1; }
"""


class PlaybookError(ValueError):
    """A host name or plan value the playbook cannot carry safely."""


class _Unsafe(str):
    """Plan data: dumped with Ansible's ``!unsafe`` tag, so it is never evaluated as a template."""


class _Block(str):
    """Our own multi-line text (the script): dumped as a literal block, to be read as it runs."""


class _Quoted(str):
    """Our own text with a newline inside one line: dumped double-quoted, the newline as ``\\n``."""


def _dumper(shared: Any) -> Any:
    """PyYAML's safe dumper, with ``!unsafe`` plan data, literal blocks, and one anchor: ``shared``."""
    import yaml

    class Dumper(yaml.SafeDumper):
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            super().increase_indent(flow, False)  # lists indented under their key, as yamllint asks

        def ignore_aliases(self, data: Any) -> bool:
            return data is not shared

        def generate_anchor(self, node: Any) -> str:
            return "iosched_vars"

    Dumper.add_representer(_Unsafe, lambda dumper, text: dumper.represent_scalar("!unsafe", str(text)))
    for kind, style in ((_Block, "|"), (_Quoted, '"')):
        Dumper.add_representer(kind, lambda dumper, text, style=style: dumper.represent_scalar(
            "tag:yaml.org,2002:str", str(text), style=style))  # fmt: skip
    return Dumper


def _checked(pattern: str, value: str | None, what: str) -> str:
    if value is None or not matches(pattern, value):
        raise PlaybookError(f"refusing {what} {value!r} in a playbook")
    return value


def _host(name: str) -> str:
    if not isinstance(name, str) or not HOST.fullmatch(name):
        raise PlaybookError(f"refusing host name {name!r}: an inventory hostname of letters, digits, '.', '-', '_'")
    return name


def _value_line(step: Step) -> str:
    if step.device is not None:
        _checked(DEVICE, step.device, "device name")
    path = _checked(PATH, kind_of(step).path(step), "file")
    return f"{path} {_checked(WORD, step.value, f'value of {step.target}')}"


def _chosen(every: Sequence[str], recommended: Sequence[str]) -> dict[str, list[str]]:
    """Lines with and without the consider steps; the tasks pick one by ``iosched_apply_consider``. An empty
    line stays a plain empty string: Ansible reads ``!unsafe ''`` as None (and there is nothing to evaluate)."""
    return {"every": [_Unsafe(x) if x else x for x in every],
            "recommended": [_Unsafe(x) if x else x for x in recommended]}  # fmt: skip


def _by_hand(step: Step, distro: Any) -> list[_Unsafe]:
    lines = [one_line(step.title) + ": not applied by this playbook; by hand:"]
    lines += [terminal(line) for line in kind_of(step).apply(step, distro).splitlines()]
    return [_Unsafe(line) for line in lines]


def _host_data(kb: Kb, plans: Sequence[Plan], paths: Sequence[str]) -> dict[str, Any]:
    """One host's part of ``iosched_plans``: its value lines by kind, its files' lines, what to do by hand,
    its warnings. Every kind and every file of the playbook is there, empty when the host has none."""
    steps = host_steps(plans)
    distro_id = next((p.context.get("distro") for p in plans if p.context.get("distro")), None)
    distro = kb.get(str(distro_id)) if distro_id else None
    settings = {}
    for kind in RUNTIME_KINDS:
        of_kind = [s for s in steps if s.kind == kind]
        settings[kind] = _chosen([_value_line(s) for s in of_kind], [_value_line(s) for s in of_kind if unattended(s)])
    every, recommended = files(plans), files(plans, unattended)
    base = tuned_base(plans)
    return {
        "settings": settings,
        "files": {p: _chosen(_lines(every.get(p)), _lines(recommended.get(p))) for p in paths},
        "by_hand": {kind: [_by_hand(s, distro) for s in steps if s.kind == kind]
                    for kind in STEP_ORDER if not STEP_KINDS[kind].runtime},
        "warnings": [_Unsafe(one_line(f"{p.device}: {w.id} ({w.risk or 'advice'}): {w.text}"))
                     for p in plans for w in p.warnings],
        "tuned": _tuned(base),
    }  # fmt: skip


def _tuned(base: TunedBase | None) -> dict[str, Any]:
    """The TuneD profile of iosched a host switches to, and the profiles it ran before (undo switches back)."""
    if base is None:
        return {"profile": _Unsafe(""), "previous": []}
    return {"profile": _Unsafe(tuned.name(base)),
            "previous": [_Unsafe(_checked(NAME, p, "TuneD profile")) for p in base.profiles]}  # fmt: skip


def _lines(content: str | None) -> list[str]:
    """A file's content as lines: a long line can then be folded in the YAML, and joins back the same."""
    return content.split("\n") if content is not None else []


# ------------------------------------------------------------------------------------------------ tasks

_JOINED = _Quoted("{{ iosched_lines | join('\n') ~ '\n' }}")
"""Lines, each ended by a newline. A real newline in the Jinja string literal (Ansible would keep a backslash
as it is), written ``\\n`` in a double-quoted YAML string."""


def _pick(where: str) -> dict[str, str]:
    """Task vars: the lines of ``where`` this run applies (with the consider steps only when asked)."""
    return {"iosched_lines": f"{{{{ {where}[iosched_pick] }}}}"}


def _play_vars(plans: dict[str, Any]) -> dict[str, Any]:
    """The plans, and what every task derives from them and from the user's variables."""
    return {
        "iosched_plans": plans,
        "iosched_host": f"{{{{ iosched_plans[inventory_hostname] | default(iosched_plans['{EVERY_HOST}']) }}}}",
        "iosched_etc": "{{ iosched_root | default('') }}",
        "iosched_sys": "{{ iosched_sys_root | default(iosched_etc) }}",
        "iosched_pick": "{{ 'every' if iosched_apply_consider | default(false) | bool else 'recommended' }}",
        "iosched_script": _Block(SCRIPT),
    }


def _words(kind: str) -> str:
    return kind.replace("-", " ")


def _script_tasks(kind: str, mode: str, names: tuple[str, str], tags: list[str], lines: dict[str, str],
                  result: str, *, changes: bool = True) -> list[dict[str, Any]]:  # fmt: skip
    """Run the script once over this host's values of one kind (its output registered as ``result``), then
    fail naming every value that is not as planned (the script's stderr), or, in diff mode, list the changes."""
    return [{
        "name": names[0],
        "ansible.builtin.command": {"argv": ["/bin/sh", "-c", "{{ iosched_script }}", "iosched"],
                                    "stdin": _JOINED, "stdin_add_newline": False},
        "environment": {"IOSCHED_MODE": mode, "IOSCHED_KIND": kind, "IOSCHED_SYS": "{{ iosched_sys }}",
                        "IOSCHED_SAVED": "{{ iosched_etc }}" + SAVED},
        "vars": lines,
        "when": "iosched_lines | length > 0",
        "check_mode": False,
        "register": result,
        "changed_when": f"'change: ' in {result}.stdout" if changes else False,
        "failed_when": False,
        "tags": tags,
    }, {
        "name": names[1],
        "ansible.builtin.assert": {"that": f"{result}.rc == 0", "fail_msg": f"{{{{ {result}.stderr_lines }}}}",
                                   "success_msg": f"{{{{ {result}.stdout_lines }}}}",
                                   "quiet": "{{ not ansible_diff_mode }}"},
        "when": f"{result} is not skipped",
        "tags": tags,
    }]  # fmt: skip


def _file_task(path: str, name: str, tags: list[str], **more: Any) -> dict[str, Any]:
    """A copy task for one persistent file, its content chosen as the consider steps are."""
    return {
        "name": f"{name} {path}",
        "ansible.builtin.copy": {"dest": "{{ iosched_etc }}" + path, "content": _JOINED, "mode": "0644"},
        "vars": _pick(f"iosched_host.files['{path}']"),
        "when": "iosched_lines | length > 0",
        "tags": tags,
        **more,
    }


def _by_hand_task(kind: str) -> dict[str, Any]:
    return {
        "name": f"Say which {_words(kind)} changes to make by hand",
        "ansible.builtin.debug": {"msg": "{{ item }}"},
        "loop": f"{{{{ iosched_host.by_hand['{kind}'] }}}}",
        "loop_control": {"label": "{{ item[0] }}"},
        "tags": [kind],
    }


def _handlers() -> list[dict[str, Any]]:
    """Reload what reads the persistent files; only on the system itself (``iosched_root`` empty)."""
    on_the_system = "iosched_etc == ''"
    return [
        {"name": RELOAD_UDEV, "ansible.builtin.shell": {"cmd": udev.RELOAD.replace("sudo ", "")},
         "changed_when": True, "when": on_the_system},
        {"name": LOAD_SYSCTL, "ansible.builtin.shell": {"cmd": f"sysctl -p {sysctld.DIRECTORY}{sysctld.PREFIX}*"},
         "changed_when": True, "when": on_the_system},
        {"name": SWITCH_TUNED, "ansible.builtin.command": {"argv": ["tuned-adm", "profile",
                                                                    "{{ iosched_host.tuned.profile }}"]},
         "changed_when": True, "when": on_the_system},
    ]  # fmt: skip


def _apply_tasks(kinds: Sequence[str], paths: Sequence[str]) -> list[dict[str, Any]]:
    """Warnings, each kind of value (or what to do by hand), the persistent files, then (``--tags verify``
    only) every value and file read back."""
    tasks: list[dict[str, Any]] = [{
        "name": "Show the plan's warnings",
        "ansible.builtin.debug": {"msg": "{{ iosched_host.warnings }}"},
        "when": "iosched_host.warnings | length > 0",
    }]  # fmt: skip
    apply = "{{ 'check' if ansible_check_mode else 'apply' }}"
    for kind in kinds:
        if kind in RUNTIME_KINDS:
            names = (f"Set each {_words(kind)}", f"Check each {_words(kind)} was set")
            lines = _pick(f"iosched_host.settings['{kind}']")
            tasks += _script_tasks(kind, apply, names, [kind], lines, "iosched_set")
        else:
            tasks.append(_by_hand_task(kind))
    if paths:
        tasks.append({
            "name": "Create the directories of the persistent files",
            "ansible.builtin.file": {"path": "{{ iosched_etc }}{{ item | dirname }}", "state": "directory",
                                     "mode": "0755"},
            "loop": list(paths),
            "when": "iosched_host.files[item][iosched_pick] | length > 0",
            "tags": ["persist"],
        })  # fmt: skip
    for path in paths:
        handler = SWITCH_TUNED if tuned.is_profile(path) else _handler(path)
        tasks.append(_file_task(path, "Persist", ["persist"], **({"notify": handler} if handler else {})))
    verify = ["never", "verify"]
    for kind in kinds:
        if kind in RUNTIME_KINDS:
            names = (f"Read back each {_words(kind)}", f"Verify each {_words(kind)}")
            lines = _pick(f"iosched_host.settings['{kind}']")
            tasks += _script_tasks(kind, "verify", names, verify, lines, "iosched_read", changes=False)
    for path in paths:
        result = "iosched_verify_" + re.sub(r"\W", "_", path.rsplit("/", 1)[1])
        tasks += [_file_task(path, "Read back", verify, check_mode=True, register=result), {
            "name": f"Verify {path}",
            "ansible.builtin.assert": {"that": f"{result} is not changed", "quiet": True,
                                       "fail_msg": f"{path} differs from the plan (--check --diff shows how)"},
            "when": f"{result} is not skipped",
            "tags": verify,
        }]  # fmt: skip
    return tasks


def _undo_tasks(kinds: Sequence[str], paths: Sequence[str]) -> list[dict[str, Any]]:
    """Remove the files first (they are what would come back at boot), then restore every value iosched
    changed, the scheduler first: switching back resets the tunables, which are restored after it. TuneD is
    switched back to the profiles it ran before its profile is removed, and before the values are restored: it
    writes back what it replaced."""
    tasks: list[dict[str, Any]] = []
    for path in paths:
        wrote = f"iosched_host.files['{path}'].every | length > 0"
        if tuned.is_profile(path):
            tasks.append({
                "name": f"Switch TuneD back from {path}",
                "ansible.builtin.command": {"cmd": "tuned-adm profile {{ iosched_host.tuned.previous | join(' ') }}"},
                "changed_when": True,
                "when": f"{wrote} and iosched_etc == ''",
            })  # fmt: skip
        tasks.append({
            "name": f"Remove {path}",
            "ansible.builtin.file": {"path": "{{ iosched_etc }}" + path, "state": "absent"},
            "when": wrote,
            **({"notify": RELOAD_UDEV} if udev.is_rules(path) else {}),
        })  # fmt: skip
        if tuned.is_profile(path):
            tasks.append({
                "name": f"Remove the directory of {path}",
                "ansible.builtin.file": {"path": "{{ iosched_etc }}" + path.rsplit("/", 1)[0], "state": "absent"},
                "when": wrote,
            })  # fmt: skip
    undo = "{{ 'check-undo' if ansible_check_mode else 'undo' }}"
    for kind in kinds:
        if kind in RUNTIME_KINDS:
            names = (f"Restore each {_words(kind)} iosched changed", f"Check each {_words(kind)} was restored")
            lines = {"iosched_lines": f"{{{{ iosched_host.settings['{kind}'].every }}}}"}
            tasks += _script_tasks(kind, undo, names, ["undo"], lines, "iosched_restored")
    return tasks


def render(kb: Kb, hosts: Sequence[tuple[str, Sequence[Plan]]], reproduce: str | None = None) -> str:
    """The playbook for ``(inventory hostname, plans of its devices)`` pairs. The name ``all`` targets every
    host of the inventory; its plans apply to each host not named. ``reproduce`` is the command that gives
    the plans again, named in the header."""
    if not hosts:
        raise PlaybookError("no hosts to plan")
    names = [_host(name) for name, _ in hosts]
    if len(set(names)) != len(names):
        raise PlaybookError(f"a host is given twice: {sorted({n for n in names if names.count(n) > 1})}")
    every_plan = [plan for _, plans in hosts for plan in plans]
    present = {step.kind for plan in every_plan for step in plan.steps}
    kinds = [kind for kind in STEP_ORDER if kind in present]
    paths = [_checked(PATH, p, "file") for p in dict.fromkeys(p for _, plans in hosts for p in files(plans))]
    plans = {name: _host_data(kb, host_plans, paths) for name, host_plans in hosts}
    pattern = [EVERY_HOST] if EVERY_HOST in plans else list(plans)
    play_vars = _play_vars(plans)
    head = [
        f"# iosched {sh_comment(__version__)} plan (KB {sh_comment(kb.version)}) for {len(plans)} host(s).",
        "# ansible-playbook -i INVENTORY THIS.yml [--check --diff] [--tags verify] [--tags undo]",
        "#   -e iosched_apply_consider=true   also apply the steps the plan only suggests",
        "#   -e iosched_root=DIR              write the /etc and /var/lib files under DIR (no handlers run)",
        "#   -e iosched_sys_root=DIR          read and write /sys and /proc under DIR (default: iosched_root)",
        *([f"# reproduce: {sh_comment(reproduce)}"] if reproduce else []),
    ]
    import yaml

    common = {"hosts": pattern, "become": True, "gather_facts": False}
    plays = [
        {"name": "Apply the iosched plan", **common, "vars": play_vars, "handlers": _handlers(),
         "tasks": _apply_tasks(kinds, paths)},
        {"name": "Undo the iosched plan", **common, "tags": ["never", "undo"], "vars": play_vars,
         "handlers": _handlers()[:1], "tasks": _undo_tasks(kinds, paths)},
    ]  # fmt: skip
    body = yaml.dump(plays,
        Dumper=_dumper(play_vars), sort_keys=False, explicit_start=True, allow_unicode=True, width=120,
    )  # fmt: skip
    return "\n".join(head) + "\n" + body
