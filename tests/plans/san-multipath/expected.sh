#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw san --workload db --distro rhel8 --device dm-2
# dm-2: scheduler none (kernel 4.18, blk-mq)
# WARNING intelligent-storage-multipath (performance): With arrays and dm-multipath, only the scheduler of the top device orders requests: Storage arrays and RAID controllers schedule I/O themselves; a complex host scheduler competes with them, so SUSE recommends the simplest one. With request-based dm-multipath the dm-N device has the scheduler that matters: cloned requests are issued directly to the path devices (sdX), bypassing any scheduler set on them. Set the scheduler on the dm device; settings on the individual paths do not change the order of requests.
set -u
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
write_file() { mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1" || die "could not write ${1#"$R"}"; }

# checks: nothing changes if any fails
[ -n "$R" ] || [ "$(id -u)" -eq 0 ] || die "run as root"
[ -d "$R"/sys/block/dm-2/queue ] || die 'no such block device: dm-2'
writable "$R"/sys/block/dm-2/queue/scheduler || die 'cannot write /sys/block/dm-2/queue/scheduler'
offers "$R"/sys/block/dm-2/queue/scheduler none || die 'dm-2 does not offer none'

# the undo journal first: nothing changes before it is written
DIR="$R/var/lib/iosched"
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
restore_file() { cp -p "$1" "$R$2" 2>/dev/null || failed "could not restore $2"; }
remove_file() { rm -f "$R$1" 2>/dev/null || failed "could not remove $1"; }
IOSCHED_JOURNAL_HEAD
journal() { printf '%s\n' "$*" >> "$JOURNAL" || die "cannot write the undo journal $JOURNAL"; }
journal_value() { if [ -f "$1" ]; then journal "restore $(q "${1#"$R"}") $(q "$(cat "$1")")"; fi; }
journal_scheduler() { journal "restore $(q "${1#"$R"}") $(q "$(active "$1")")"; }
journal_dir() { for f in "$1"/*; do if [ -f "$f" ] && [ -w "$f" ]; then journal_value "$f"; fi; done; }
journal_file() {
  if [ -e "$R$1" ]; then
    cp -p "$R$1" "$JOURNAL.$(basename "$1")" || die "cannot save $1"
    journal "restore_file $(q "$JOURNAL.$(basename "$1")") $(q "$1")"
  else
    journal "remove_file $(q "$1")"
  fi
}
journal_scheduler "$R"/sys/block/dm-2/queue/scheduler
journal_dir "$R"/sys/block/dm-2/queue/iosched
journal_file /etc/udev/rules.d/60-iosched.rules
cat >> "$JOURNAL" <<'IOSCHED_JOURNAL_TAIL' || die "cannot write the undo journal $JOURNAL"
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
# apply
# Use the none elevator on dm-2 (IOS106)
write_scheduler "$R"/sys/block/dm-2/queue/scheduler none

# persist
write_file "$R"/etc/udev/rules.d/60-iosched.rules '# Written by iosched; remove this file (and reload udev) to undo.
# dm-2: san disk, db workload
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="dm-2", ATTR{queue/scheduler}="none"'
if [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
