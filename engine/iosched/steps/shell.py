"""The one shell library that applies, checks, verifies and restores steps: the sh script, its undo journal
and the Ansible playbook all carry this text, so a value is read, compared, changed and kept the same way
wherever a plan runs.

Every step is one call, ``converge KIND FILE VALUE [COUPLED_FILE]...`` (its arguments come from
:meth:`iosched.steps.StepKind.converge_args`). It reads the file as :meth:`~iosched.steps.StepKind.read`
does, and then reports one line (sets ``LAST`` to ``ok`` or ``changed``): ``iosched: ok: FILE is VALUE`` when it
is already there, ``changed: FILE: OLD -> VALUE`` when it changed it (in ``check`` mode: would change it), or, on
stderr, ``failed: ...`` (and returns 1). Before it changes a value it calls ``remember KIND FILE OLD [FILE
OLD]...`` with what it really found: for a scheduler also each tunable of the elevator it replaces (switching
resets them), for a sysctl the settings the kernel zeroes with it (``vm.dirty_bytes`` when ``vm.dirty_ratio`` is
written: mm/page-writeback.c, dirty_ratio_handler). ``restore_values KIND FILE VALUE [FILE VALUE]...`` writes such
a group back: of a coupled group only the values that are not 0 (the kernel zeroes the others, and refuses a 0
``vm.dirty_bytes``).

While ``converge`` runs, ``c_kind`` and ``c_want`` name the kind and the value it sets (``remember`` reads them:
a tunable remembered while a scheduler is set belongs to the elevator being replaced). ``identity FILE`` prints
the identity of the block device a ``/sys/block/DEV/...`` file belongs to (its WWN, serial number or, for a loop
device, its backing file; empty for a host-wide value, or a device that shows none), so that undo restores a
value only on the device it was taken from.

The caller sets ``SYS`` (the prefix of /sys and /proc, usually empty) and ``MODE`` (``apply``, ``check`` or
``verify``) and defines ``remember`` and ``problem TEXT``. Values reach the library only as arguments, never
in its text.
"""

from __future__ import annotations

from iosched.records import runtime

LIBRARY = r"""# iosched step library: read the value, change only what differs, keep what was there.
value_of() {
  value=$(cat "$1") || return 1
  value=${value#"${value%%[![:space:]]*}"}
  value=${value%"${value##*[![:space:]]}"}
  if [ "$2" = scheduler ]; then
    case $value in *\[*\]*) value=${value#*\[}; value=${value%%\]*} ;; esac
  fi
  printf '%s' "$value"
}
@DECIDED@offered() {
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
""".replace("@DECIDED@", runtime.library())
