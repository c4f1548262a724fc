"""Plans as one Ansible playbook that applies, persists, verifies and undoes them, host by host.

Shape. One play per distinct plan, not per host: hosts whose plans render byte for byte alike share a play, which
Ansible runs on them in parallel, so a fleet of 10,000 hosts with a few distinct plans gives a few plays. The plan
is data in the play's ``vars``, ``iosched_host``, and the tasks read it; nothing in it names a host (the undo
journal is each host's own, under ``/var/lib/iosched``). The texts plans share, the persistent files' lines and
the warnings, are named in it by key and kept beside it, each once (:data:`TEXTS`). The tasks depend only on the
kinds of step and of file a plan has: they loop over its values and files, so the role of the iosched.tuning
collection (:mod:`iosched.render.ansible_role`) is these tasks for every kind. Each apply play has an undo play, tagged
``[never, undo]``, which runs only with ``--tags undo``; the two share their ``hosts`` list and their ``vars``
mapping (YAML anchors). Plays come in the order of their first host name, each listing its hosts sorted. What
plays have in common (the script, the handlers, the guard, the tasks of the same kinds and files) is written
where it first appears and aliased after, so each distinct plan adds little more than its own data.

Values. Scheduler, elevator tunables, queue attributes and sysctls are set by the shell library the sh script runs
too (:mod:`iosched.steps.shell`) and a small driver, run for each kind with the host's ``FILE VALUE
[COUPLED_FILE]...`` lines in ``IOSCHED_LINES`` (at most :data:`BATCH` of them a run). It runs as a ``raw`` task,
which needs only ``/bin/sh`` on the host: a ``command`` task would start Python there for each run, about 0.4 s of
CPU, which was most of what a play cost a host. Each value is read first (as :meth:`~iosched.steps.StepKind.read`
does) and written only where it differs; each says ``iosched: ok: ...`` or ``iosched: changed: FILE: OLD -> NEW``
(which ``changed_when`` reads) or fails. Before it first changes a value it keeps the value it really found under
``/var/lib/iosched/previous/<path>`` (for a scheduler, also every tunable of the elevator it replaces, which the
switch resets; for ``vm.dirty_ratio`` also ``vm.dirty_bytes``, which the kernel zeroes); undo writes those back,
scheduler first, a coupled pair as a group, and removes them, so it restores what the host had, not what the KB
assumed. Beside each value it changes it keeps the value it set and the device's identity (``previous.set/<path>``,
``previous.identity/<path>``): undo restores a value only on the same device and while it still holds what iosched
set, and otherwise leaves it (and what was kept, for a later undo) and fails the task naming it. It refuses a
scheduler the device does not offer, goes on past a value it cannot set and fails the task naming all of them.
``ansible.builtin.copy`` with ``unsafe_writes: true`` can write a sysfs file, but it cannot read the scheduler file
(which lists every elevator), cannot keep the value it replaces, and the ``mode`` ansible-lint asks of it lands on
the sysfs file itself (``mode: preserve`` left a loop device's ``read_ahead_kb`` at 0600), so the script is both
safer and simpler. One run per kind (per :data:`BATCH` values), not per value, also keeps a host with many disks
fast. The persistent files (:func:`iosched.persist.files`) are written by ``copy``, whose handlers reload udev, load
the sysctl.d file and switch TuneD to iosched's profile (which includes the ones the host ran,
``iosched_host.tuned``); a file that only pins values the plan expected the host to have already is written only
when this run changed one of them (each file's ``needed``, read from the set tasks' output) and is not read back by
``verify``; undo switches TuneD back before it removes it.

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

Targets. A play reaches only the hosts it was planned for: ``hosts:`` lists their names, each of which
:func:`host_problem` accepts (Ansible would read no part of it as pattern syntax, and it is not a name Ansible
gives a group or its implicit localhost), and a first task ends the play on any host that is not in that list
(``iosched_targets``, an alias of ``hosts:``), for a name that is not in the inventory can still match a group of
that name. Only :data:`EVERY_HOST` (``iosched advise`` without ``--host``) targets ``all``; no host name can,
and it is never given with named hosts.

Safety. Every value and path has its grammar (:mod:`iosched.grammar`); anything else, and a host name
:func:`host_problem` refuses, raises :class:`PlaybookError`. Plan data
reaches the YAML only through PyYAML's safe dumper, tagged ``!unsafe`` so Ansible never evaluates a
template in it, and reaches the script only in its environment, each variable one word of the ``raw`` command
quoted by Ansible's ``quote`` filter, never in the script's text. Over SSH with ``become`` a ``raw`` task runs on
a terminal, which joins the script's stderr to its stdout: a failed run's message is its stderr, or else all it
printed.
"""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence

from iosched import __version__
from iosched.escape import one_line, sh_comment, terminal, untrusted
from iosched.grammar import DEVICE, NAME, PATH, WORD, host_problem, matches
from iosched.knowledge.base import Kb
from iosched.mechanisms import sysctld, tuned, udev
from iosched.persist import files, kept_by, tuned_base
from iosched.planning.fleetplan import TOKENS
from iosched.records.plan import Plan, Step, TunedBase, host_steps, unattended
from iosched.steps import STEP_KINDS, STEP_ORDER, kind_of
from iosched.steps.shell import LIBRARY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EVERY_HOST = None
"""The host "name" of a plan for every inventory host (``iosched advise`` without ``--host``)."""
EVERY_KEY = "all"
RUNTIME_KINDS = tuple(name for name in STEP_ORDER if STEP_KINDS[name].runtime)
SAVED = "/var/lib/iosched/previous"
RELOAD_UDEV = "Reload udev rules"
LOAD_SYSCTL = "Load the sysctl.d file"
SWITCH_TUNED = "Switch TuneD to the iosched profile"


