#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# probe --why in rt-base-station names the RT thread that used up the RT
# runtime (issue 35, doc/teach.md "Why late in a world"). As lesson 4 does,
# the test makes the tree's pm_collector a runaway RT thread (`set
# thread/TID/policy=fifo:10`): the RT demand on the L2 CPU passes the
# 950000/1000000 budget and about 5 % of the wake-ups wait for the end of a
# throttled period (up to 50 ms). The world writes the throttling as a
# trace shows it (pm_collector switched out runnable for a SCHED_OTHER
# thread), so the attribution names pm_collector, RT throttled, with its
# fix thread/TID/policy=other; applied, no wake-up waits 1 ms or more any
# more (the model's longest wait without throttling is about 325 us).
# Without the runaway, no cause is RT throttled.
. "$TT_SRCDIR/tests/lib.sh"
WORLD=rt-base-station
. "$TT_SRCDIR/tests/world/common.sh"
# late FILE: the share of the histfile's wake-ups at 1 ms or more (its
# overflows: the histogram's range ends under 1 ms)
late() {
	awk '/^# Total:/ { n = $3 + 0 } /^# Histogram Overflows:/ { o = $4 + 0 }
		END { if (n) printf "%.4f\n", o / n }' "$1"
}
# throttled FILE: the causes of the probe's JSON that are RT throttled
throttled() { jq -r '[.why.causes[] | select(.reason == "RT throttled") | "\(.id) \(.name)"] | join(",")' "$1"; }

T probe -D 2 --why --json --histfile "$TMPD/h0" >"$TMPD/w0.json" 2>"$TMPD/w0.err"
is "$?" 0 "probe --why as delivered exits 0"
is "$(throttled "$TMPD/w0.json")" "" "as delivered, no cause is RT throttled"
is "$(late "$TMPD/h0")" 0.0000 "and no wake-up is 1 ms late"

# the runaway, as lesson 4 makes it: pm_collector of the tree at FIFO 10
tid=$(for d in "$W"/proc/*/task/*; do [ "$(cat "$d/comm")" = pm_collector ] && basename "$d"; done)
like "$tid" '^[0-9]+$' "the tree has pm_collector ($tid)"
T set "thread/$tid/policy=fifo:10" >"$TMPD/set1.out" 2>&1
is "$?" 0 "set thread/$tid/policy=fifo:10 exits 0"
T probe -D 3 --why --json --histfile "$TMPD/h1" >"$TMPD/w1.json" 2>"$TMPD/w1.err"
is "$?" 0 "probe --why with the runaway exits 0"
is "$(throttled "$TMPD/w1.json")" "$tid pm_collector" "the one RT-throttled cause is the runaway the test made"
is "$(jq -r '.why.causes[0].id' "$TMPD/w1.json")" "$tid" "it leads the causes"
is "$(jq -r '.why.causes[0].prio' "$TMPD/w1.json")" 89 "at its own priority (FIFO 10: kernel prio 89)"
fix=$(jq -r '.why.causes[0].fix' "$TMPD/w1.json")
is "$fix" "thread/$tid/policy=other" "its fix runs it SCHED_OTHER"
like "$(jq -r '.why.causes[0].fix_why' "$TMPD/w1.json")" "^pm_collector used up CPU [0-9]+'s RT runtime" \
	"and says it used up the RT runtime"
T probe -D 1 --why >"$TMPD/w1.txt" 2>&1
like "$(cat "$TMPD/w1.txt")" "pm_collector \\($tid, rt 10, RT throttled\\)" "the text names it too"
l1=$(late "$TMPD/h1")
ok "$(awk -v a="$l1" 'BEGIN { exit !(a != "" && a > 0.02) }'; echo $?)" \
	"with the runaway, more than 2 % of the wake-ups are 1 ms late or more ($l1)"

T set "$fix" >"$TMPD/set2.out" 2>&1
is "$?" 0 "set $fix exits 0"
T probe -D 3 --why --json --histfile "$TMPD/h2" >"$TMPD/w2.json" 2>"$TMPD/w2.err"
is "$?" 0 "probe --why after the fix exits 0"
is "$(throttled "$TMPD/w2.json")" "" "after the fix, no cause is RT throttled"
l2=$(late "$TMPD/h2")
ok "$(awk -v a="$l1" -v b="$l2" 'BEGIN { exit !(b != "" && b < 0.002 && b < a) }'; echo $?)" \
	"the share 1 ms late or more falls ($l1 -> $l2)"
done_testing
