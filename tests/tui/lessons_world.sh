#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Lessons screen on a world (issue 35 point 4): with --demo=am5729-affinity
# lesson 5 runs on the world, not on this machine's kernel: t pins the
# tree's cyclictest thread through the knob engine, the measurements are
# the world's probe, and the verdict says "improved" of cyclictest's latency
# (the 95 % interval: tests/world/learn_worlds.sh); Enter restores the thread's affinity.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
export TUNETOP_WORLD_SEED=35

tui_start w 120 45 -- --demo=am5729-affinity
tui_wait w 'SIMULATED'; ok $? "world up"
droot=$(tui_screen w | sed -n 's/.*demo root \([^ ]*\).*/\1/p' | head -1)
[ -d "$droot" ]; ok $? "the world's root found from the header ($droot)"
st=$droot/proc/1203/task/1204/status
tui_keys w L
tui_wait w '5  Affinity, migrations and cache misses'; ok $? "L lists lesson 5"
tui_wait_not w "5  Affinity.*this machine's kernel" 2; ok $? "lesson 5 does not run on this kernel"
tui_keys w Down Down Down Down Enter
tui_wait w 'Lesson 5 of 7' ; ok $? "lesson 5 opened"
tui_keys w Enter
tui_wait w 'step 2/4 before: your turn' 20; ok $? "measured before"
tui_wait w 'thread/1204/affinity=1'; ok $? "the change: the tree's cyclictest thread pinned"
tui_keys w t
wait_file "$st" '^Cpus_allowed_list:[[:space:]]+1$'; ok $? "t: the tree's thread pinned"
tui_wait w 'step 3/4 after' 20; ok $? "measured after"
tui_wait w 'cyclictest latency mean \(probe, cyclictest\): [0-9.]+ us -> [0-9.]+ us: improved'; ok $? "improved, of cyclictest's latency"
tui_keys w Enter
wait_file "$st" '^Cpus_allowed_list:[[:space:]]+0-1$'; ok $? "Enter restored the thread's affinity"
done_testing