RELOADS = {"udev": ("udev rules file", RELOAD_UDEV), "sysctl": ("sysctl.d file", LOAD_SYSCTL),
           "tuned": ("TuneD profile", SWITCH_TUNED)}  # fmt: skip
"""What reads each kind of persistent file: its words in task names, and the handler that reloads it."""


def reload_of(path: str) -> str:
    """The :data:`RELOADS` key of a persistent file."""
    if udev.is_rules(path):
        return "udev"
    if sysctld.is_conf(path):
        return "sysctl"
    if tuned.is_profile(path):
        return "tuned"
    raise PlaybookError(f"refusing file {path!r} in a playbook: not a udev rules, sysctl.d or TuneD profile file")


DRIVER = r"""# Sets, verifies or restores one kind of value; IOSCHED_LINES: "FILE VALUE [COUPLED_FILE]..." lines.
MODE=$IOSCHED_MODE kind=$IOSCHED_KIND SYS=$IOSCHED_SYS saved=$IOSCHED_SAVED failed=0
problem() { printf 'iosched: failed: %s\n' "$*" >&2; failed=$((failed + 1)); }
remember() {
  if [ "$1" = "$c_kind" ]; then mark "$2" || return 1; fi
  shift
  while [ $# -ge 2 ]; do
    r_kept=$saved${1#"$SYS"}
    [ -e "$r_kept" ] || { mkdir -p "${r_kept%/*}" && printf '%s\n' "$2" > "$r_kept"; } || return 1
    shift 2
  done
}
mark() {
  m_path=${1#"$SYS"} m_id=$(identity "$1")
  if [ -e "$saved.identity$m_path" ] && [ "$(cat "$saved.identity$m_path")" != "$m_id" ]; then
    rm -f "$saved$m_path"
  fi
  mkdir -p "${saved}.set${m_path%/*}" "${saved}.identity${m_path%/*}" &&
    printf '%s\n' "$c_want" > "$saved.set$m_path" && printf '%s\n' "$m_id" > "$saved.identity$m_path"
}
forget() {
  for f_path; do rm -f "$saved$f_path" "$saved.set$f_path" "$saved.identity$f_path"; done
}
held() {
  [ -f "$saved.set$1" ] || return 0
  h_at=$(identity "$SYS$1")
  if [ "$h_at" != "$(cat "$saved.identity$1")" ]; then
    problem "$1 is on another device since iosched set it (${h_at:-no identity}); left as it is"; return 1
  fi
  h_now=$(value_of "$SYS$1" "$kind")
  if [ "$h_now" != "$(cat "$saved.set$1")" ] && [ "$h_now" != "$(cat "$saved$1")" ]; then
    problem "$1 changed since iosched set it (it reads $h_now; iosched set $(cat "$saved.set$1")); left as it is"
    return 1
  fi
}
restore_kept() {
  u_kind=$1 u_differs=""; shift
  u_args="$*"
  while [ $# -ge 2 ]; do
    u_now=$(value_of "$1" "$u_kind")
    [ "$u_now" = "$2" ] || { echo "iosched: changed: $1: $u_now -> $2"; u_differs=1; }
    shift 2
  done
  [ -n "$u_differs" ] && [ "$MODE" = undo ] || return 0
  # shellcheck disable=SC2086
  restore_values "$u_kind" $u_args || { problem "could not restore $u_args"; return 1; }
}
undo_value() {
  path=$1; shift 2
  file=$SYS$path kept=$saved$path
  if [ -f "$kept" ] && [ -f "$file" ]; then
    held "$path" || return 0
    group="$file $(cat "$kept")"
    for other in "$@"; do
      if [ -f "$saved$other" ] && [ -f "$SYS$other" ]; then group="$group $SYS$other $(cat "$saved$other")"; fi
    done
    # shellcheck disable=SC2086
    restore_kept "$kind" $group || return
    if [ "$MODE" = undo ]; then
      forget "$path" "$@"
    fi
  elif [ -f "$kept" ]; then
    problem "$file is gone; its value before iosched stays in $kept"
  fi
  [ "$kind" = scheduler ] || return 0
  for old in "${kept%/scheduler}"/iosched/*; do
    live=${file%/scheduler}/iosched/${old##*/}
    if [ -f "$old" ] && [ -f "$live" ]; then
      if restore_kept tunable "$live" "$(cat "$old")" && [ "$MODE" = undo ]; then forget "${old#"$saved"}"; fi
    elif [ "$MODE" = undo ]; then
      forget "${old#"$saved"}"
    fi
  done
}
while read -r path value coupled; do
  set -- $coupled
  case $MODE in
    undo | check-undo) undo_value "$path" "$value" "$@" ;;
    *)
      for other in "$@"; do set -- "$@" "$SYS$other"; shift; done
      converge "$kind" "$SYS$path" "$value" "$@" ;;
  esac
done <<EOF
$IOSCHED_LINES
EOF
[ "$failed" -eq 0 ] || { echo "iosched: $failed value(s) not as planned" >&2; exit 1; }
"""
SCRIPT = LIBRARY + DRIVER
"""The text the playbook runs: the step library the sh script runs too, and this driver."""


