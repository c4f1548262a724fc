"""How the sh script writes the persistent files and how its undo journal takes them back, as sh functions.

Apply keeps a copy of what it wrote beside the journal. Undo takes a file back only while it still holds what
this plan wrote: it restores what was there before (or removes the file it created); a file changed since (by
another plan of the same device, a later apply, or by hand) is left as it is, and undo says so. Plans of other
devices write other files (:mod:`iosched.system.udev`, :mod:`iosched.system.sysctld`), so undoing one, in any
order, never touches another's."""

from __future__ import annotations

from iosched.system import tuned

WRITE = r"""write_file() {
  (umask 022 && mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1") 2>/dev/null || die "could not write ${1#"$R"}"
  if [ -n "${JOURNAL:-}" ]; then cp "$1" "$JOURNAL.wrote.$(basename "$1")" || die "cannot keep a copy of ${1#"$R"}"; fi
}"""
"""``write_file PATH CONTENT`` (PATH with ``$R``), in the script's helpers: the file readable by all (0644), a
private copy of it beside the journal for undo."""

PROFILE = r"""merged_profile() {
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

UNDO = r"""undo_file() {
  if [ -f "$2" ] && [ -e "$R$1" ] && [ "$(cat "$R$1")" != "$(cat "$2")" ]; then
    printf 'iosched: undo: %s changed since this plan wrote it; left as it is\n' "$1" >&2
  elif [ -n "$3" ]; then
    cp -p "$3" "$R$1" 2>/dev/null || failed "could not restore $1$(read_only "$1")"
  else
    { rm -f "$R$1" 2>/dev/null && [ ! -e "$R$1" ]; } || failed "could not remove $1$(read_only "$1")"
  fi
}"""
"""``undo_file PATH WROTE SAVED`` in the journal: WROTE is the copy of what apply wrote (absent when apply
stopped before), SAVED the copy of what was there before ("" when nothing was)."""

JOURNAL = r"""journal_file() {
  wrote="$JOURNAL.wrote.$(basename "$1")"
  if [ -e "$R$1" ]; then
    cp -p "$R$1" "$JOURNAL.$(basename "$1")" || { rm -f "$JOURNAL.$(basename "$1")"; die "cannot save $1"; }
    journal "undo_file $(q "$1") $(q "$wrote") $(q "$JOURNAL.$(basename "$1")")"
  else
    journal "undo_file $(q "$1") $(q "$wrote") ''"
  fi
}"""
"""``journal_file PATH`` before apply: what undo does with the file."""
