"""Plans as one POSIX sh script: check everything, journal every value it will change, apply, persist.

The undo journal is written, under a unique name, before anything changes. Any failure, and INT, TERM or
HUP, runs the journal, which restores every value and file it recorded, goes on past a failed restore and
reports all of them. ``consider`` steps are applied only with ``IOSCHED_APPLY_CONSIDER=1``. ``IOSCHED_ROOT``
prefixes every path the script touches, so it can be exercised against a copy of /sys, /proc and /etc.
Every value that reaches the script is quoted by :func:`~iosched.render.escape.sh_word`, and every comment
goes through :func:`~iosched.render.escape.sh_comment`.
"""

from __future__ import annotations

from collections.abc import Sequence

from iosched.kb import Kb
from iosched.persist import files, shell, tuned, tuned_base, udev
from iosched.plan import Plan, Step, TunedBase, host_steps, unattended
from iosched.render.escape import sh_comment, sh_word
from iosched.render.reproduce import advise as advise_command
from iosched.steps import kind_of

_HELPERS = r"""set -u
R="${IOSCHED_ROOT:-}"
APPLY_CONSIDER="${IOSCHED_APPLY_CONSIDER:-0}"

die() { printf 'iosched: %s\n' "$*" >&2; exit 1; }
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
writable() { [ -w "$1" ] && [ ! -d "$1" ]; }
offers() { tr -d '[]' < "$1" | tr ' ' '\n' | grep -qx "$2"; }
active() { sed -e 's/.*\[\(.*\)\].*/\1/' "$1"; }
write_value() { printf '%s\n' "$2" > "$1" || die "could not write $2 to ${1#"$R"}"; }
write_scheduler() {
  write_value "$1" "$2"
  [ "$(active "$1")" = "$2" ] || die "${1#"$R"} reads $(cat "$1"), not $2"
}
"""
_HELPERS += shell.WRITE + "\n" + shell.PROFILE + "\n"

_JOURNAL = r"""DIR="$R/var/lib/iosched"
mkdir -p "$DIR" || die "cannot create $DIR"
JOURNAL="${IOSCHED_JOURNAL:-}"
if [ -z "$JOURNAL" ]; then
  JOURNAL=$(mktemp "$DIR/undo-$(date +%Y%m%d-%H%M%S)-XXXXXX") || die "cannot create the undo journal"
fi
cat > "$JOURNAL" <<'IOSCHED_JOURNAL_HEAD' || die "cannot write the undo journal $JOURNAL"
#!/bin/sh
# iosched undo journal: restores every value and file below, goes on after a failure, reports them all.
R="${IOSCHED_ROOT:-}"
FAILED=0
failed() { printf 'iosched: undo: %s\n' "$*" >&2; FAILED=$((FAILED + 1)); }
restore() { printf '%s\n' "$2" 2>/dev/null > "$R$1" || failed "could not restore $1 to $2"; }
@UNDO_FILE@
IOSCHED_JOURNAL_HEAD
journal() { printf '%s\n' "$*" >> "$JOURNAL" || die "cannot write the undo journal $JOURNAL"; }
journal_value() { if [ -f "$1" ]; then journal "restore $(q "${1#"$R"}") $(q "$(cat "$1")")"; fi; }
journal_scheduler() { journal "restore $(q "${1#"$R"}") $(q "$(active "$1")")"; }
journal_dir() { for f in "$1"/*; do if [ -f "$f" ] && [ -w "$f" ]; then journal_value "$f"; fi; done; }
@JOURNAL_FILE@
"""
_JOURNAL = _JOURNAL.replace("@UNDO_FILE@", shell.UNDO).replace("@JOURNAL_FILE@", shell.JOURNAL)

_TRAILER = r"""cat >> "$JOURNAL" <<'IOSCHED_JOURNAL_TAIL' || die "cannot write the undo journal $JOURNAL"
if [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi
if [ "$FAILED" -gt 0 ]; then printf 'iosched: undo finished with %s failure(s)\n' "$FAILED" >&2; exit 1; fi
echo "iosched: undone"
IOSCHED_JOURNAL_TAIL

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


def _when_chosen(step: Step, lines: list[str]) -> list[str]:
    if unattended(step) or not lines:
        return lines
    return ['if [ "$APPLY_CONSIDER" = 1 ]; then', *(f"  {line}" for line in lines), "fi"]


def _apply(step: Step) -> list[str]:
    header = f"# {sh_comment(step.title)} ({sh_comment(', '.join(step.because))})"
    note = [] if unattended(step) else ["# consider: applied only with IOSCHED_APPLY_CONSIDER=1"]
    return [header, *note, *_when_chosen(step, kind_of(step).sh_apply(step))]


def _persist(path: str, content: str, base: TunedBase | None) -> list[str]:
    """Write one file; for a TuneD profile, switch to it when the script runs on the system itself."""
    write = "write_profile" if tuned.is_profile(path) else "write_file"
    lines = [f'{write} "$R"{sh_word(path)} {sh_word(content)}']
    if base is not None and tuned.is_profile(path):
        profile = tuned.name(base)
        switch = f"tuned-adm profile {sh_word(profile)} || die {sh_word(f'could not switch TuneD to {profile}')}"
        lines.append(f'if [ -z "$R" ]; then {switch}; fi')
    return lines


def _tuned_journal(base: TunedBase | None) -> tuple[list[str], list[str]]:
    """Journal lines that switch TuneD back first (so that it writes back what it saved before the values are
    restored) and remove the profile's directory last; none when the plan writes no TuneD profile."""
    if base is None:
        return [], []
    back = f'if [ -z "$R" ]; then {tuned.switch_back(base)} || failed {sh_word("could not switch TuneD back")}; fi'
    rmdir = f'rmdir "$R"{sh_word(tuned.directory(base))} 2>/dev/null || :'
    return [f"journal {sh_word(back)}"], [f"journal {sh_word(rmdir)}"]


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
    ]
    for plan in plans:
        scheduler = plan.scheduler or "unchanged"
        head.append(f"# {sh_comment(plan.device)}: scheduler {sh_comment(scheduler)} "
                    f"(kernel {sh_comment(plan.kernel)}, {sh_comment(plan.io_path)})")  # fmt: skip
        head += [f"# WARNING {sh_comment(w.id)} ({sh_comment(w.risk or 'advice')}): {sh_comment(w.text)}"
                 for w in plan.warnings]  # fmt: skip
    head += [f"# skipped {sh_comment(device)}: {sh_comment(reason)}" for device, reason in skipped]
    body = _HELPERS.splitlines()
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
    switch_back, remove_dir = _tuned_journal(profile)
    body += ["", "# the undo journal first: nothing changes before it is written", *_JOURNAL.splitlines()]
    body += switch_back
    for step in steps:
        body += _when_chosen(step, kind_of(step).sh_journal(step))
    body += [f"journal_file {sh_word(path)}" for path in every]
    body += remove_dir
    body += [*_TRAILER.splitlines(), "# apply"]
    for step in steps:
        body += _apply(step)
    body += ["", "# persist"]
    for path, content in every.items():
        if recommended.get(path) == content:
            body += _persist(path, content, base)
            continue
        body += ['if [ "$APPLY_CONSIDER" = 1 ]; then', *(f"  {line}" for line in _persist(path, content, base))]
        if path in recommended:
            body += ["else", *(f"  {line}" for line in _persist(path, recommended[path], base))]
        body.append("fi")
    if any(udev.is_rules(path) for path in every):
        body.append('if [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi')
    body += ["", "DONE=1", 'echo "iosched: applied; to undo: sh $JOURNAL"']
    return "\n".join(head + body) + "\n"