class PlaybookError(ValueError):
    """A host name or plan value the playbook cannot carry safely."""


class _Unsafe(str):
    """Plan data: dumped with Ansible's ``!unsafe`` tag, so it is never evaluated as a template."""


class Block(str):
    """Our own multi-line text (the script): dumped as a literal block, to be read as it runs."""


class _Quoted(str):
    """Our own text with a newline inside one line: dumped double-quoted, the newline as ``\\n``."""


def yaml_dumper() -> Any:
    """PyYAML's safe dumper, with ``!unsafe`` plan data, literal blocks and lists indented under their key. It
    aliases only the objects in its ``named`` (ids to anchors), and works out how to write each text once in its
    ``analyses``: the plays of a playbook share most texts, and PyYAML reads each one a character at a time."""
    import yaml

    class Dumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no type hints
        named: dict[int, str]
        analyses: dict[str, Any]

        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            super().increase_indent(flow, False)  # lists indented under their key, as yamllint asks

        def analyze_scalar(self, scalar: str) -> Any:
            found = self.analyses.get(scalar)
            if found is None:
                found = self.analyses[scalar] = super().analyze_scalar(scalar)
            return found

        def ignore_aliases(self, data: Any) -> bool:
            return id(data) not in self.named

    Dumper.add_representer(_Unsafe, lambda dumper, text: dumper.represent_scalar("!unsafe", str(text)))
    for kind, style in ((Block, "|"), (_Quoted, '"')):
        Dumper.add_representer(kind, lambda dumper, text, style=style: dumper.represent_scalar(
            "tag:yaml.org,2002:str", str(text), style=style))  # fmt: skip
    return Dumper


class _Writer:
    """One YAML document, a list of plays written a few at a time. An object given a name is written once, with
    that anchor, where it first appears, and as an alias wherever it appears again, in the same plays or later
    ones (PyYAML's ``dump`` aliases only within one call); what is forgotten is no longer held."""

    def __init__(self) -> None:
        import io

        from yaml.events import DocumentStartEvent, SequenceStartEvent

        self._out = io.StringIO()
        dumper = yaml_dumper()
        self._dumper = dumper(self._out, default_flow_style=False, allow_unicode=True, width=120, sort_keys=False)
        self._dumper.named, self._dumper.analyses = {}, {}
        self._dumper.open()
        self._dumper.emit(DocumentStartEvent(explicit=True))
        self._dumper.emit(SequenceStartEvent(None, None, True))

    def name(self, obj: Any, anchor: str) -> None:
        """Write ``obj`` once and alias it after; only for an object that appears more than once."""
        self._dumper.named[id(obj)] = anchor

    def write(self, plays: Sequence[Any], forget: Sequence[Any] = ()) -> str:
        """The text of ``plays``; then ``forget`` is never aliased again."""
        dumper = self._dumper
        nodes = [dumper.represent_data(play) for play in plays]
        for node in nodes:
            dumper.anchor_node(node)
        for key, anchor in dumper.named.items():
            node = dumper.represented_objects.get(key)
            if node is not None and node not in dumper.serialized_nodes:
                dumper.anchors[node] = anchor
        for node in nodes:
            dumper.serialize_node(node, None, None)
        for obj in forget:
            dumper.named.pop(id(obj), None)
            dumper.represented_objects.pop(id(obj), None)
        live = {dumper.represented_objects[k] for k in dumper.named if k in dumper.represented_objects}
        dumper.anchors = {node: anchor for node, anchor in dumper.anchors.items() if node in live}
        dumper.serialized_nodes = {node: True for node in dumper.serialized_nodes if node in live}
        dumper.object_keeper = [obj for obj in dumper.object_keeper if id(obj) in dumper.named]
        return self._take()

    def close(self) -> str:
        """The rest of the document."""
        from yaml.events import DocumentEndEvent, SequenceEndEvent

        self._dumper.emit(SequenceEndEvent())
        self._dumper.emit(DocumentEndEvent(explicit=False))
        self._dumper.close()
        return self._take()

    def _take(self) -> str:
        text = self._out.getvalue()
        self._out.seek(0)
        self._out.truncate()
        return text


def checked(pattern: str, value: str | None, what: str) -> str:
    if value is None or not matches(pattern, value):
        raise PlaybookError(f"refusing {what} {value!r} in a playbook")
    return value


def _host(name: str | None) -> str:
    if name is None:  # EVERY_HOST
        return EVERY_KEY
    problem = host_problem(name)
    if problem is not None:
        raise PlaybookError(f"refusing host name {untrusted(name, 80)}: {problem}")
    return name


def _value_line(step: Step) -> str:
    if step.device is not None:
        checked(DEVICE, step.device, "device name")
    _, path, value, *coupled = kind_of(step).converge_args(step)
    paths = [checked(PATH, p, "file") for p in (path, *coupled)]
    return " ".join((paths[0], checked(WORD, value, f"value of {step.target}"), *paths[1:]))


