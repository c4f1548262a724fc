#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw hdd --workload fileserver --distro sles12sp5 --device sda --io-path blk-mq
# Scheduler for sda: bfq (kernel 4.12, blk-mq)
set -eu
R="${IOSCHED_ROOT:-}"
DEV=sda
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
offered bfq || die "$DEV does not offer bfq: $(cat "$Q/scheduler")"

# undo journal first: nothing changes before it is written
mkdir -p "$(dirname "$JOURNAL")"
printf '#!/bin/sh\n# undo iosched plan on %s\nset -eu\nR="${IOSCHED_ROOT:-}"\n' "$DEV" > "$JOURNAL"
OLD=$(active)
[ -n "$OLD" ] && journal "echo $(q "$OLD") > \"\$R/sys/block/$DEV/queue/scheduler\""
for f in "$Q"/iosched/*; do
  [ -f "$f" ] && [ -w "$f" ] || continue
  journal "echo $(q "$(cat "$f")") > \"\$R/sys/block/$DEV/queue/iosched/$(basename "$f")\" || true"
done
save_file /etc/udev/rules.d/60-iosched.rules

# from here on, any failure rolls back what was applied
DONE=0
rollback() { [ "$DONE" = 1 ] || { echo "iosched: failed; rolling back" >&2; sh "$JOURNAL"; }; }
trap rollback EXIT

# apply
# Use the bfq elevator on sda (IOS103)
echo bfq > "$Q/scheduler"
[ "$(active)" = bfq ] || die "scheduler not set"

# persist
mkdir -p "$R"/etc/udev/rules.d
printf '%s\n' '# iosched plan for Rotating disk (SATA/SAS) (File server (NFS/SMB))
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="sd*[!0-9]", ATTR{queue/rotational}=="1", ATTR{queue/scheduler}="bfq"' > "$R"/etc/udev/rules.d/60-iosched.rules
[ -z "$R" ] && command -v udevadm >/dev/null && udevadm control --reload

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
