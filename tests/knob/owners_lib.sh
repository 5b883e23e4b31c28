# SPDX-License-Identifier: GPL-2.0-or-later
# Owners as real processes on one journal (sourced by tests/knob/owners*.sh
# after tests/lib.sh and tests/knob/common.sh): exec owners that hold their
# changes until told to leave, and `set` (a manual owner: undo clears it).
export TUNETOP_VERIFY_MS=0
G=sys/devices/system/cpu/cpufreq

# enter_exec NAME ASSIGN...: `tunetop exec ASSIGN -- CMD` in the background,
# CMD waiting for $TMPD/go-NAME; pid in pid_NAME
enter_exec() {
	_n=$1
	shift
	rm -f "$TMPD/go-$_n"
	"$TUNETOP" --root "$root" --state-dir "$STATE" exec -q "$@" -- \
		sh -c 'while [ ! -e "$0" ]; do sleep 0.02; done' "$TMPD/go-$_n" 2>"$TMPD/err-$_n" &
	eval "pid_$_n=\$!"
}
# leave_exec NAME: CMD ends, exec restores its own changes and exits
leave_exec() {
	touch "$TMPD/go-$1"
	eval "wait \$pid_$1"
}
# enter_set NAME ASSIGN...: a manual change; its change id in id_NAME
enter_set() {
	_n=$1
	shift
	tt set --no-verify "$@" >/dev/null 2>"$TMPD/err-$_n"
	eval "id_$_n=$(awk -F'\t' '$1 == "W" && /\tkind=set\t/ { for (i = 2; i <= NF; i++) if ($i ~ /^txn=/) id = substr($i, 5) } END { print id }' "$STATE/journal")"
}
# leave_set NAME: its change undone
leave_set() { eval "tt undo \$id_$1" >/dev/null 2>&1; }
# wait_value REL VALUE: up to 10 s for a file of the root to hold VALUE
wait_value() {
	_i=0
	while [ "$(cat "$root/$1" 2>/dev/null)" != "$2" ] && [ "$_i" -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	[ "$(cat "$root/$1" 2>/dev/null)" = "$2" ]
}
# without WORD LIST...: LIST without WORD
without() {
	_w=$1
	shift
	_o=
	for _x in "$@"; do [ "$_x" = "$_w" ] || _o="$_o $_x"; done
	echo $_o
}
# last LIST...: its last word ("" for none)
last() {
	_l=
	for _x in "$@"; do _l=$_x; done
	echo "$_l"
}
