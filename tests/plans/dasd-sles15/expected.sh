#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw dasd --workload db --distro sles15sp5 --device dasda
# dasda: scheduler none (kernel 5.14, blk-mq)
# WARNING ibm-z-dasd-driver-default (performance): IBM Z DASD - the driver, then s390-tools' udev rule, decide the scheduler: On the legacy block layer the DASD driver replaced the default elevator with deadline when it set up the queue, whatever CONFIG_DEFAULT_IOSCHED or the distribution's rules said; SUSE documents this as "set by the device driver". Since 4.14 DASD uses blk-mq with 4 hardware queues (module parameter nr_hw_queues) and a queue depth of 32 and no longer picks an elevator, so the kernel alone would give none. But IBM's s390-tools ships 59-dasd.rules, which writes the scheduler on "change" events: "deadline" from s390-tools 2.0 (2017) to 2.16, which blk-mq resolves to mq-deadline, and "none" since 2.17.0 (July 2021), because mq-deadline cost significantly more CPU for the same throughput. A DASD therefore has mq-deadline on releases with an older s390-tools (Debian 12 still ships 2.16) and none on newer ones. Check the scheduler file, and persist a choice with a rule that sorts after 59-dasd.rules.
# WARNING sap-tuning-sets-none-and-dirty-bytes (performance): On SLES for SAP Applications sapconf or saptune switch every disk to none and set the dirty limits in bytes: SUSE's SAP tuning tools apply SAP Notes 1984787 (SLES 12) and 2578899 (SLES 15): IO_SCHEDULER "noop, none" puts every disk, virtio and NVMe device and every multipath device (not its paths, not LVM) on the first of noop or none it offers, which is none on blk-mq; vm.dirty_bytes becomes 629145600 and vm.dirty_background_bytes 314572800, which zeroes the two ratios. They set no nr_requests or read_ahead_kb by default. sapconf saves and restores the previous scheduler when it stops; saptune reverts when its solution is reverted. A plan on such a system starts from these values, and a manual change is undone when the tool re-applies its notes.
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

# persist

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
