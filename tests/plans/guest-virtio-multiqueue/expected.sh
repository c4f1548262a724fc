#!/bin/sh
# iosched VERSION plan (KB KBVERSION): iosched advise --hw virtual --workload db --distro debian12 --device vda --hw-queues 4
# Every step reads the device first and changes only what differs (ok / changed / failed, one line each);
# the undo journal keeps the values really found. Running it again changes nothing.
# vda: scheduler none (kernel 6.1, blk-mq)
# WARNING stacked-schedulers-in-vm (performance): In a virtual machine the guest and the host both schedule the same I/O: The guest's scheduler orders requests for a virtual disk whose layout it cannot see, and the host (and often the storage behind it) schedules them again; the two can work against each other. Vendors advise the simplest scheduler in guests: SUSE noop (none on blk-mq), Red Hat mq-deadline, or none with a multi-queue virtual HBA, which is what the kernel picks by itself; “What Is an I/O Scheduler?” measured a gain from noop in an Ubuntu server VM on kernel 4.4. Guests whose storage is reached by iSCSI, SR-IOV or device passthrough should keep a real scheduler (mq-deadline or bfq), because the host cannot reorder that I/O. Measure before and after changing it.
set -u
umask 077
R="${IOSCHED_ROOT:-}"
SYS=$R
MODE=apply
APPLY_CONSIDER="${IOSCHED_APPLY_CONSIDER:-0}"