def _chosen(every: Sequence[str], recommended: Sequence[str]) -> dict[str, list[str]]:
    """Lines with and without the consider steps; the tasks pick one by ``iosched_apply_consider``. An empty
    line stays a plain empty string: Ansible reads ``!unsafe ''`` as None (and there is nothing to evaluate).
    Equal lines are one list (written once, aliased, where the YAML aliases repeated lists)."""
    lines: list[str] = [_Unsafe(x) if x else x for x in every]
    return {"every": lines, "recommended": lines if recommended == every else
            [_Unsafe(x) if x else x for x in recommended]}  # fmt: skip


def _by_hand(step: Step, distro: Any) -> list[_Unsafe]:
    lines = [one_line(step.title) + ": not applied by this playbook; by hand:"]
    lines += [terminal(line) for line in kind_of(step).apply(step, distro).splitlines()]
    return [_Unsafe(line) for line in lines]


TEXTS = ("iosched_contents", "iosched_notices")
"""The variables that hold the texts plans share, by key: the persistent files' lines and the warnings. A plan
names them by key, so that hosts of many plans (a fleet's variables tree) hold each text once."""


def _key(text: Any) -> str:
    import hashlib

    return hashlib.sha1(json.dumps(text).encode(), usedforsecurity=False).hexdigest()[:16]


