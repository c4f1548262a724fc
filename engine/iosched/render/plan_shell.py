"""Plans as one POSIX sh script: check everything, then converge every value and file, journalling each
before it changes.

Every step is a call of the shell library the playbook shares (:mod:`iosched.steps.shell`): it reads the
device first, changes only what differs and says ``ok``, ``changed`` or ``failed``; the journal keeps the
value it really found, so undo restores what the machine had, never an assumed default, and a second run
changes nothing. A file is written only where its content differs, and a file that only pins values the plan
expected to find already is written only when one of them was found otherwise.

The script runs under umask 077 and keeps its journals in ``/var/lib/iosched``, which it creates 0700 and
refuses when it is a symbolic link or owned by another user; journals are 0600, persistent files 0644. The
journal is created, and its path said, before anything changes. Any failure, and INT, TERM or
HUP, runs the journal, which restores every value and file it recorded, goes on past a failed restore and
reports all of them. ``consider`` steps are applied only with ``IOSCHED_APPLY_CONSIDER=1``. ``IOSCHED_ROOT``
prefixes every path the script touches, so it can be exercised against a copy of /sys, /proc and /etc.
Every value that reaches the script is quoted by :func:`~iosched.escape.sh_word`, and every comment
goes through :func:`~iosched.escape.sh_comment`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from iosched.escape import sh_comment, sh_word
from iosched.knowledge.base import Kb
from iosched.mechanisms import tuned
from iosched.persist import files, kept_by, tuned_base
from iosched.records.plan import Plan, Step, TunedBase, host_steps, unattended
from iosched.render.reproduce import advise_command
from iosched.steps import kind_of
from iosched.steps.shell import LIBRARY

# How the sh script writes the persistent files and how its undo journal takes them back, as sh functions.
#
# Apply keeps a copy of what it wrote beside the journal. Undo takes a file back only while it still holds what
# this plan wrote: it restores what was there before (or removes the file it created); a file changed since (by
# another plan of the same device, a later apply, or by hand) is left as it is, and undo says so. Plans of other
# devices write other files (:mod:`iosched.mechanisms.udev`, :mod:`iosched.mechanisms.sysctld`), so undoing one, in any
# order, never touches another's.

_WRITE = r"""write_file() {
  (umask 022 && mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1") 2>/dev/null || die "could not write ${1#"$R"}"
  if [ -n "${JOURNAL:-}" ]; then cp "$1" "$JOURNAL.wrote.$(basename "$1")" || die "cannot keep a copy of ${1#"$R"}"; fi
}"""
"""``write_file PATH CONTENT`` (PATH with ``$R``), in the script's helpers: the file readable by all (0644), a
private copy of it beside the journal for undo."""

_PROFILE = r"""merged_profile() {
  others=""
  if [ -f "$1" ]; then
    others=$(printf '%s\n' "$2" | awk -v unit="[@PREFIX@" '
      NR == FNR { if (index($0, unit) == 1) mine[$0] = 1; next }
      /^\[/ { keep = index($0, unit) == 1 && !($0 in mine) }
      keep' - "$1") || die "cannot read ${1#"$R"}"
  fi
  if [ -n "$others" ]; then printf '%s\n%s' "$2" "$others"; else printf '%s' "$2"; fi
}""".replace("@PREFIX@", tuned.PREFIX)
"""``merged_profile PATH CONTENT`` prints what to write: the TuneD profile one host runs is shared by the plans of
its disks, so the units of other disks that an iosched profile already there has are kept after the plan's own."""

_UNDO = r"""undo_file() {
  if [ -f "$2" ] && [ -e "$R$1" ] && [ "$(cat "$R$1")" != "$(cat "$2")" ]; then
    if [ -n "$3" ] && [ "$(cat "$R$1")" = "$(cat "$3")" ]; then return; fi
    left "$1 changed since this plan wrote it"
  elif [ -n "$3" ]; then
    cp -p "$3" "$R$1" 2>/dev/null || failed "could not restore $1$(read_only "$1")"
  else
    { rm -f "$R$1" 2>/dev/null && [ ! -e "$R$1" ]; } || failed "could not remove $1$(read_only "$1")"
  fi
}"""
"""``undo_file PATH WROTE SAVED`` in the journal: WROTE is the copy of what apply wrote (absent when apply
stopped before), SAVED the copy of what was there before ("" when nothing was). A file that holds what was
there before already (a journal run again) is done."""

_JOURNAL_FILE = r"""journal_file() {
  wrote="$JOURNAL.wrote.$(basename "$1")"
  if [ -e "$R$1" ]; then
    cp -p "$R$1" "$JOURNAL.$(basename "$1")" || { rm -f "$JOURNAL.$(basename "$1")"; die "cannot save $1"; }
    journal "undo_file $(q "$1") $(q "$wrote") $(q "$JOURNAL.$(basename "$1")")"
  else
    journal "undo_file $(q "$1") $(q "$wrote") ''"
  fi
}"""
"""``journal_file PATH`` before apply: what undo does with the file."""

# How the journal takes back a runtime value. Apply journals, with the value it found, the value it set and the
# identity of the device (:func:`identity` in :mod:`iosched.steps.shell`). Undo writes the value back only on the
# same device and only while it still holds what apply set: a value set since (by a later plan, by hand) or a
# name that is now another device (a loop device attached to another file) is left as it is, and undo says so
# and exits 1. A value that is already what apply found (the journal run again) is done. The tunables of an
# elevator apply replaced come back only with that elevator.
_UNDO_VALUE = r"""RESTORED=""
restore_set() {
  rs_id=$1 rs_set=$2; shift 2
  [ -e "$2" ] || { failed "could not restore ${2#"$R"} to $3: it is gone"; return; }
  rs_now=$(value_of "$2" "$1" 2>/dev/null) || rs_now=""
  rs_at=$(identity "$2")
  if [ "$rs_at" != "$rs_id" ]; then
    left "${2#"$R"} is on another device since apply (${rs_at:-no identity}, was ${rs_id:-no identity})"
  elif [ "$rs_now" = "$3" ]; then
    :
  elif [ "$rs_now" != "$rs_set" ]; then
    left "${2#"$R"} changed since apply (it reads $rs_now; apply set $rs_set)"
  else
    restore "$@" && RESTORED="$RESTORED ${2%/scheduler}"
  fi
}
restore_with_elevator() {
  case " $RESTORED " in *" ${2%/iosched/*} "*) restore "$@" ;; esac
}"""
"""``restore_set IDENTITY SET KIND FILE OLD [FILE OLD]...`` and ``restore_with_elevator tunable FILE OLD`` in
the journal."""

_REMEMBER = r"""remember() {
  r_kind=$1; shift
  if [ "$r_kind" = tunable ] && [ "$c_kind" = scheduler ]; then
    entry="restore_with_elevator $r_kind"
  else
    entry="restore_set $(q "$(identity "$1")") $(q "$c_want") $r_kind"
  fi
  while [ $# -ge 2 ]; do entry="$entry \"\$R\"$(q "${1#"$R"}") $(q "$2")"; shift 2; done
  journal "$entry"
}"""
"""``remember KIND FILE OLD [FILE OLD]...`` (called by the step library as it changes a value): the journal
line that takes it back."""

_HELPERS = r"""set -u
umask 077
R="${IOSCHED_ROOT:-}"
SYS=$R
MODE=apply
APPLY_CONSIDER="${IOSCHED_APPLY_CONSIDER:-0}"

die() { printf 'iosched: %s\n' "$*" >&2; exit 1; }
problem() { printf 'iosched: failed: %s\n' "$*" >&2; }
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
writable() { [ -w "$1" ] && [ ! -d "$1" ]; }
"""
_HELPERS += _WRITE + "\n" + _PROFILE + "\n"

_JOURNAL_HEAD = r"""#!/bin/sh
# iosched undo journal: restores every value and file below, goes on after a failure, reports them all.
R="${IOSCHED_ROOT:-}"
SYS=$R
FAILED=0
failed() { printf 'iosched: undo: %s\n' "$*" >&2; FAILED=$((FAILED + 1)); }
read_only() {
  [ -w "$(dirname "$R$1")" ] ||
    printf ' (%s is read-only: remount it read-write, then run this journal again)' "$(dirname "$1")"
}
LEFT=0
left() { printf 'iosched: undo: %s; left as it is\n' "$*" >&2; LEFT=$((LEFT + 1)); }
restore() { restore_values "$@" 2>/dev/null || failed "could not restore ${2#"$R"} to $3"; }
@UNDO_FILE@
@UNDO_VALUE@
finish() {
  if [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi
  if [ "$FAILED" -gt 0 ]; then printf 'iosched: undo finished with %s failure(s)\n' "$FAILED" >&2; exit 1; fi
  if [ "$LEFT" -gt 0 ]; then
    printf 'iosched: undo left %s value(s) or file(s) as they are (above); ' "$LEFT" >&2
    printf 'once what changed them is undone, run this journal again\n' >&2
    exit 1
  fi
  echo "iosched: undone"
}
trap finish EXIT
"""
_JOURNAL_HEAD = _JOURNAL_HEAD.replace("@UNDO_FILE@", _UNDO).replace("@UNDO_VALUE@", _UNDO_VALUE)

_JOURNAL = r"""DIR="$R/var/lib/iosched"
[ ! -L "$DIR" ] || die "refusing $DIR: it is a symbolic link"
[ -d "$DIR" ] || mkdir -p "$DIR" || die "cannot create $DIR"
OWNER=$(ls -ldn "$DIR" | awk '{ print $3 }')
[ ! -L "$DIR" ] && [ "$OWNER" = "$(id -u)" ] ||
  die "refusing $DIR: owned by uid $OWNER, not $(id -u); it keeps the undo journals"
chmod 0700 "$DIR" || die "cannot make $DIR private"
JOURNAL="${IOSCHED_JOURNAL:-}"
if [ -z "$JOURNAL" ]; then
  JOURNAL=$(mktemp "$DIR/undo-$(date +%Y%m%d-%H%M%S)-XXXXXX") || die "cannot create the undo journal"
else
  { : > "$JOURNAL" && chmod 0600 "$JOURNAL"; } || die "cannot create the undo journal $JOURNAL"
fi
{ cat > "$JOURNAL" <<'IOSCHED_JOURNAL_HEAD'
@JOURNAL_HEAD@
IOSCHED_JOURNAL_HEAD
} 2>/dev/null || { rm -f "$JOURNAL"; die "cannot write the undo journal $JOURNAL (is the disk full?)"; }
echo "iosched: undo journal: $JOURNAL"
ENTRIES=0
journal() {
  printf '%s\n' "$*" >> "$JOURNAL" || die "cannot write the undo journal $JOURNAL"
  ENTRIES=$((ENTRIES + 1))
}
@REMEMBER@
@JOURNAL_FILE@
same_file() { [ -f "$R$1" ] && [ "$(cat "$R$1"; echo x)" = "$(printf '%s\n' "$2"; echo x)" ]; }
PERSISTED=0
persist_file() {
  content=$2
  if [ "${3:-}" = profile ]; then content=$(merged_profile "$R$1" "$2"); fi
  if same_file "$1" "$content"; then echo "iosched: ok: $1 as planned"; LAST=ok; return; fi
  journal_file "$1"
  write_file "$R$1" "$content"
  echo "iosched: changed: $1"
  LAST=changed PERSISTED=1
}

DONE=0
rollback() { sh "$JOURNAL" >&2; }
on_exit() { if [ "$DONE" != 1 ]; then echo "iosched: failed; rolling back" >&2; rollback; fi; }
on_signal() {
  trap - EXIT INT TERM HUP
  echo "iosched: interrupted by $1; rolling back what was applied" >&2
  rollback
  exit 130
}
trap on_exit EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
"""
_JOURNAL = _JOURNAL.replace("@JOURNAL_FILE@", _JOURNAL_FILE).replace("@REMEMBER@", _REMEMBER)

_FINISH = r"""DONE=1
if [ "$PERSISTED" = 1 ] && [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi
if [ "$ENTRIES" -eq 0 ] && [ -z "${IOSCHED_JOURNAL:-}" ]; then
  rm -f "$JOURNAL"
  echo "iosched: nothing to change: every value and file was already as planned"
else
  echo "iosched: applied; to undo: sh $JOURNAL"
fi"""


def _when_chosen(step: Step, lines: list[str]) -> list[str]:
    if unattended(step) or not lines:
        return lines
    return ['if [ "$APPLY_CONSIDER" = 1 ]; then', *(f"  {line}" for line in lines), "fi"]


def _apply(step: Step, found: str | None) -> list[str]:
    """The step's comment and its converge call; ``found`` names the variable that keeps whether an
    expected-already step found something else (its persistence depends on it)."""
    header = f"# {sh_comment(step.title)} ({sh_comment(', '.join(step.because))})"
    notes = [] if unattended(step) else ["# consider: applied only with IOSCHED_APPLY_CONSIDER=1"]
    if step.expected_already:
        notes.append(
            f"# expected to be {sh_comment(step.value)} already (assumed, not read): checked, changed only if not"
        )
    lines = kind_of(step).sh_apply(step)
    if found is not None:
        lines.append(f"{found}=$LAST")
    return [header, *notes, *_when_chosen(step, lines)]


def _persist(path: str, content: str, base: TunedBase | None) -> list[str]:
    """Write one file where it differs; for a TuneD profile, switch to it when the script runs on the system
    itself and the profile changed."""
    merge = " profile" if tuned.is_profile(path) else ""
    lines = [f"persist_file {sh_word(path)} {sh_word(content)}{merge}"]
    if base is not None and tuned.is_profile(path):
        profile = tuned.name(base)
        switch = f"tuned-adm profile {sh_word(profile)} || die {sh_word(f'could not switch TuneD to {profile}')}"
        rmdir = f'rmdir "$R"{sh_word(tuned.directory(base))} 2>/dev/null || :'
        lines += [f'if [ "$LAST" = changed ]; then journal {sh_word(rmdir)}; fi',
                  f'if [ "$LAST" = changed ] && [ -z "$R" ]; then {switch}; fi']  # fmt: skip
    return lines


def _tuned_switch_back(base: TunedBase | None, path: str, content: str) -> list[str]:
    """A journal line that switches TuneD back first (so that it writes back what it saved before the values
    are restored), when this run will change iosched's profile."""
    if base is None:
        return []
    back = f'if [ -z "$R" ]; then {tuned.switch_back(base)} || failed {sh_word("could not switch TuneD back")}; fi'
    return [f"same_file {sh_word(path)} {sh_word(content)} || journal {sh_word(back)}"]


def _variant(plans: Sequence[Plan], kept: dict[str, list[Step]], keep: Callable[[Step], bool],
             found: dict[Step, str]) -> dict[str, list[str] | None]:  # fmt: skip
    """Per file of the kept steps, the condition on which it is written: None (always) when a step in it
    changes what the device gets at boot; else (every step in it was expected to be there already) the
    variables that say one of them was found otherwise. ``kept``: the steps of each file (:func:`kept_by`)."""
    conditions: dict[str, list[str] | None] = {}
    for path in files(plans, keep):
        own = [s for s in kept.get(path, []) if keep(s)]
        if any(not s.expected_already for s in own):
            conditions[path] = None
        else:
            conditions[path] = list(dict.fromkeys(found[s] for s in own if s in found))
    return conditions


def _write(path: str, content: str, condition: list[str] | None, base: TunedBase | None) -> list[str]:
    lines = _persist(path, content, base)
    if condition is None:
        return lines
    if not condition:
        return [f"# {sh_comment(path)}: not needed, it keeps only values expected to be there already"]
    test = " || ".join(f'[ "${{{name}:-ok}}" = changed ]' for name in condition)
    return [f"if {test}; then", *(f"  {line}" for line in lines), "fi"]


def render(kb: Kb, plans: Plan | Sequence[Plan], skipped: Sequence[tuple[str, str]] = (),
           reproduce: str | None = None) -> str:  # fmt: skip
    """One script for one plan or for every device of a host (one journal); ``skipped`` (device, reason)
    is listed in the header, and ``reproduce``, the command that gives the plans again (default: the first
    plan's context as flags)."""
    plans = [plans] if isinstance(plans, Plan) else list(plans)
    if not plans:
        return "#!/bin/sh\n# iosched: nothing to change\n" + "".join(
            f"# skipped {sh_comment(d)}: {sh_comment(r)}\n" for d, r in skipped
        )
    steps, every, recommended = host_steps(plans), files(plans), files(plans, unattended)
    first = plans[0]
    head = [
        "#!/bin/sh",
        f"# iosched {sh_comment(first.iosched_version)} plan (KB {sh_comment(first.kb_version)}): "
        f"{sh_comment(reproduce or advise_command(first.context))}",
        "# Every step reads the device first and changes only what differs (ok / changed / failed, one line each);",
        "# the undo journal keeps the values really found. Running it again changes nothing.",
    ]
    for plan in plans:
        decided = next((s.shown for s in plan.steps if s.decide is not None), None)
        scheduler = decided or plan.scheduler or "unchanged"
        head.append(f"# {sh_comment(plan.device)}: scheduler {sh_comment(scheduler)} "
                    f"(kernel {sh_comment(plan.kernel)}, {sh_comment(plan.io_path)})")  # fmt: skip
        head += [f"# WARNING {sh_comment(w.id)} ({sh_comment(w.risk or 'advice')}): {sh_comment(w.text)}"
                 for w in plan.warnings]  # fmt: skip
    head += [f"# skipped {sh_comment(device)}: {sh_comment(reason)}" for device, reason in skipped]
    body = [*_HELPERS.splitlines(), *LIBRARY.splitlines()]
    body += ["", "# checks: nothing changes if any fails", '[ -n "$R" ] || [ "$(id -u)" -eq 0 ] || die "run as root"']
    for device in dict.fromkeys(p.device for p in plans if p.steps):
        body.append(
            f'[ -d "$R"/sys/block/{sh_word(device)}/queue ] || die {sh_word(f"no such block device: {device}")}'
        )
    for step in steps:
        body += _when_chosen(step, kind_of(step).sh_check(step) if kind_of(step).runtime else [])
    base = tuned_base(plans)
    profile = base if base is not None and tuned.path(base) in every else None
    if profile is not None:
        missing = "tuned-adm not found: this plan persists through a TuneD profile"
        body.append(f'[ -n "$R" ] || command -v tuned-adm >/dev/null 2>&1 || die {sh_word(missing)}')
    journal = _JOURNAL.replace("@JOURNAL_HEAD@", (_JOURNAL_HEAD + LIBRARY).rstrip("\n"))
    body += ["", "# the undo journal, before anything changes: each value is kept as found, just before it changes"]
    body += journal.splitlines()
    if profile is not None:
        path = tuned.path(profile)
        body += _tuned_switch_back(profile, path, every[path])
    found = {s: f"FOUND_{n}" for n, s in enumerate(steps, 1) if s.expected_already and kind_of(s).runtime}
    body += ["", "# apply"]
    for step in steps:
        body += _apply(step, found.get(step))
    body += ["", "# persist: a file is written only where it differs and would change what the device gets at boot"]
    kept = kept_by(plans)
    all_of, chosen = _variant(plans, kept, lambda s: True, found), _variant(plans, kept, unattended, found)
    for path, content in every.items():
        if recommended.get(path) == content and all_of[path] == chosen.get(path):
            body += _write(path, content, all_of[path], base)
            continue
        body += ['if [ "$APPLY_CONSIDER" = 1 ]; then',
                 *(f"  {line}" for line in _write(path, content, all_of[path], base))]  # fmt: skip
        if path in recommended:
            body += ["else", *(f"  {line}" for line in _write(path, recommended[path], chosen[path], base))]
        body.append("fi")
    body += ["", *_FINISH.splitlines()]
    return "\n".join(head + body) + "\n"
