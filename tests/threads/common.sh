# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup for the thread tests (sourced after tests/lib.sh): the
# multi-threaded helper this test starts (the only process the live tests
# touch) and small readers around taskset, chrt and ps.
HELPER="$TT_BUILDDIR/tests/live/threads_helper"
STATE="$TMPD/state"
_helpers=
threads_cleanup() {
	for _p in $_helpers; do kill "$_p" 2>/dev/null; done
	tap_cleanup
}
trap 'threads_cleanup' EXIT

# start_helper OUTFILE ARGS... -> $started = the helper's pid
start_helper() {
	_out=$1
	shift
	"$HELPER" "$@" >"$_out" 2>"$_out.err" &
	started=$!
	_helpers="$_helpers $started"
	_i=0
	while ! grep -q '^ready' "$_out" 2>/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 1000 ]; then
			echo "# helper did not start: $(cat "$_out.err")"
			return 1
		fi
		sleep 0.01
	done
}
tid_of() { awk -v n="$2" '$1 == "tid" && $2 == n { print $3 }' "$1"; }
# live tunetop with the test's state dir (thread knobs act on the live kernel)
ttl() { "$TUNETOP" --state-dir "$STATE" "$@"; }
# "0-2,5" / "0,1,2,5" -> "0 1 2 5"
expand_list() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- 'NF == 2 { for (i = $1; i <= $2; i++) printf "%d ", i; next } NF == 1 && $1 != "" { printf "%d ", $1 }'
}
aff() { expand_list "$(taskset -cp "$1" 2>/dev/null | sed 's/.*: *//')"; }
pol() { chrt -p "$1" 2>/dev/null | sed -n 's/.*scheduling policy: *//p'; }
prio() { chrt -p "$1" 2>/dev/null | sed -n 's/.*scheduling priority: *//p'; }
ni() { ps -L -o tid=,ni= -p "$2" | awk -v t="$1" '$1 == t { print $2 }'; }
