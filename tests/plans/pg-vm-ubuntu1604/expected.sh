#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw virtual --workload db --distro ubuntu1604 --device sda --fs ext4
# Scheduler for sda: noop (kernel 4.4, legacy)
# WARNING IOS902: Keep write barriers on; this write cache is not protected against power loss. Guides that suggest nobarrier assume a battery-backed cache. With a volatile cache, turning barriers off risks file system corruption and data loss on power failure.
# WARNING stacked-schedulers-in-vm: In a virtual machine the guest and the host both schedule the same I/O: The guest's scheduler orders requests for a virtual disk whose layout it cannot see, and the host (and often the storage behind it) schedules them again. The two can work against each other. SUSE recommends the simplest scheduler in guests (noop on the legacy path; none is the blk-mq counterpart) and leaving the decisions to the host; seed 003 measured a gain from noop in an Ubuntu 16.04 guest. Measure before and after changing it.
# WARNING write-barriers-data-loss: Turning off write barriers or cache flushes can corrupt the file system on power loss: Barriers (cache flushes and FUA writes on journal commits) are what make a volatile disk write cache safe. With them off, a power failure can leave the journal and the data it describes out of order on disk: severe file system corruption and lost data. Only storage whose whole write cache survives power loss (battery- or flash-backed controller cache, drives with power-loss protection) can safely run without them, and then the gain is the cost of the flushes.
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
offered noop || die "$DEV does not offer noop: $(cat "$Q/scheduler")"

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
# Use the noop elevator on sda (IOS114)
echo noop > "$Q/scheduler"
[ "$(active)" = noop ] || die "scheduler not set"

# persist
mkdir -p "$R"/etc/udev/rules.d
printf '%s\n' '# iosched plan for Virtual machine disk (Database (OLTP))
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="sd*[!0-9]|vd*[!0-9]|xvd*[!0-9]", ATTR{queue/scheduler}="noop"' > "$R"/etc/udev/rules.d/60-iosched.rules
[ -z "$R" ] && command -v udevadm >/dev/null && udevadm control --reload

DONE=1
echo "iosched: applied; to undo: sh $JOURNAL"