die() { printf 'iosched: %s\n' "$*" >&2; exit 1; }
problem() { printf 'iosched: failed: %s\n' "$*" >&2; }
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
writable() { [ -w "$1" ] && [ ! -d "$1" ]; }
write_file() {
  (umask 022 && mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1") 2>/dev/null || die "could not write ${1#"$R"}"
  if [ -n "${JOURNAL:-}" ]; then cp "$1" "$JOURNAL.wrote.$(basename "$1")" || die "cannot keep a copy of ${1#"$R"}"; fi
}
merged_profile() {
  others=""
  if [ -f "$1" ]; then
    others=$(printf '%s\n' "$2" | awk -v unit="[iosched-" '
      NR == FNR { if (index($0, unit) == 1) mine[$0] = 1; next }
      /^\[/ { keep = index($0, unit) == 1 && !($0 in mine) }
      keep' - "$1") || die "cannot read ${1#"$R"}"
  fi
  if [ -n "$others" ]; then printf '%s\n%s' "$2" "$others"; else printf '%s' "$2"; fi
}
# iosched step library: read the value, change only what differs, keep what was there.
value_of() {
  value=$(cat "$1") || return 1
  value=${value#"${value%%[![:space:]]*}"}
  value=${value%"${value##*[![:space:]]}"}
  if [ "$2" = scheduler ]; then
    case $value in *\[*\]*) value=${value#*\[}; value=${value%%\]*} ;; esac
  fi
  printf '%s' "$value"
}
# a value decided on the machine (iosched.records.runtime): FACT:VALUE:VALUE -> the case the device is in
decided() {
  case $2 in
    queues:*)
      d_values=${2#*:}:
      d_case=$(d_queue=${1%/*}
      d_n=$(ls "${d_queue%/queue}/mq" 2>/dev/null | grep -c '^[0-9][0-9]*$')
      if [ "$d_n" -gt 1 ]; then echo several; elif [ "$d_n" -eq 1 ]; then echo one; else exit 1; fi
      ) || return 1
      set -- one several
      while [ "$1" != "$d_case" ]; do d_values=${d_values#*:}; shift; done
      printf '%s' "${d_values%%:*}" ;;
    *) printf '%s' "$2" ;;
  esac
}
offered() {
  o_want=$(decided "$1" "$2") || return 1
  case " - $(tr -d '[]' < "$1") " in *" $o_want "*) return 0 ;; esac; return 1
}
put() { printf '%s\n' "$2" 2>/dev/null > "$1" && [ "$(value_of "$1" "$3")" = "$2" ]; }
restore_values() {
  rv_kind=$1; shift
  if [ $# -eq 2 ]; then put "$1" "$2" "$rv_kind"; return; fi
  rv_first=$1 rv_value=$2 rv_wrote=0
  while [ $# -ge 2 ]; do
    if [ "$2" != 0 ]; then put "$1" "$2" "$rv_kind" || return 1; rv_wrote=1; fi
    shift 2
  done
  [ "$rv_wrote" = 1 ] || put "$rv_first" "$rv_value" "$rv_kind"
}
identity() {
  i_dev=${1#"$SYS"/sys/block/}
  [ "$i_dev" != "$1" ] || return 0
  i_dev=$SYS/sys/block/${i_dev%%/*}
  for i_file in wwid device/wwid serial device/serial loop/backing_file; do
    if [ -r "$i_dev/$i_file" ]; then printf '%s %s' "$i_file" "$(cat "$i_dev/$i_file" 2>/dev/null)"; return 0; fi
  done
}
SWITCHED="" LAST=""
keep() {
  k_kind=$1 k_file=$2 k_found=$3; shift 3
  case $k_kind in
    scheduler)
      remember scheduler "$k_file" "$k_found" || return 1
      for k_tunable in "${k_file%/scheduler}"/iosched/*; do
        if [ -f "$k_tunable" ] && [ -w "$k_tunable" ]; then
          remember tunable "$k_tunable" "$(value_of "$k_tunable" tunable)" || return 1
        fi
      done ;;
    tunable)
      case " $SWITCHED " in *" ${k_file%/iosched/*} "*) return 0 ;; esac
      remember tunable "$k_file" "$k_found" ;;
    *)
      set -- "$k_file" "$k_found" $(for k_other in "$@"; do
        if [ -f "$k_other" ]; then printf '%s %s ' "$k_other" "$(value_of "$k_other" "$k_kind")"; fi
      done)
      remember "$k_kind" "$@" ;;
  esac
}
converge() {
  c_kind=$1 c_file=$2; shift 2
  c_shown=${c_file#"$SYS"}
  c_want=$(decided "$c_file" "$1") || { problem "cannot tell which case $c_shown is in: $1"; return 1; }
  shift
  if [ "$c_want" = - ]; then echo "iosched: ok: $c_shown left as it is"; LAST=ok; return 0; fi
  if [ ! -e "$c_file" ] || [ -d "$c_file" ]; then
    if [ "$c_kind" = tunable ] && [ "$MODE" = check ]; then
      echo "iosched: changed: $c_shown: (comes with the new elevator) -> $c_want"
      LAST=changed; return 0
    fi
    problem "no such file: $c_shown"; return 1
  fi
  c_now=$(value_of "$c_file" "$c_kind") || { problem "cannot read $c_shown"; return 1; }
  if [ "$c_now" = "$c_want" ]; then echo "iosched: ok: $c_shown is $c_want"; LAST=ok; return 0; fi
  if [ "$c_kind" = scheduler ] && ! offered "$c_file" "$c_want"; then
    problem "$c_shown offers $(cat "$c_file"), not $c_want"; return 1
  fi
  if [ "$MODE" = verify ]; then problem "$c_shown reads $c_now; the plan sets $c_want"; return 1; fi
  echo "iosched: changed: $c_shown: $c_now -> $c_want"
  LAST=changed
  [ "$MODE" != check ] || return 0
  keep "$c_kind" "$c_file" "$c_now" "$@" || { problem "cannot keep the value of $c_shown"; return 1; }
  put "$c_file" "$c_want" "$c_kind" || { problem "could not set $c_shown to $c_want"; return 1; }
  if [ "$c_kind" = scheduler ]; then SWITCHED="$SWITCHED ${c_file%/scheduler}"; fi
}

# checks: nothing changes if any fails
[ -n "$R" ] || [ "$(id -u)" -eq 0 ] || die "run as root"
[ -d "$R"/sys/block/vda/queue ] || die 'no such block device: vda'
writable "$R"/sys/block/vda/queue/scheduler || die 'cannot write /sys/block/vda/queue/scheduler'
offered "$R"/sys/block/vda/queue/scheduler none || die 'vda does not offer none'

# the undo journal, before anything changes: each value is kept as found, just before it changes
DIR="$R/var/lib/iosched"
[ ! -L "$DIR" ] || die "refusing $DIR: it is a symbolic link"
[ -d "$DIR" ] || mkdir -p "$DIR" || die "cannot create $DIR"
OWNER=$(ls -ldn "$DIR" | awk '{ print $3 }')
[ ! -L "$DIR" ] && [ "$OWNER" = "$(id -u)" ] ||
  die "refusing $DIR: owned by uid $OWNER, not $(id -u); it keeps the undo journals"
chmod 0700 "$DIR" || die "cannot make $DIR private"
JOURNAL="${IOSCHED_JOURNAL:-}"
if [ -z "$JOURNAL" ]; then
  JOURNAL=$(mktemp "$DIR/undo-$(date +%Y%m%d-%H%M%S)-XXXXXX") || die "cannot create the undo journal"
else
  { : > "$JOURNAL" && chmod 0600 "$JOURNAL"; } || die "cannot create the undo journal $JOURNAL"
fi
{ cat > "$JOURNAL" <<'IOSCHED_JOURNAL_HEAD'
#!/bin/sh
# iosched undo journal: restores every value and file below, goes on after a failure, reports them all.
R="${IOSCHED_ROOT:-}"
SYS=$R
FAILED=0
failed() { printf 'iosched: undo: %s\n' "$*" >&2; FAILED=$((FAILED + 1)); }
read_only() {
  [ -w "$(dirname "$R$1")" ] ||
    printf ' (%s is read-only: remount it read-write, then run this journal again)' "$(dirname "$1")"
}
LEFT=0
left() { printf 'iosched: undo: %s; left as it is\n' "$*" >&2; LEFT=$((LEFT + 1)); }
restore() { restore_values "$@" 2>/dev/null || failed "could not restore ${2#"$R"} to $3"; }
undo_file() {
  if [ -f "$2" ] && [ -e "$R$1" ] && [ "$(cat "$R$1")" != "$(cat "$2")" ]; then
    if [ -n "$3" ] && [ "$(cat "$R$1")" = "$(cat "$3")" ]; then return; fi
    left "$1 changed since this plan wrote it"
  elif [ -n "$3" ]; then
    cp -p "$3" "$R$1" 2>/dev/null || failed "could not restore $1$(read_only "$1")"
  else
    { rm -f "$R$1" 2>/dev/null && [ ! -e "$R$1" ]; } || failed "could not remove $1$(read_only "$1")"
  fi
}
RESTORED=""
restore_set() {
  rs_id=$1 rs_set=$2; shift 2
  [ -e "$2" ] || { failed "could not restore ${2#"$R"} to $3: it is gone"; return; }
  rs_now=$(value_of "$2" "$1" 2>/dev/null) || rs_now=""
  rs_at=$(identity "$2")
  if [ "$rs_at" != "$rs_id" ]; then
    left "${2#"$R"} is on another device since apply (${rs_at:-no identity}, was ${rs_id:-no identity})"
  elif [ "$rs_now" = "$3" ]; then
    :
  elif [ "$rs_now" != "$rs_set" ]; then
    left "${2#"$R"} changed since apply (it reads $rs_now; apply set $rs_set)"
  else
    restore "$@" && RESTORED="$RESTORED ${2%/scheduler}"
  fi
}
restore_with_elevator() {
  case " $RESTORED " in *" ${2%/iosched/*} "*) restore "$@" ;; esac
}
finish() {
  if [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi
  if [ "$FAILED" -gt 0 ]; then printf 'iosched: undo finished with %s failure(s)\n' "$FAILED" >&2; exit 1; fi
  if [ "$LEFT" -gt 0 ]; then
    printf 'iosched: undo left %s value(s) or file(s) as they are (above); ' "$LEFT" >&2
    printf 'once what changed them is undone, run this journal again\n' >&2
    exit 1
  fi
  echo "iosched: undone"
}
trap finish EXIT
# iosched step library: read the value, change only what differs, keep what was there.
value_of() {
  value=$(cat "$1") || return 1
  value=${value#"${value%%[![:space:]]*}"}
  value=${value%"${value##*[![:space:]]}"}
  if [ "$2" = scheduler ]; then
    case $value in *\[*\]*) value=${value#*\[}; value=${value%%\]*} ;; esac
  fi
  printf '%s' "$value"
}
# a value decided on the machine (iosched.records.runtime): FACT:VALUE:VALUE -> the case the device is in
decided() {
  case $2 in
    queues:*)
      d_values=${2#*:}:
      d_case=$(d_queue=${1%/*}
      d_n=$(ls "${d_queue%/queue}/mq" 2>/dev/null | grep -c '^[0-9][0-9]*$')
      if [ "$d_n" -gt 1 ]; then echo several; elif [ "$d_n" -eq 1 ]; then echo one; else exit 1; fi
      ) || return 1
      set -- one several
      while [ "$1" != "$d_case" ]; do d_values=${d_values#*:}; shift; done
      printf '%s' "${d_values%%:*}" ;;
    *) printf '%s' "$2" ;;
  esac
}
offered() {
  o_want=$(decided "$1" "$2") || return 1
  case " - $(tr -d '[]' < "$1") " in *" $o_want "*) return 0 ;; esac; return 1
}
put() { printf '%s\n' "$2" 2>/dev/null > "$1" && [ "$(value_of "$1" "$3")" = "$2" ]; }
restore_values() {
  rv_kind=$1; shift
  if [ $# -eq 2 ]; then put "$1" "$2" "$rv_kind"; return; fi
  rv_first=$1 rv_value=$2 rv_wrote=0
  while [ $# -ge 2 ]; do
    if [ "$2" != 0 ]; then put "$1" "$2" "$rv_kind" || return 1; rv_wrote=1; fi
    shift 2
  done
  [ "$rv_wrote" = 1 ] || put "$rv_first" "$rv_value" "$rv_kind"
}
identity() {
  i_dev=${1#"$SYS"/sys/block/}
  [ "$i_dev" != "$1" ] || return 0
  i_dev=$SYS/sys/block/${i_dev%%/*}
  for i_file in wwid device/wwid serial device/serial loop/backing_file; do
    if [ -r "$i_dev/$i_file" ]; then printf '%s %s' "$i_file" "$(cat "$i_dev/$i_file" 2>/dev/null)"; return 0; fi
  done
}
SWITCHED="" LAST=""
keep() {
  k_kind=$1 k_file=$2 k_found=$3; shift 3
  case $k_kind in
    scheduler)
      remember scheduler "$k_file" "$k_found" || return 1
      for k_tunable in "${k_file%/scheduler}"/iosched/*; do
        if [ -f "$k_tunable" ] && [ -w "$k_tunable" ]; then
          remember tunable "$k_tunable" "$(value_of "$k_tunable" tunable)" || return 1
        fi
      done ;;
    tunable)
      case " $SWITCHED " in *" ${k_file%/iosched/*} "*) return 0 ;; esac
      remember tunable "$k_file" "$k_found" ;;
    *)
      set -- "$k_file" "$k_found" $(for k_other in "$@"; do
        if [ -f "$k_other" ]; then printf '%s %s ' "$k_other" "$(value_of "$k_other" "$k_kind")"; fi
      done)
      remember "$k_kind" "$@" ;;
  esac
}
converge() {
  c_kind=$1 c_file=$2; shift 2
  c_shown=${c_file#"$SYS"}
  c_want=$(decided "$c_file" "$1") || { problem "cannot tell which case $c_shown is in: $1"; return 1; }
  shift
  if [ "$c_want" = - ]; then echo "iosched: ok: $c_shown left as it is"; LAST=ok; return 0; fi
  if [ ! -e "$c_file" ] || [ -d "$c_file" ]; then
    if [ "$c_kind" = tunable ] && [ "$MODE" = check ]; then
      echo "iosched: changed: $c_shown: (comes with the new elevator) -> $c_want"
      LAST=changed; return 0
    fi
    problem "no such file: $c_shown"; return 1
  fi
  c_now=$(value_of "$c_file" "$c_kind") || { problem "cannot read $c_shown"; return 1; }
  if [ "$c_now" = "$c_want" ]; then echo "iosched: ok: $c_shown is $c_want"; LAST=ok; return 0; fi
  if [ "$c_kind" = scheduler ] && ! offered "$c_file" "$c_want"; then
    problem "$c_shown offers $(cat "$c_file"), not $c_want"; return 1
  fi
  if [ "$MODE" = verify ]; then problem "$c_shown reads $c_now; the plan sets $c_want"; return 1; fi
  echo "iosched: changed: $c_shown: $c_now -> $c_want"
  LAST=changed
  [ "$MODE" != check ] || return 0
  keep "$c_kind" "$c_file" "$c_now" "$@" || { problem "cannot keep the value of $c_shown"; return 1; }
  put "$c_file" "$c_want" "$c_kind" || { problem "could not set $c_shown to $c_want"; return 1; }
  if [ "$c_kind" = scheduler ]; then SWITCHED="$SWITCHED ${c_file%/scheduler}"; fi
}
IOSCHED_JOURNAL_HEAD
} 2>/dev/null || { rm -f "$JOURNAL"; die "cannot write the undo journal $JOURNAL (is the disk full?)"; }
echo "iosched: undo journal: $JOURNAL"
ENTRIES=0
journal() {
  printf '%s\n' "$*" >> "$JOURNAL" || die "cannot write the undo journal $JOURNAL"
  ENTRIES=$((ENTRIES + 1))
}
remember() {
  r_kind=$1; shift
  if [ "$r_kind" = tunable ] && [ "$c_kind" = scheduler ]; then
    entry="restore_with_elevator $r_kind"
  else
    entry="restore_set $(q "$(identity "$1")") $(q "$c_want") $r_kind"
  fi
  while [ $# -ge 2 ]; do entry="$entry \"\$R\"$(q "${1#"$R"}") $(q "$2")"; shift 2; done
  journal "$entry"
}
journal_file() {
  wrote="$JOURNAL.wrote.$(basename "$1")"
  if [ -e "$R$1" ]; then
    cp -p "$R$1" "$JOURNAL.$(basename "$1")" || { rm -f "$JOURNAL.$(basename "$1")"; die "cannot save $1"; }
    journal "undo_file $(q "$1") $(q "$wrote") $(q "$JOURNAL.$(basename "$1")")"
  else
    journal "undo_file $(q "$1") $(q "$wrote") ''"
  fi
}
same_file() { [ -f "$R$1" ] && [ "$(cat "$R$1"; echo x)" = "$(printf '%s\n' "$2"; echo x)" ]; }
PERSISTED=0
persist_file() {
  content=$2
  if [ "${3:-}" = profile ]; then content=$(merged_profile "$R$1" "$2"); fi
  if same_file "$1" "$content"; then echo "iosched: ok: $1 as planned"; LAST=ok; return; fi
  journal_file "$1"
  write_file "$R$1" "$content"
  echo "iosched: changed: $1"
  LAST=changed PERSISTED=1
}

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
# Use the none elevator on vda (IOS105)
# expected to be none already (assumed, not read): checked, changed only if not
converge scheduler "$R"/sys/block/vda/queue/scheduler none || die 'Use the none elevator on vda: failed'
FOUND_1=$LAST

# persist: a file is written only where it differs and would change what the device gets at boot
if [ "${FOUND_1:-ok}" = changed ]; then
  persist_file /etc/udev/rules.d/90-iosched-vda.rules '# Written by iosched for one device; remove this file (and reload udev) to undo.
# udev applies rule files in name order: 90- comes after the rules of packages that set these files.
# vda: virtual disk, db workload
ACTION=="add|change", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="vda", ATTR{queue/scheduler}="none"'
fi

DONE=1
if [ "$PERSISTED" = 1 ] && [ -z "$R" ] && command -v udevadm >/dev/null 2>&1; then udevadm control --reload; fi
if [ "$ENTRIES" -eq 0 ] && [ -z "${IOSCHED_JOURNAL:-}" ]; then
  rm -f "$JOURNAL"
  echo "iosched: nothing to change: every value and file was already as planned"
else
  echo "iosched: applied; to undo: sh $JOURNAL"
fi
