#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Software counters against perf stat (Debian linux-perf) on the same
# workload: tests/live/pingpong with the same rounds, pinned to CPU 0,
# counted by tunetop's per-thread counters (test_perf_live --count) and by
# `perf stat --no-inherit` (the main process only, like ours). Context
# switches and page faults must agree within 5%; migrations are printed.
. "$TT_SRCDIR/tests/lib.sh"

PP="$TT_BUILDDIR/tests/live/pingpong"
COUNT="$TT_BUILDDIR/tests/unit/test_perf_live"
ROUNDS=5000
[ -x "$PP" ] && [ -x "$COUNT" ] || skip_all "pingpong/test_perf_live not built (make check builds them)"

# Debian's /usr/bin/perf may be a wrapper that wants perf_<kernel version>;
# take the first one that runs.
PERF=
for p in $(command -v perf 2>/dev/null) /usr/bin/perf_* /usr/lib/linux-tools*/perf /usr/lib/linux-tools/*/perf; do
	[ -x "$p" ] || continue
	if "$p" stat -e task-clock -x, -o /dev/null -- true >/dev/null 2>&1; then
		PERF=$p
		break
	fi
done
[ -n "$PERF" ] || skip_all "no working perf binary (install linux-perf)"
diag "perf: $PERF ($("$PERF" --version 2>/dev/null))"

# field NAME FILE -> the count perf stat -x, wrote for event NAME
field() { awk -F, -v ev="$1" '$3 == ev || $3 ~ "^"ev":" { print $1 }' "$2"; }
# within5 A B -> status 0 when |A-B| <= 5% of max(A,B)
within5() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; d = a - b; if (d < 0) d = -d; exit !(d <= 0.05 * m) }'; }

"$COUNT" --count "$PP" -c 0 -m 8 $ROUNDS >"$TMPD/ours" 2>"$TMPD/ours.err"
ok $? "tunetop counters on pingpong $ROUNDS"
"$PERF" stat --no-inherit -x, -e context-switches,cpu-migrations,page-faults -o "$TMPD/perf" -- \
	"$PP" -c 0 -m 8 $ROUNDS >/dev/null 2>"$TMPD/perf.err"
ok $? "perf stat on pingpong $ROUNDS"

for ev in context-switches page-faults cpu-migrations; do
	ours=$(awk -v ev=$ev '$1 == ev { print $2 }' "$TMPD/ours")
	theirs=$(field $ev "$TMPD/perf")
	diag "$ev: tunetop $ours, perf stat $theirs"
	case $ev in
	cpu-migrations)
		# Pinned: only the moves before the affinity takes hold (ours
		# counts from before exec; a loaded machine moves a new task a
		# few times), never one per round as an unpinned ping-pong does.
		like "$ours" '^[0-9]+$' "$ev counted by tunetop"
		ok $([ "${ours:-999}" -le 10 ] && [ "${theirs:-999}" -le 10 ] && echo 0 || echo 1) \
			"$ev: pinned workload, both near 0 ($ours vs $theirs)"
		;;
	*)
		if [ -z "$ours" ] || [ -z "$theirs" ] || [ "$ours" = n/a ]; then
			ok 1 "$ev: both counted ($ours vs $theirs)"
		else
			within5 "$ours" "$theirs"
			ok $? "$ev: tunetop $ours vs perf stat $theirs within 5%"
		fi
		;;
	esac
done
ctx=$(awk '$1 == "context-switches" { print $2 }' "$TMPD/ours")
within5 "${ctx:-0}" $ROUNDS
ok $? "context switches: one per round ($ctx vs $ROUNDS)"
done_testing
