#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw san --workload db --distro sles11sp1 --device dm-0
# Scheduler for dm-0: deadline (kernel 2.6.32, legacy)
set -eu
R="${IOSCHED_ROOT:-}"
DEV=dm-0
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
offered deadline || die "$DEV does not offer deadline: $(cat "$Q/scheduler")"

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
# Use the deadline elevator on dm-0 (IOS116)
echo deadline > "$Q/scheduler"
[ "$(active)" = deadline ] || die "scheduler not set"

# persist
mkdir -p "$R"/etc/udev/rules.d
printf '%s\n' '# iosched plan for SAN LUN through dm-multipath (Database (OLTP))
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="dm-[0-9]*", ENV{DM_UUID}=="mpath-*", ATTR{queue/scheduler}="deadline"' > "$R"/etc/udev/rules.d/60-iosched.rules
[ -z "$R" ] && command -v udevadm >/dev/null && udevadm control --reload

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
