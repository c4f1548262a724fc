#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw raid --workload db --kernel 6.8 --device sdb --cache battery-backed --fs ext4 --mountpoint /var/lib/pgsql --mount-options rw,relatime,nobarrier
# sdb: scheduler mq-deadline (kernel 6.8, blk-mq)
# WARNING IOS901 (data-loss): Keep write barriers on, even with a battery-backed cache; check queue/write_cache and the battery instead. Older guides suggest nobarrier when the controller cache is battery-backed. iosched never makes that a step: the gain is small (Red Hat calls nobarrier no longer recommended because the cost of barriers became negligible), many battery-backed controllers already report write-through in queue/write_cache, so the kernel sends no flushes and nothing is gained, and when the battery fails or enters a learn cycle the cache turns volatile with barriers off, which loses data. Red Hat also says never to use nobarrier on storage of virtual machines. Check `cat /sys/block/DEV/queue/write_cache` and the controller's battery state instead.
# WARNING write-barriers-data-loss (data-loss): Turning off write barriers or cache flushes can corrupt the file system on power loss: Barriers (cache flushes and FUA writes on journal commits) are what make a volatile disk write cache safe. With them off, a power failure can leave the journal and the data it describes out of order on disk: severe file system corruption and lost data. Only storage whose whole write cache survives power loss (battery- or flash-backed controller cache, drives with power-loss protection) can safely run without them, and then the gain is the cost of the flushes.
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
[ -d "$R"/sys/block/sdb/queue ] || die 'no such block device: sdb'

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
# Mount the ext4 file system with barrier (IOS903)
# not applied by this script (it needs the mount point); by hand:
#   sudo mount -o remount,barrier /var/lib/pgsql

# persist

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
