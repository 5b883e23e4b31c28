#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# probe --why in the world rt-base-station names the tree's own threads
# (issue 35, doc/teach.md "Why late in a world"): the management threads
# ahead of l2_tti are oam_agent's (tids 1420-1422 under the tree's proc/,
# FIFO 50 like l2_tti, whose priority the probe takes in the events), so a
# task cause names a tid of the tree with its comm, its fix is a thread knob
# of that tid, and `set` of the fix lowers that thread below l2_tti
# (tests/world/why_fix.sh: after it, that thread is named no more and the
# share of late wake-ups falls).
. "$TT_SRCDIR/tests/lib.sh"
WORLD=rt-base-station
. "$TT_SRCDIR/tests/world/common.sh"
# late FILE: the share of the histfile's samples at 100 us or more
late() { awk '!/^#/ && NF == 2 { n += $2; if ($1 + 0 >= 100) l += $2 } END { if (n) printf "%.4f\n", l / n }' "$1"; }
# comm TID: the comm of thread TID in the tree's proc/ ("" when none)
comm() { for d in "$W"/proc/*/task/"$1"; do [ -f "$d/comm" ] && cat "$d/comm"; done; }

T probe -D 2 --why --json --histfile "$TMPD/h1" >"$TMPD/w1.json" 2>"$TMPD/w1.err"
is "$?" 0 "probe --why in rt-base-station exits 0"
# which single cause is first moves with the simulated time the test's
# commands take (the Ethernet IRQ, or one management thread, by a few
# hundred us of ~5 000 late): the tasks ahead of l2_tti together lead
j() { jq -r "$1" "$TMPD/w1.json"; }
tasks=$(j '[.why.causes[] | select(.kind == "task") | .total_us] | add // 0')
other=$(j '[.why.causes[] | select(.kind != "task") | .total_us] | max // 0')
ok "$(less "$other" "$tasks"; echo $?)" \
	"the tree's threads ahead of l2_tti lead the causes ($tasks us late in all; the largest other cause $other us)"
# the largest task cause
tid=$(j '[.why.causes[] | select(.kind == "task")][0].id')
name=$(j '[.why.causes[] | select(.kind == "task")][0].name')
fix=$(j '[.why.causes[] | select(.kind == "task")][0].fix')
is "$(comm "$tid")" "$name" "its largest names thread $tid of the tree's proc/ by its comm ($name)"
like "$name" "^oam_(agent|snmp|log)$" "a management thread"
bad=""
for t in $(jq -r '.why.causes[] | select(.kind == "task") | .id' "$TMPD/w1.json"); do
	[ -n "$(comm "$t")" ] || bad="$bad $t"
done
is "$bad" "" "every task cause is a thread of the tree"
is "$fix" "thread/$tid/policy=fifo:49" "its fix runs it below l2_tti (FIFO 50)"
is "$(jq -r '[.why.causes[] | select(.name == "mgmt" or .name == "cfs thread" or (.id != null and .id >= 36000 and .id < 36100))] | length' "$TMPD/w1.json")" 0 \
	"no model-internal thread is named"

l1=$(late "$TMPD/h1")
ok "$(awk -v a="$l1" 'BEGIN { exit !(a != "" && a > 0.14) }'; echo $?)" \
	"with the three of them ahead, more than 14 % of the wake-ups are at 100 us or more ($l1; tests/world/why_fix.sh: after the fix, under 13.5 %)"
T set "$fix" >"$TMPD/set.out" 2>&1
is "$?" 0 "set $fix exits 0"
is "$(cut -d' ' -f40,41 "$W"/proc/*/task/"$tid"/stat)" "49 1" "the tree's thread $tid is at FIFO 49"
done_testing
