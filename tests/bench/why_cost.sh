#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test) of what probe --why costs the measurement (issue
# 29): the probe on the last online CPU (SCHED_FIFO 95, 1 ms, the defaults)
# with the capture off and on, in rounds "off on on off" / "on off off on",
# one probe run per window, compared per window with the A/B's permutation
# test (tests/bench/abba_cmp: the difference of the windows' p99 and max,
# on − off, with its 95 % interval), and the events the kernel lost while
# tracing (must be 0 at the default interval). Never fails on timing.
# COST_AA=1 runs the A/A instead (the B windows without --why, "again"):
# how much the noise alone moves the same comparison.
#   env: COST_WINDOW_S (5), COST_ROUNDS (4), COST_CPU (the last online CPU),
#        COST_AA (0)
set -u
: "${TUNETOP:=./tunetop}"
b=${TT_BUILDDIR:-.}
win=${COST_WINDOW_S:-5}
rounds=${COST_ROUNDS:-4}
bc=on
[ "${COST_AA:-0}" = 1 ] && bc=again
cmp="$b/tests/bench/abba_cmp"
skip() {
	echo "why_cost: $*: skipped"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "needs root (tracefs instance, SCHED_FIFO)"
grep -q '^#define HAVE_TRACEFS 1' "$b/config.h" 2>/dev/null || skip "built without libtracefs"
command -v jq >/dev/null 2>&1 || skip "jq not installed"
[ -x "$cmp" ] || (cd "$b" && make -s tests/bench/abba_cmp) >/dev/null 2>&1
[ -x "$cmp" ] || skip "tests/bench/abba_cmp not built"
# a tracefs mount tunetop makes stays in a private mount namespace
if [ -z "${TT_WHY_NS:-}" ] && unshare -m --propagation private true 2>/dev/null; then
	TT_WHY_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
cpu=${COST_CPU:-$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-whycost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

window() { # window off|on: one line "COND P99 MAX LOST"
	flag=
	[ "$1" = on ] && flag=--why
	"$TUNETOP" probe --cpus "$cpu" -D "$win" --json $flag >"$tmp/w.json" 2>"$tmp/w.err" || {
		echo "why_cost: probe failed: $(head -1 "$tmp/w.err")" >&2
		return 1
	}
	jq -r --arg c "$1" '[$c, .cpus[0].p99_us, .cpus[0].max_us,
		(.why_capture.lost_events // 0)] | map(tostring) | join(" ")' "$tmp/w.json"
}

echo "probe on CPU $cpu, 1 ms, SCHED_FIFO 95: --why off vs $bc, $rounds rounds of 4 windows of $win s"
echo "cond p99_us max_us" >"$tmp/windows"
lost=0
r=0
while [ $r -lt "$rounds" ]; do
	if [ $((r % 2)) = 0 ]; then order="off $bc $bc off"; else order="$bc off off $bc"; fi
	for c in $order; do
		line=$(window "$c") || exit 0
		echo "  round $r: $line"
		set -- $line
		echo "$1 $2 $3" >>"$tmp/windows"
		lost=$((lost + $4))
	done
	r=$((r + 1))
done
"$cmp" off <"$tmp/windows"
echo "events lost while tracing (all windows): $lost"
