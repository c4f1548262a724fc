"""A plan as a POSIX sh script that checks, journals the previous values, applies, and says how to undo.

The script writes its undo journal before it changes anything. ``IOSCHED_ROOT`` prefixes every path it
touches (/sys, /proc, /etc, /var/lib), so it can be exercised against a copy of those trees.
"""

from __future__ import annotations

from shlex import quote

from iosched import commands as cmd
from iosched.kb import Kb
from iosched.plan import Plan, Step

_PRELUDE = r"""set -eu
R="${IOSCHED_ROOT:-}"
DEV=__DEV__
Q="$R/sys/block/$DEV/queue"
STAMP=$(date +%Y%m%d-%H%M%S)
JOURNAL="${IOSCHED_JOURNAL:-$R/var/lib/iosched/undo-$DEV-$STAMP.sh}"

die() { echo "iosched: $*" >&2; exit 1; }
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
offered() { tr -d '[]' < "$Q/scheduler" | tr ' ' '\n' | grep -qx "$1"; }
active() { sed -e 's/.*\[\(.*\)\].*/\1/' "$Q/scheduler"; }
journal() { printf '%s\n' "$*" >> "$JOURNAL"; }
save_file() {
  if [ -e "$R$1" ]; then
    cp -p "$R$1" "$JOURNAL.$(basename "$1")"
    journal "cp -p $(q "$JOURNAL.$(basename "$1")") \"\$R\"$(q "$1")"
  else
    journal "rm -f \"\$R\"$(q "$1")"
  fi
}

[ -z "$R" ] && [ "$(id -u)" -ne 0 ] && die "run as root"
[ -d "$Q" ] || die "no such block device: $DEV"
"""


def _checks(plan: Plan) -> list[str]:
    lines = []
    if plan.scheduler:
        lines.append(
            f'offered {quote(plan.scheduler)} || die "$DEV does not offer {plan.scheduler}: $(cat "$Q/scheduler")"'
        )
    for step in plan.steps:
        if step.kind == "sysctl":
            path = "/proc/sys/" + step.target.replace(".", "/")
            lines.append(f'[ -w "$R"{quote(path)} ] || die "cannot write {step.target}"')
    return lines


def _journal(plan: Plan) -> list[str]:
    """Record every value the plan will change, and the iosched/ files of the active scheduler."""
    lines = [
        'mkdir -p "$(dirname "$JOURNAL")"',
        'printf \'#!/bin/sh\\n# undo iosched plan on %s\\nset -eu\\nR="${IOSCHED_ROOT:-}"\\n\' "$DEV" > "$JOURNAL"',
        "OLD=$(active)",
        '[ -n "$OLD" ] && journal "echo $(q "$OLD") > \\"\\$R/sys/block/$DEV/queue/scheduler\\""',
        'for f in "$Q"/iosched/*; do',
        '  [ -f "$f" ] && [ -w "$f" ] || continue',
        '  journal "echo $(q "$(cat "$f")") > \\"\\$R/sys/block/$DEV/queue/iosched/$(basename "$f")\\" || true"',
        "done",
    ]
    for step in plan.steps:
        if step.kind == "queue-attribute":
            attr = step.target.removeprefix("queue.")
            lines.append(f'journal "echo $(q "$(cat "$Q/{attr}")") > \\"\\$R/sys/block/$DEV/queue/{attr}\\""')
        elif step.kind == "sysctl":
            path = "/proc/sys/" + step.target.replace(".", "/")
            lines.append(f'journal "echo $(q "$(cat "$R{path}")") > \\"\\$R{path}\\""')
    for path in plan.files:
        lines.append(f"save_file {quote(path)}")
    return lines


def _apply(step: Step) -> list[str]:
    value = quote(step.value)
    header = f"# {step.title} ({', '.join(step.because)})"
    if step.kind == "scheduler":
        return [
            header,
            f'echo {value} > "$Q/scheduler"',
            f'[ "$(active)" = {value} ] || die "scheduler not set"',
        ]
    if step.kind == "tunable":
        name = step.target.split(".", 1)[1]
        return [header, f'echo {value} > "$Q/iosched/{name}"']
    if step.kind == "queue-attribute":
        return [header, f'echo {value} > "$Q/{step.target.removeprefix("queue.")}"']
    if step.kind == "sysctl":
        return [header, f'echo {value} > "$R/proc/sys/{step.target.replace(".", "/")}"']
    return [header, "# not applied by this script (needs a remount or a reboot); by hand:",
            f"#   {step.persist}"]  # fmt: skip


def _persist(plan: Plan) -> list[str]:
    lines = []
    for path, content in plan.files.items():
        lines += [f'mkdir -p "$R"{quote(path.rsplit("/", 1)[0])}',
                  f"printf '%s\\n' {quote(content)} > \"$R\"{quote(path)}"]  # fmt: skip
    if cmd.UDEV_FILE in plan.files:
        lines.append('[ -z "$R" ] && command -v udevadm >/dev/null && udevadm control --reload')
    return lines


def render(kb: Kb, plan: Plan) -> str:
    context = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in plan.context.items() if isinstance(v, str))
    head = [
        "#!/bin/sh",
        f"# iosched {plan.iosched_version} plan (KB {plan.kb_version}): iosched advise {context}",
        f"# Scheduler for {plan.device}: {plan.scheduler or 'unchanged'} (kernel {plan.kernel}, {plan.io_path})",
    ]
    head += [f"# WARNING {w.id}: {' '.join(w.text.split())}" for w in plan.warnings]
    body = _PRELUDE.replace("__DEV__", quote(plan.device)).splitlines()
    body += [*_checks(plan), "", "# undo journal first: nothing changes before it is written", *_journal(plan)]
    body += ["", "# from here on, any failure rolls back what was applied", "DONE=0",
             'rollback() { [ "$DONE" = 1 ] || { echo "iosched: failed; rolling back" >&2; sh "$JOURNAL"; }; }',
             "trap rollback EXIT", "", "# apply"]  # fmt: skip
    for step in plan.steps:
        body += _apply(step)
    body += ["", "# persist", *_persist(plan)]
    body += ["", "DONE=1", 'echo "iosched: applied; to undo: sh $JOURNAL"']
    return "\n".join(head + body) + "\n"
