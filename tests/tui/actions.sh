#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live actions on a copied RK3588 fixture: a governor change, an idle-state
# toggle on all CPUs and a devfreq lock change the fixture files and show
# the changed marker; 'o' shows the original value; 'u' reverts the last
# one; the Journal lists them; quitting (restore, the default) puts every
# file back (diff -r against the fixture is empty).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
cpu=$root/sys/devices/system/cpu
dmc=$root/sys/devices/platform/dmc/devfreq/dmc
tui_start a 120 40 -- --root "$root" --state-dir "$TMPD/st"
tui_wait a 'policy4 +2x A76 +gov interactive'; ok $? "cores screen up"

# governor: rows are policy0, cpu0..3, policy4 -> five Downs
tui_keys a Down Down Down Down Down g
tui_wait a 'Governor for policy4'; ok $? "g opens the governor menu for policy4"
tui_wait a 'schedutil'; ok $? "menu lists the available governors"
# interactive conservative ondemand userspace powersave performance schedutil
tui_keys a Down Down Down Down Down Enter
wait_file "$cpu/cpufreq/policy4/scaling_governor" '^performance$'; ok $? "policy4 scaling_governor is now performance"
is "$(cat "$cpu/cpufreq/policy0/scaling_governor")" interactive "policy0 untouched"
tui_wait a 'gov performance'; ok $? "screen shows the new governor"
tui_wait a 'changes 1'; ok $? "header counts one change"
tmx capture-pane -e -p -t a | grep -q '43mperformance'
ok $? "the changed value has the state.changed colour"
tui_keys a o
tui_wait a 'gov performance \(was interactive\)'; ok $? "o shows the original value"
tui_keys a o
tui_keys a e
tui_wait a 'Explain'; ok $? "e offers what to explain"
tui_keys a Enter
tui_wait a 'Changed by this session: interactive -> performance'; ok $? "explain starts with the original value"
tui_wait a 'policy4/scaling_governor'; ok $? "explain names the file on this root"
tui_keys a Escape
tui_wait_not a 'Explain cpufreq'; ok $? "Esc closes it"

# idle state on all CPUs: the menu has, per state, "this CPU" then "all CPUs"
tui_keys a Down i
tui_wait a 'Disable cpu-sleep \(220us\) on all CPUs'; ok $? "i offers cpu-sleep for all CPUs"
tui_keys a Down Down Down Enter
n=0
for c in 0 1 2 3 4 5 6 7; do
	wait_file "$cpu/cpu$c/cpuidle/state1/disable" '^1$' 5 && n=$((n + 1))
done
is "$n" 8 "cpu-sleep disabled on all 8 CPUs"
is "$(cat "$cpu/cpu3/cpuidle/state0/disable")" 0 "WFI untouched"
tui_wait a '^ +5 A76 .* -x '; ok $? "disable marker x on the CPU rows"
tui_wait a 'changes 9'; ok $? "header counts 9 changed knobs"

# devfreq lock: Clocks screen, dmc is the first row
tui_keys a 2
tui_wait a 'dmc +ddr +dmc_ondemand'; ok $? "clocks screen"
tui_keys a f
tui_wait a 'Lock at one frequency'; ok $? "f opens the frequency menu"
tui_keys a Enter
tui_wait a '1968 MHz'; ok $? "OPP list of dmc"
tui_keys a Down Down Enter
wait_file "$dmc/max_freq" '^1968000000$'; ok $? "dmc max_freq = 1968 MHz"
wait_file "$dmc/min_freq" '^1968000000$'; ok $? "dmc min_freq = 1968 MHz (locked)"
tui_wait a 'dmc +ddr +dmc_ondemand +534 +1968 +1968'; ok $? "clocks screen shows the lock"
tmx capture-pane -e -p -t a | grep -q '43m *1968'
ok $? "the locked limits have the changed colour"

# journal lists the three transactions
tui_keys a 4
tui_wait a 'devfreq/dmc/'; ok $? "journal lists the devfreq change"
tui_wait a 'cpufreq/policy4/governor +interactive -> perf'; ok $? "journal lists the governor change"
tui_wait a 'cpuidle/cpu0/state1/disable +0 -> 1'; ok $? "journal lists the idle change"

# u reverts the last change (the lock) only
tui_keys a u
wait_file "$dmc/min_freq" '^534000000$'; ok $? "u restored dmc min_freq"
wait_file "$dmc/max_freq" '^2400000000$'; ok $? "u restored dmc max_freq"
is "$(cat "$cpu/cpufreq/policy4/scaling_governor")" performance "the governor change is still in place"
tui_wait a 'Undone'; ok $? "status line says what was undone"

# quit: the dialog offers restore (default) / keep / cancel
tui_keys a q
tui_wait a 'Restore and quit'; ok $? "quit dialog"
tui_keys a Enter
tui_wait_exit a; ok $? "tunetop exited"
is "$(tui_status a)" 0 "exit status 0"
like "$(cat "$TMPD/a.err")" 'restored' "says it restored"
same_tree "$root" "$FIXTURES/rk3588"; ok $? "every file is back (diff -r empty)"

# x86 (intel_pstate, one policy per CPU): alike policies share one line, and
# an action on it covers all of them in one transaction; a typed frequency
# for drivers without a frequency table
if [ -d "$FIXTURES/intel" ]; then
	ir=$(copy_fixture intel)
	icpu=$ir/sys/devices/system/cpu/cpufreq
	tui_start x 120 40 -- --root "$ir" --state-dir "$TMPD/st-intel"
	tui_wait x 'policy0-7 +8x P-core +gov powersave'; ok $? "intel: P-core policies on one line"
	tui_wait x 'policy8-15 +8x E-core'; ok $? "intel: E-core policies on one line"
	tui_keys x g
	tui_wait x 'Governor for policy0-7'; ok $? "intel: governor menu for the run"
	tui_keys x Home Enter # performance
	n=0
	for p in 0 1 2 3 4 5 6 7; do
		wait_file "$icpu/policy$p/scaling_governor" '^performance$' 5 && n=$((n + 1))
	done
	is "$n" 8 "intel: all 8 P-core policies set"
	is "$(cat "$icpu/policy8/scaling_governor")" powersave "intel: E-cores untouched"
	tui_keys x f
	tui_wait x 'Frequency of policy0-7'
	tui_keys x Down Down Enter # set the maximum
	tui_wait x 'MHz \(hardware range 400-5000\)'; ok $? "intel: no frequency table: typed value"
	tui_keys x BSpace BSpace BSpace BSpace 3 0 0 0 Enter
	wait_file "$icpu/policy3/scaling_max_freq" '^3000000$'; ok $? "intel: max 3000 MHz written"
	tui_keys x u
	wait_file "$icpu/policy3/scaling_max_freq" '^5000000$'; ok $? "intel: u undid the limit"
	tui_keys x q
	tui_wait x 'Restore and quit'
	tui_keys x Enter
	tui_wait_exit x; ok $? "intel: quit"
	same_tree "$ir" "$FIXTURES/intel"; ok $? "intel: every file is back"
fi

done_testing
