#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Cores screen reads at every tick only the idle states of the CPUs it
# shows (sampler_focus); a change of ours is followed by a tick that reads
# every CPU, so that CPUs off screen are not left stale. Here a 14-line pane
# shows CPUs 0-4 of the RK3588 and the refresh is 60 s, so that the only
# samples after the start are the ones the action takes: after disabling
# cpu-sleep on all CPUs, CPU 7 (off screen) must show it at once when
# scrolled to.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
cpu=$root/sys/devices/system/cpu
tui_start f 100 14 -- --root "$root" --state-dir "$TMPD/st" -d 600
tui_wait f 'policy0 +4x A55'; ok $? "cores screen up"
tui_screen f >"$TMPD/before"
grep -q '^ *7 A76' "$TMPD/before"
ok $((!$?)) "CPU 7 is off screen in a 14-line pane"
# (the deadlines below are generous for a loaded machine and still far
# below the 600 s refresh: a CPU left stale would wait for that)
# the second sample comes 0.3 s after the start; wait for its rates
sleep 1
tui_keys f Down i
tui_wait f 'Disable cpu-sleep \(220us\) on all CPUs'; ok $? "i offers cpu-sleep for all CPUs"
tui_keys f Down Down Down Enter
n=0
for c in 0 1 2 3 4 5 6 7; do
	wait_file "$cpu/cpu$c/cpuidle/state1/disable" '^1$' 20 && n=$((n + 1))
done
is "$n" 8 "cpu-sleep disabled on all 8 CPUs"
tui_wait f '^ +1 A55 .* -x '; ok $? "disable marker on a CPU shown"
tui_keys f End
tui_wait f '^ +7 A76 ' 20; ok $? "scrolled to CPU 7"
tui_wait f '^ +7 A76 .* -x ' 20; ok $? "CPU 7, off screen at the change, shows it without waiting for a refresh"
tui_keys f q
tui_wait f 'Restore' 20 && tui_keys f Enter
tui_wait_exit f 30; ok $? "quit"
n=0
for c in 0 1 2 3 4 5 6 7; do
	[ "$(cat "$cpu/cpu$c/cpuidle/state1/disable")" = 0 ] && n=$((n + 1))
done
is "$n" 8 "restored on all 8 CPUs on quit"
done_testing