def _host_data(kb: Kb, plans: Sequence[Plan], paths: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plan data of a play's hosts (``iosched_host``): value lines by kind, each file's content (by key),
    the directories of the files that have content (each once: a host with a rules file per disk creates
    /etc/udev/rules.d with one module run), what to do by hand, the warnings (each text by key, with the devices
    it concerns). Every kind of value is there, empty when the plans have none. Then the texts the keys name
    (:data:`TEXTS`)."""
    steps = host_steps(plans)
    distro_id = next((p.context.get("distro") for p in plans if p.context.get("distro")), None)
    distro = kb.get(str(distro_id)) if distro_id else None
    settings = {}
    for kind in RUNTIME_KINDS:
        of_kind = [s for s in steps if s.kind == kind]
        settings[kind] = _chosen([_value_line(s) for s in of_kind], [_value_line(s) for s in of_kind if unattended(s)])
    contents: dict[str, list[str]] = {}
    notices: dict[str, _Unsafe] = {}

    def content(text: str | None) -> str:
        lines = _chosen(_lines(text), [])["every"]
        contents.setdefault(key := _key(lines), lines)
        return key

    every, recommended = files(plans), files(plans, unattended)
    concerned: dict[str, list[str]] = {}
    for plan in plans:
        for w in plan.warnings:
            notice = _Unsafe(one_line(f"{w.id} ({w.risk or 'advice'}): {w.text}"))
            notices.setdefault(_key(notice), notice)
            concerned.setdefault(_key(notice), []).append(str(plan.device))
    base = tuned_base(plans)
    kept, picks = kept_by(plans), {"every": lambda s: True, "recommended": unattended}
    written: list[dict[str, Any]] = [
        {"path": _Unsafe(p), "reload": reload_of(p), "every": content(every.get(p)),
         "recommended": content(recommended.get(p)),
         "needed": {pick: _needed(kept.get(p, []), keep) for pick, keep in picks.items()}}
        for p in paths
    ]  # fmt: skip
    directories = {pick: dict.fromkeys(posixpath.dirname(f["path"]) for f in written if contents[f[pick]])
                   for pick in picks}  # fmt: skip
    data = {
        "settings": settings,
        "files": written,
        "directories": {pick: [_Unsafe(d) for d in found] for pick, found in directories.items()},
        "by_hand": {kind: [_by_hand(s, distro) for s in steps if s.kind == kind]
                    for kind in STEP_ORDER if not STEP_KINDS[kind].runtime},
        "warnings": [{"devices": _Unsafe(", ".join(dict.fromkeys(devices))), "notice": key}
                     for key, devices in concerned.items()],
        "tuned": _tuned(base),
    }  # fmt: skip
    return data, dict(zip(TEXTS, (contents, notices), strict=True))


def _tuned(base: TunedBase | None) -> dict[str, Any]:
    """The TuneD profile of iosched a host switches to, and the profiles it ran before (undo switches back)."""
    if base is None:
        return {"profile": _Unsafe(""), "previous": []}
    return {"profile": _Unsafe(tuned.name(base)),
            "previous": [_Unsafe(checked(NAME, p, "TuneD profile")) for p in base.profiles]}  # fmt: skip


def _lines(content: str | None) -> list[str]:
    """A file's content as lines: a long line can then be folded in the YAML, and joins back the same."""
    return content.split("\n") if content is not None else []


# ------------------------------------------------------------------------------------------------ tasks

_JOINED = _Quoted("{{ iosched_lines | join('\n') ~ '\n' }}")
"""Lines, each ended by a newline. A real newline in the Jinja string literal (Ansible would keep a backslash
as it is), written ``\\n`` in a double-quoted YAML string."""


IDS = "iosched_ids"
"""A host's own serial and WWN for each file whose lines its group's plans name by :data:`TOKENS` (a fleet's
inventory sets it on the host's line: :func:`iosched.render.ansible_role.tree`)."""


def _own(file: str) -> dict[str, str]:
    """Task vars: ``iosched_own``, this host's serial and WWN for the file ``file`` (an expression); with none of
    its own, the tokens themselves (the plans name no identifier)."""
    return {"iosched_own": f"{{{{ ({IDS} | default({{}}))[{file}.path] | default({list(TOKENS)!r}) }}}}"}


def _lines_of(key: str) -> str:
    """The lines of the content ``key`` (an expression), each token replaced by ``iosched_own`` (:func:`_own`)."""
    return (
        f"iosched_contents[{key}] | map('replace', '{TOKENS[0]}', iosched_own[0]) "
        f"| map('replace', '{TOKENS[1]}', iosched_own[1]) | list"
    )


def _pick(where: str) -> dict[str, str]:
    """Task vars: the lines of ``where`` this run applies (with the consider steps only when asked)."""
    return {"iosched_lines": f"{{{{ {where}[iosched_pick] }}}}"}


def plan_vars(host: dict[str, Any], texts: dict[str, Any], script: Block) -> dict[str, Any]:
    """The plans of the play's hosts and their texts, and what every task derives from them and from the user's
    variables."""
    return {
        "iosched_host": host,
        **texts,
        "iosched_etc": "{{ iosched_root | default('') }}",
        "iosched_sys": "{{ iosched_sys_root | default(iosched_etc) }}",
        "iosched_pick": "{{ 'every' if iosched_apply_consider | default(false) | bool else 'recommended' }}",
        "iosched_script": script,
    }


def _words(kind: str) -> str:
    return kind.replace("-", " ")


_RUN = (
    "IOSCHED_SYS={{ iosched_sys | quote }} IOSCHED_SAVED={{ (iosched_etc ~ '" + SAVED + "') | quote }} "
    "IOSCHED_LINES={{ item | join('\n') | quote }} /bin/sh -c {{ iosched_script | quote }} iosched"
)
"""The end of every script task's ``raw`` command: the roots, one batch of lines of values (the loop's ``item``)
and the script, each one quoted word (a real newline joins the lines, as in :data:`_JOINED`)."""
BATCH = 100
"""Values a ``raw`` run is given at most. Its command is one argument of the shell that runs it, which Linux
bounds at 128 KiB (``MAX_ARG_STRLEN``). A line is a sysfs or procfs path built from a device name and a KB id,
a value and its coupled paths, a few hundred bytes at most; 100 of them and the script stay well under the
bound, and a host with more values of one kind is given them in several runs."""


def _script_tasks(kind: str, mode: str, names: tuple[str, str], tags: list[str], lines: dict[str, str],
                  result: str, *, changes: bool = True) -> list[dict[str, Any]]:  # fmt: skip
    """Run the script over this host's values of one kind, a run for each :data:`BATCH` of them (their outputs
    registered as ``result``), then fail naming every value that is not as planned (the script's stderr), or, in
    diff mode, list the changes."""
    runs = f"{result}.results"
    return [{
        "name": names[0],
        "ansible.builtin.raw": _Quoted(f"IOSCHED_MODE={mode} IOSCHED_KIND={kind} {_RUN}"),
        "args": {"executable": "/bin/sh"},
        "loop": f"{{{{ iosched_lines | batch({BATCH}) | list }}}}",
        "loop_control": {"label": "{{ item | length }} value(s)"},
        "vars": lines,
        "check_mode": False,
        "register": result,
        "changed_when": f"'iosched: changed: ' in {result}.stdout" if changes else False,
        "failed_when": False,
        "tags": tags,
    }, {
        "name": names[1],
        "ansible.builtin.assert": {"that": f"{runs} | map(attribute='rc') | select('!=', 0) | list | length == 0",
                                   "fail_msg": f"{{{{ {runs} | map(attribute='stderr_lines') | flatten or {runs} | "
                                               "map(attribute='stdout_lines') | flatten }}",
                                   "success_msg": f"{{{{ {runs} | map(attribute='stdout_lines') | flatten }}}}",
                                   "quiet": "{{ not ansible_diff_mode }}"},
        "when": f"{result} is not skipped",
        "tags": tags,
    }]  # fmt: skip


def _each_file(files: str) -> dict[str, Any]:
    """Loop over the plan's files that ``files`` (an expression) selects, each named by its path."""
    return {"loop": f"{{{{ {files} | list }}}}", "loop_control": {"label": "{{ item.path }}"}}


def _file_task(name: str, tags: list[str], files: str, **more: Any) -> dict[str, Any]:
    """A copy task for each persistent file of ``files``, its content chosen as the consider steps are."""
    return {
        "name": name,
        "ansible.builtin.copy": {"dest": "{{ iosched_etc }}{{ item.path }}", "content": _JOINED, "mode": "0644"},
        **_each_file(files),
        "vars": {**_own("item"), "iosched_lines": f"{{{{ {_lines_of('item[iosched_pick]')} }}}}"},
        "when": "iosched_lines | length > 0",
        "tags": tags,
        **more,
    }


def _set_result(kind: str) -> str:
    return "iosched_set_" + kind.replace("-", "_")


def _changes(kinds: Sequence[str]) -> str:
    """What this run's set tasks changed (their output), for files needed only where a value was found
    otherwise."""
    results = ", ".join(f"{_set_result(k)} | default({{}})" for k in kinds if k in RUNTIME_KINDS)
    return (f"{{{{ [{results}] | map(attribute='results', default=[]) | flatten(levels=1) | "
            "map(attribute='stdout', default='') | join(' ') }}")  # fmt: skip


def _needed(steps: Sequence[Step], keep: Any) -> list[_Unsafe]:
    """When a file that keeps ``steps`` is written: always (an empty list) when a kept step in it changes what the
    device gets at boot; else only when this run changed one of the values it pins, which the set task's output
    names."""
    own = [s for s in steps if keep(s)]
    if any(not s.expected_already for s in own):
        return []
    return [_Unsafe(f"iosched: changed: {kind_of(s).path(s)}:") for s in dict.fromkeys(own) if kind_of(s).runtime]


def _by_hand_task(kind: str) -> dict[str, Any]:
    return {
        "name": f"Say which {_words(kind)} changes to make by hand",
        "ansible.builtin.debug": {"msg": "{{ item }}"},
        "loop": f"{{{{ iosched_host.by_hand['{kind}'] }}}}",
        "loop_control": {"label": "{{ item[0] }}"},
        "tags": [kind],
    }


def handler_tasks() -> list[dict[str, Any]]:
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


def apply_tasks(kinds: Sequence[str], reloads: Sequence[str]) -> list[dict[str, Any]]:
    """Warnings, each kind of value (or what to do by hand), the persistent files (a task for each kind of file
    in ``reloads``, which notifies what reads it), then (``--tags verify`` only) every value and file read back."""
    tasks: list[dict[str, Any]] = [{
        "name": "Show the plan's warnings",
        "ansible.builtin.debug": {"msg": "{{ item.devices }}: {{ iosched_notices[item.notice] }}"},
        "loop": "{{ iosched_host.warnings }}",
        "loop_control": {"label": "{{ item.devices }}"},
    }]  # fmt: skip
    apply = "{{ 'check' if ansible_check_mode else 'apply' }}"
    for kind in kinds:
        if kind in RUNTIME_KINDS:
            names = (f"Set each {_words(kind)}", f"Check each {_words(kind)} was set")
            lines = _pick(f"iosched_host.settings['{kind}']")
            tasks += _script_tasks(kind, apply, names, [kind], lines, _set_result(kind))
        else:
            tasks.append(_by_hand_task(kind))
    if reloads:
        tasks.append({
            "name": "Create the directories of the persistent files",
            "ansible.builtin.file": {"path": "{{ iosched_etc }}{{ item }}", "state": "directory", "mode": "0755"},
            "loop": "{{ iosched_host.directories[iosched_pick] }}",
            "tags": ["persist"],
        })  # fmt: skip
    for reload in reloads:
        words, handler = RELOADS[reload]
        task = _file_task(f"Persist each {words}", ["persist"], f"iosched_host.files | selectattr('reload', '==', "
                          f"'{reload}')", notify=handler)  # fmt: skip
        task["vars"] |= {"iosched_needed": "{{ item.needed[iosched_pick] }}", "iosched_changes": _changes(kinds)}
        task["when"] = [task["when"], "iosched_needed | length == 0 or iosched_needed | select('in', iosched_changes) "
                                      "| list | length > 0"]  # fmt: skip
        tasks.append(task)
    verify = ["never", "verify"]
    for kind in kinds:
        if kind in RUNTIME_KINDS:
            names = (f"Read back each {_words(kind)}", f"Verify each {_words(kind)}")
            lines = _pick(f"iosched_host.settings['{kind}']")
            tasks += _script_tasks(kind, "verify", names, verify, lines, "iosched_read", changes=False)
    if reloads:
        read_back = _file_task("Read back each persistent file", verify, "iosched_host.files", check_mode=True,
                               register="iosched_verify_files")  # fmt: skip
        read_back["when"] = [read_back["when"], "item.needed[iosched_pick] | length == 0"]  # pins only the expected
        differ = "iosched_verify_files.results | selectattr('changed') | map(attribute='item.path')"
        tasks += [read_back, {
            "name": "Verify each persistent file",
            "ansible.builtin.assert": {"that": f"{differ} | list | length == 0", "quiet": True,
                                       "fail_msg": f"{{{{ {differ} | join(', ') }}}} differ from the plan "
                                                   "(--check --diff shows how)"},
            "when": "iosched_verify_files is not skipped",
            "tags": verify,
        }]  # fmt: skip
    return tasks


_OURS = _Quoted(
    "item.stat.exists and item.stat.checksum in ["
    + ", ".join(f"({_lines_of(f'item.item.{pick}')} | join('\n') ~ '\n') | hash('sha1')"
                for pick in ("every", "recommended"))
    + "]"
)  # fmt: skip
"""That a persistent file read at undo (``item``, a result of the stat loop) holds what iosched wrote, with the
consider steps or without (``item.item``, the plan's file), with this host's own identifiers (``iosched_own``)."""
_READ = "iosched_undo_files"


def _each_read(reload: str | None = None) -> dict[str, Any]:
    """Loop over the undo's stat results (of one kind of file, or all), with each file's ``iosched_own`` (what
    :data:`_OURS` compares with)."""
    which = f" | selectattr('item.reload', '==', '{reload}') | list" if reload else ""
    return {"loop": f"{{{{ {_READ}.results{which} }}}}", "loop_control": {"label": "{{ item.item.path }}"},
            "vars": _own("item.item")}  # fmt: skip


def undo_tasks(kinds: Sequence[str], reloads: Sequence[str]) -> list[dict[str, Any]]:
    """Remove the files first (they are what would come back at boot), then restore every value iosched
    changed, the scheduler first: switching back resets the tunables, which are restored after it. TuneD is
    switched back to the profiles it ran before its profile is removed, and before the values are restored: it
    writes back what it replaced. A file that no longer holds what iosched wrote is left and named at once; a
    last task fails when one was, after every value was restored."""
    tasks: list[dict[str, Any]] = []
    ours = ["item is not skipped", _OURS]
    if reloads:
        tasks.append({
            "name": "Read each persistent file",
            "ansible.builtin.stat": {"path": "{{ iosched_etc }}{{ item.path }}", "checksum_algorithm": "sha1"},
            **_each_file("iosched_host.files"),
            "register": _READ,
            "when": "iosched_contents[item.every] | length > 0",
        })  # fmt: skip
    if "tuned" in reloads:
        tasks.append({
            "name": "Switch TuneD back from its iosched profile",
            "ansible.builtin.command": {"cmd": "tuned-adm profile {{ iosched_host.tuned.previous | join(' ') }}"},
            "changed_when": True,
            **_each_read("tuned"),
            "when": [*ours, "iosched_etc == ''"],
        })  # fmt: skip
    for reload in reloads:
        tasks.append({
            "name": f"Remove each {RELOADS[reload][0]}",
            "ansible.builtin.file": {"path": "{{ iosched_etc }}{{ item.item.path }}", "state": "absent"},
            **_each_read(reload),
            "when": ours,
            **({"notify": RELOAD_UDEV} if reload == "udev" else {}),
        })  # fmt: skip
    if "tuned" in reloads:
        tasks.append({
            "name": "Remove the directory of each TuneD profile",
            "ansible.builtin.file": {"path": "{{ iosched_etc }}{{ item.item.path | dirname }}", "state": "absent"},
            **_each_read("tuned"),
            "when": ours,
        })  # fmt: skip
    if reloads:
        tasks.append({
            "name": "Say whether each file was left",
            "ansible.builtin.assert": {"that": [_Quoted(f"not item.stat.exists or ({_OURS})")], "quiet": True,
                                       "fail_msg": "{{ item.item.path }} changed since iosched wrote it; left as "
                                                   "it is"},
            **_each_read(),
            "when": "item is not skipped",
            "register": "iosched_undo_left",
            "ignore_errors": True,
        })  # fmt: skip
    undo = "{{ 'check-undo' if ansible_check_mode else 'undo' }}"
    for kind in kinds:
        if kind in RUNTIME_KINDS:
            names = (f"Restore each {_words(kind)} iosched changed", f"Check each {_words(kind)} was restored")
            lines = {"iosched_lines": f"{{{{ iosched_host.settings['{kind}'].every }}}}"}
            tasks += _script_tasks(kind, undo, names, ["undo"], lines, "iosched_restored")
    if reloads:
        tasks.append({
            "name": "Check no file was left",
            "ansible.builtin.assert": {"that": ["iosched_undo_left is not failed"], "quiet": True,
                                       "fail_msg": "files changed since iosched wrote them were left as they are "
                                                   "(named above)"},
        })  # fmt: skip
    return tasks


def _guard(tags: Sequence[str]) -> dict[str, Any]:
    """The first task of a play for named hosts: end the play on any host its names reach that it was not
    planned for (a name the inventory does not list can match a group of that name)."""
    return {"name": "End the play on a host this plan was not made for", "ansible.builtin.meta": "end_host",
            "when": "inventory_hostname not in iosched_targets", **({"tags": list(tags)} if tags else {})}  # fmt: skip


class _Group:
    """Hosts whose plays are the same: the plans' kinds, files and data (rendered once), and the names."""

    __slots__ = ("data", "kinds", "names", "reloads", "texts")

    def __init__(self, kinds: list[str], reloads: list[str], data: tuple[dict[str, Any], dict[str, Any]]) -> None:
        self.kinds, self.reloads, (self.data, self.texts) = kinds, reloads, data
        self.names: list[str] = []


def _group_of(kb: Kb, plans: Sequence[Plan]) -> _Group:
    present = {step.kind for plan in plans for step in plan.steps}
    paths = [checked(PATH, p, "file") for p in files(plans)]
    reloads = {reload_of(p) for p in paths}
    return _Group([kind for kind in STEP_ORDER if kind in present], [r for r in RELOADS if r in reloads],
                  _host_data(kb, plans, paths))  # fmt: skip


def grouped(kb: Kb, hosts: Iterable[tuple[str | None, Hashable, Sequence[Plan]]]) -> list[_Group]:
    """The hosts in groups whose plays are byte for byte the same: the plans of each key are rendered once, and
    keys whose plans render alike share a group. Names are sorted within a group, groups by their first name."""
    by_key: dict[Hashable, _Group] = {}
    by_text: dict[str, _Group] = {}
    seen: set[str] = set()
    twice: set[str] = set()
    for name, key, plans in hosts:
        target = _host(name)
        (twice if target in seen else seen).add(target)
        group = by_key.get(key)
        if group is None:
            found = _group_of(kb, plans)
            group = by_key[key] = by_text.setdefault(json.dumps([found.kinds, found.reloads, found.data]), found)
        group.names.append(target)
    if twice:
        raise PlaybookError(f"a host is given twice: {sorted(twice)}")
    if EVERY_KEY in seen and len(seen) > 1:
        raise PlaybookError("a plan for every host cannot be given with plans for named hosts")
    for group in by_text.values():
        group.names.sort()
    return sorted(by_text.values(), key=lambda g: g.names[0])


class _Parts:
    """What the plays of a playbook share: the script, the handlers, the guards, and the tasks of each set of
    kinds and files. Each is one object, written once and aliased after when more than one play has it."""

    def __init__(self, writer: _Writer, groups: Sequence[_Group]) -> None:
        self.writer = writer
        self.script = Block(SCRIPT)
        self.handlers, self.undo_handlers = handler_tasks(), handler_tasks()[:1]
        # the apply play's guard is tagged always, so that --tags never skips it; the undo play's inherits its tags
        self.guard, self.undo_guard = [_guard(["always"])], [_guard([])]
        if len(groups) > 1:
            for part in ("script", "handlers", "undo_handlers", "guard", "undo_guard"):
                writer.name(getattr(self, part), f"iosched_{part}")
        self._uses = Counter(self._key(g) for g in groups)
        self._tasks: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[list[Any], list[Any]]] = {}

    @staticmethod
    def _key(group: _Group) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(group.kinds), tuple(group.reloads)

    def tasks(self, group: _Group, index: int) -> tuple[list[Any], list[Any]]:
        """The apply and undo tasks of ``group`` (the ``index``-th), made by the first group that has them."""
        key = self._key(group)
        found = self._tasks.get(key)
        if found is None:
            found = self._tasks[key] = apply_tasks(group.kinds, group.reloads), undo_tasks(group.kinds, group.reloads)
            if self._uses[key] > 1:
                self.writer.name(found[0], f"iosched_tasks_{index}")
                self.writer.name(found[1], f"iosched_undo_tasks_{index}")
        return found

    def done(self, group: _Group) -> tuple[Any, ...]:
        """What no later play has, once ``group``'s plays are written."""
        key = self._key(group)
        self._uses[key] -= 1
        return self._tasks.pop(key) if self._uses[key] == 0 else ()


