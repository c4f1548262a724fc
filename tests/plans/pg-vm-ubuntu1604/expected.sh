#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw virtual --workload db --distro ubuntu1604 --device sda --fs ext4
# sda: scheduler noop (kernel 4.4, legacy)
# WARNING IOS902 (data-loss): Keep write barriers on; this write cache is not protected against power loss. Guides that suggest nobarrier assume a battery-backed cache. With a volatile cache, turning barriers off risks file system corruption and data loss on power failure.
# WARNING write-barriers-data-loss (data-loss): Turning off write barriers or cache flushes can corrupt the file system on power loss: Barriers (cache flushes and FUA writes on journal commits) are what make a volatile disk write cache safe. With them off, a power failure can leave the journal and the data it describes out of order on disk: severe file system corruption and lost data. Only storage whose whole write cache survives power loss (battery- or flash-backed controller cache, drives with power-loss protection) can safely run without them, and then the gain is the cost of the flushes.
# WARNING stacked-schedulers-in-vm (performance): In a virtual machine the guest and the host both schedule the same I/O: The guest's scheduler orders requests for a virtual disk whose layout it cannot see, and the host (and often the storage behind it) schedules them again; the two can work against each other. Vendors advise the simplest scheduler in guests: SUSE noop (none on blk-mq), Red Hat mq-deadline, or none with a multi-queue virtual HBA, which is what the kernel picks by itself; “What Is an I/O Scheduler?” measured a gain from noop in an Ubuntu server VM on kernel 4.4. Guests whose storage is reached by iSCSI, SR-IOV or device passthrough should keep a real scheduler (mq-deadline or bfq), because the host cannot reorder that I/O. Measure before and after changing it.
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
[ -d "$R"/sys/block/sda/queue ] || die 'no such block device: sda'
writable "$R"/sys/block/sda/queue/scheduler || die 'cannot write /sys/block/sda/queue/scheduler'
offers "$R"/sys/block/sda/queue/scheduler noop || die 'sda does not offer noop'

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
journal_scheduler "$R"/sys/block/sda/queue/scheduler
journal_dir "$R"/sys/block/sda/queue/iosched
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
# Use the noop elevator on sda (IOS114)
write_scheduler "$R"/sys/block/sda/queue/scheduler noop

# persist
write_file "$R"/etc/udev/rules.d/60-iosched.rules '# Written by iosched; remove this file (and reload udev) to undo.
# sda: virtual disk, db workload
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="sda", ATTR{queue/scheduler}="noop"'
if [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
