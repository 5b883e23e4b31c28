#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Lessons screen on rt-base-station (issue 35 point 4): lesson 4 first
# makes the world's state it is about (the tree's pm_collector a runaway
# RT thread, FIFO 10: stat's policy field 41 = 1), then t changes the
# throttling window to the note's 90000/100000 us, and the verdict says
# "improved" of the L2 wake-up latency; Enter restores the window, leaving
# the lesson restores pm_collector, each byte for byte.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
export TUNETOP_WORLD_SEED=35

tui_start w 120 45 -- --demo=rt-base-station
tui_wait w 'SIMULATED'; ok $? "world up"
droot=$(tui_screen w | sed -n 's/.*demo root \([^ ]*\).*/\1/p' | head -1)
[ -d "$droot" ]; ok $? "the world's root found from the header ($droot)"
pm=$droot/proc/1610/stat
rt=$droot/proc/sys/kernel/sched_rt_runtime_us
cp "$pm" "$TMPD/pm.before"
cp "$rt" "$TMPD/rt.before"
tui_keys w L
tui_wait w '4  RT throttling'; ok $? "L lists lesson 4"
tui_keys w Down Down Down Enter
tui_wait w 'Lesson 4 of 7'; ok $? "lesson 4 opened"
tui_keys w Enter
tui_wait w 'step 2/4 before: your turn' 30; ok $? "measured before"
is "$(cut -d' ' -f40,41 "$pm")" "10 1" "before measuring: pm_collector made a runaway RT thread (FIFO 10)"
tui_keys w t
wait_file "$rt" '^90000$'; ok $? "t: the note's window written"
tui_wait w 'step 3/4 after' 30; ok $? "measured after"
tui_wait w 'L2 wake-up latency mean \(probe, l2_tti\): [0-9.]+ us -> [0-9.]+ us: improved'
ok $? "improved, of the L2 wake-up latency"
tui_keys w Enter
wait_file "$rt" '^950000$'; ok $? "Enter restored the window"
cmp -s "$rt" "$TMPD/rt.before"; ok $? "the window byte for byte"
tui_keys w Escape
for _ in $(seq 1 100); do cmp -s "$pm" "$TMPD/pm.before" && break; sleep 0.1; done
cmp -s "$pm" "$TMPD/pm.before"; ok $? "leaving the lesson restored pm_collector byte for byte"
done_testing
