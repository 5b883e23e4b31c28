#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Lessons screen on the simulated RK3588 (--demo): L lists the five
# lessons of `tunetop learn`; lesson 1 steps through explain -> measure ->
# the learner's toggle (t, through the knob engine: the demo's governor
# files change, the header counts the changes) -> measure again (policy4 at
# its top OPP) -> what changed and why -> restore (files back). Esc leaves
# a lesson and undoes its change. On a board without the interface (a
# fixture without cpufreq) a lesson runs on a simulated board of its own.
# Where the board does not obey the change, the lesson says so and draws no
# conclusion.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

tui_start l 120 45 -- --demo
tui_wait l 'SIMULATED RK3588'; ok $? "demo up"
droot=$(tui_screen l | sed -n 's/.*demo root \([^ ]*\).*/\1/p' | head -1)
[ -d "$droot" ]; ok $? "demo root found from the header ($droot)"
gov=$droot/sys/devices/system/cpu/cpufreq/policy4/scaling_governor

tui_keys l L
tui_wait l 'Lessons: explain -> you change one knob'; ok $? "L opens the Lessons screen"
for t in "Governor collapse" "Idle-state A/B with the probe" "DDR and NPU clocks" "RT throttling" \
	"Affinity, migrations and cache misses"; do
	tui_wait l "$t"; ok $? "lists: $t"
done
tui_wait l '1  Governor collapse +the simulated RK3588 of this demo'; ok $? "runs on the demo's board"
tui_wait l "5  Affinity.*this machine's kernel"; ok $? "lesson 5 on this kernel"

tui_keys l Enter
tui_wait l 'Lesson 1 of 7: Governor collapse +\(step 1/4 what is going on\)'; ok $? "Enter: step 1 explains"
tui_wait l 'cpufreq/\*/governor - CPU frequency governor'; ok $? "with its explain entries"
tui_wait l 'Enter: measure the board as it is now'; ok $? "says what Enter does"
tui_keys l Enter
tui_wait l 'step 2/4 before: your turn' 15; ok $? "Enter: measured before"
tui_wait l 'policy4 clock +[0-9.]+ MHz'; ok $? "the before numbers"
tui_wait l 'press t to make this change through the knob engine'; ok $? "tells which key"
tui_wait l 'cpufreq/\*/governor=performance'; ok $? "and which knob"
tui_wait l 'the writes, as shell lines:'; ok $? "the writes it will make"
tui_wait l 'echo performance > [^ ]*/root/sys/devices/system/cpu'; ok $? "as shell lines (the engine's dry run)"
is "$(cat "$gov")" interactive "nothing changed yet"
tui_keys l t
wait_file "$gov" '^performance$'; ok $? "t: the change went through the engine (policy4 performance)"
tui_wait l 'step 3/4 after: what changed and why' 15; ok $? "measured after"
tui_wait l 'cpufreq/policy4/governor: interactive -> performance'; ok $? "what the engine did"
tui_wait l 'policy4 clock +[0-9.]+ MHz +2256\.0 MHz'; ok $? "policy4 at its top OPP after"
tui_wait l 'policy4 clock: 408\.0 MHz -> 2256\.0 MHz: improved\.'; ok $? "what changed, from the numbers"
tui_wait l 'Overall: improved'; ok $? "the verdict"
tui_wait l 'changes 3 '; ok $? "header counts the lesson's changes"
tui_keys l Enter
wait_file "$gov" '^interactive$'; ok $? "Enter restored the governor"
tui_wait l 'step 4/4 restored'; ok $? "step 4: restored"
tui_wait l 'cpufreq/policy4/governor: performance -> interactive'; ok $? "says what it restored"
tui_wait l 'changes 0 '; ok $? "no change left"

# the next lesson, left half-way: Esc undoes its change
tui_keys l Enter
tui_wait l 'Lesson 2 of 7'; ok $? "Enter: the next lesson"
tui_keys l Escape
tui_wait l 'Lessons: explain -> you change one knob'; ok $? "Esc: back to the list"
tui_keys l Home Down Down Enter Enter
tui_wait l 'Lesson 3 of 7: DDR and NPU clocks .*step 2/4' 15; ok $? "lesson 3 measured"
tui_keys l t
wait_file "$droot/sys/devices/platform/dmc/devfreq/dmc/governor" '^performance$'; ok $? "lesson 3: dmc on performance"
tui_wait l 'step 3/4' 15
tui_keys l Escape
wait_file "$droot/sys/devices/platform/dmc/devfreq/dmc/governor" '^dmc_ondemand$'; ok $? "Esc undid lesson 3's change"
tui_wait l 'changes 0 '; ok $? "nothing left changed"
tui_keys l q
tui_wait_exit l; ok $? "quits"
is "$(tui_status l)" 0 "exit status 0"

# a board without cpufreq: lesson 1 on a simulated board of its own
r=$(copy_fixture rk3588)
rm -rf "$r/sys/devices/system/cpu/cpufreq" "$r"/sys/devices/system/cpu/cpu[0-9]*/cpufreq
tui_start n 120 45 -- --root "$r" --state-dir "$TMPD/st-n" --screen lessons
tui_wait n '1  Governor collapse +a simulated RK3588 of its own'; ok $? "no cpufreq: a simulated board of its own"
tui_keys n Enter
tui_wait n 'Runs on a simulated RK3588 of its own \(this board: no cpufreq policy'; ok $? "it says what is missing"
tui_keys n Enter
tui_wait n 'step 2/4' 15
tui_keys n t
tui_wait n 'step 3/4' 15; ok $? "the lesson runs there"
tui_wait n 'policy4 clock +[0-9.]+ MHz +2256\.0 MHz'; ok $? "and measures it"
tui_wait n 'changes 0 '; ok $? "the shown board is not touched"
tui_keys n Escape q
tui_wait_exit n; ok $? "quits"

# a board that does not obey (the demo's simulated effect absent: the
# disabled cpu-sleep is still entered): lesson 2 says so, with the counter,
# and draws no conclusion (issue 21)
tui_start x 120 60 TUNETOP_SIM_EFFECT=absent -- --demo --screen lessons
tui_wait x '2  Idle-state A/B with the probe'; ok $? "absent effect: the demo's lessons"
tui_keys x Down Enter
tui_wait x 'Lesson 2 of 7'; ok $? "lesson 2"
tui_keys x Enter
tui_wait x 'step 2/4' 15; ok $? "measured before"
tui_keys x t
tui_wait x 'step 3/4' 20; ok $? "measured after"
tui_wait x 'warning: cpuidle/cpu[0-9]+/state1/disable=1 is not in effect: cpu-sleep'
ok $? "the change not in effect is said, with the counter"
tui_wait x 'No conclusion: the change was not in effect'; ok $? "and no conclusion is drawn"
tui_screen x | grep -q 'Overall:'
ok $((!$?)) "no verdict"
tui_keys x Escape q
tui_wait_exit x; ok $? "quits"

done_testing
