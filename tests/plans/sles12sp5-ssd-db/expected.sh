#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw ssd --workload db --distro sles12sp5 --device sdb --fs xfs
# sdb: scheduler deadline (kernel 4.12, legacy)
# WARNING IOS902 (data-loss): Keep write barriers on; this write cache is not protected against power loss. Guides that suggest nobarrier assume a battery-backed cache. With a volatile cache, turning barriers off risks file system corruption and data loss on power failure.
# WARNING write-barriers-data-loss (data-loss): Turning off write barriers or cache flushes can corrupt the file system on power loss: Barriers (cache flushes and FUA writes on journal commits) are what make a volatile disk write cache safe. With them off, a power failure can leave the journal and the data it describes out of order on disk: severe file system corruption and lost data. Only storage whose whole write cache survives power loss (battery- or flash-backed controller cache, drives with power-loss protection) can safely run without them, and then the gain is the cost of the flushes.
# WARNING sles12-scsi-legacy-path (performance): SLES 12 keeps SCSI on the legacy path unless scsi_mod.use_blk_mq=1: On SLES 12 SP5 SCSI disks (SATA, SAS, FC, USB) use the legacy single-queue block layer by default, so only cfq, deadline and noop are offered and the blk-mq advice (mq-deadline, bfq, none, kyber) does not apply. Booting with scsi_mod.use_blk_mq=1 moves them to blk-mq; SUSE then advises switching spinning disks to BFQ to avoid a significant performance degradation, because blk-mq has no CFQ.
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
write_file() {
  mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1" || die "could not write ${1#"$R"}"
  if [ -n "${JOURNAL:-}" ]; then cp "$1" "$JOURNAL.wrote.$(basename "$1")" || die "cannot keep a copy of ${1#"$R"}"; fi
}
write_profile() {
  others=""
  if [ -f "$1" ]; then
    others=$(printf '%s\n' "$2" | awk -v unit="[iosched-" '
      NR == FNR { if (index($0, unit) == 1) mine[$0] = 1; next }
      /^\[/ { keep = index($0, unit) == 1 && !($0 in mine) }
      keep' - "$1") || die "cannot read ${1#"$R"}"
  fi
  if [ -n "$others" ]; then write_file "$1" "$2
$others"; else write_file "$1" "$2"; fi
}

# checks: nothing changes if any fails
[ -n "$R" ] || [ "$(id -u)" -eq 0 ] || die "run as root"

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
undo_file() {
  if [ -f "$2" ] && [ -e "$R$1" ] && [ "$(cat "$R$1")" != "$(cat "$2")" ]; then
    printf 'iosched: undo: %s changed since this plan wrote it; left as it is\n' "$1" >&2
  elif [ -n "$3" ]; then
    cp -p "$3" "$R$1" 2>/dev/null || failed "could not restore $1"
  else
    rm -f "$R$1" 2>/dev/null || failed "could not remove $1"
  fi
}
IOSCHED_JOURNAL_HEAD
journal() { printf '%s\n' "$*" >> "$JOURNAL" || die "cannot write the undo journal $JOURNAL"; }
journal_value() { if [ -f "$1" ]; then journal "restore $(q "${1#"$R"}") $(q "$(cat "$1")")"; fi; }
journal_scheduler() { journal "restore $(q "${1#"$R"}") $(q "$(active "$1")")"; }
journal_dir() { for f in "$1"/*; do if [ -f "$f" ] && [ -w "$f" ]; then journal_value "$f"; fi; done; }
journal_file() {
  wrote="$JOURNAL.wrote.$(basename "$1")"
  if [ -e "$R$1" ]; then
    cp -p "$R$1" "$JOURNAL.$(basename "$1")" || die "cannot save $1"
    journal "undo_file $(q "$1") $(q "$wrote") $(q "$JOURNAL.$(basename "$1")")"
  else
    journal "undo_file $(q "$1") $(q "$wrote") ''"
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

# persist

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