def _plays(group: _Group, index: int, count: int, parts: _Parts) -> list[dict[str, Any]]:
    """The apply play and the undo play of one group; they share the hosts and the vars (YAML anchors)."""
    named = group.names != [EVERY_KEY]
    play_vars = ({"iosched_targets": group.names} if named else {}) | plan_vars(group.data, group.texts, parts.script)
    which = f" {index} of {count} ({len(group.names)} host(s))" if count > 1 else ""
    common = {"hosts": group.names, "become": True, "gather_facts": False}
    apply, undo = parts.tasks(group, index)
    return [
        {"name": f"Apply the iosched plan{which}", **common, "vars": play_vars,
         **({"pre_tasks": parts.guard} if named else {}), "handlers": parts.handlers, "tasks": apply},
        {"name": f"Undo the iosched plan{which}", **common, "tags": ["never", "undo"], "vars": play_vars,
         **({"pre_tasks": parts.undo_guard} if named else {}), "handlers": parts.undo_handlers, "tasks": undo},
    ]  # fmt: skip


def stream(kb: Kb, hosts: Iterable[tuple[str | None, Hashable, Sequence[Plan]]], reproduce: str | None = None,
           ) -> Iterator[str]:  # fmt: skip
    """The playbook, in pieces, for ``(inventory hostname, key, plans of its devices)``: hosts of one key have
    the same plans (a fleet's plan set), which are rendered once. Hosts whose plans render alike share an apply
    play and an undo play, so the playbook grows with the distinct plans, not with the hosts. Every host name
    and value is checked before the first piece. :data:`EVERY_HOST` targets every host of the inventory and
    cannot be given with named hosts. ``reproduce`` is the command that gives the plans again."""
    groups = grouped(kb, hosts)
    if not groups:
        raise PlaybookError("no hosts to plan")
    total = sum(len(g.names) for g in groups)
    shared = f"# {len(groups)} distinct plans: hosts whose plans are identical share a play (and its undo play)."
    yield "\n".join([
        f"# iosched {sh_comment(__version__)} plan (KB {sh_comment(kb.version)}) for {total} host(s).",
        *([shared] if len(groups) > 1 else []),
        "# ansible-playbook -i INVENTORY THIS.yml [--check --diff] [--tags verify] [--tags undo]",
        "#   -e iosched_apply_consider=true   also apply the steps the plan only suggests",
        "#   -e iosched_root=DIR              write the /etc and /var/lib files under DIR (no handlers run)",
        "#   -e iosched_sys_root=DIR          read and write /sys and /proc under DIR (default: iosched_root)",
        *([f"# reproduce: {sh_comment(reproduce)}"] if reproduce else []),
        "",
    ])  # fmt: skip
    writer = _Writer()
    parts = _Parts(writer, groups)
    for index, group in enumerate(groups, 1):
        plays = _plays(group, index, len(groups), parts)
        writer.name(group.names, f"iosched_hosts_{index}")
        writer.name(plays[0]["vars"], f"iosched_vars_{index}")
        yield writer.write(plays, forget=(group.names, plays[0]["vars"], *parts.done(group)))
    yield writer.close()


def render(kb: Kb, hosts: Sequence[tuple[str | None, Sequence[Plan]]], reproduce: str | None = None) -> str:
    """The playbook for ``(inventory hostname, plans of its devices)`` pairs (:func:`stream`, joined)."""
    return "".join(stream(kb, ((name, tuple(map(id, plans)), plans) for name, plans in hosts), reproduce))
