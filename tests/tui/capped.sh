#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Thermal capping as text on the TUI (issue 6): with the GPU's devfreq
# cooling device and policy4's cpufreq cooling device at cur_state 2, the
# Clocks row of fb000000.gpu and the Cores line of policy4 say CAPPED; back
# at 0 the tag goes away. Copied RK3588 fixture.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
cool="$root/sys/class/thermal"
tui_start s 120 40 -- --root "$root" --state-dir "$TMPD/st" -d 2

tui_wait s 'policy4 +2x A76'; ok $? "cores: policy4 line"
tui_screen s | grep -q CAPPED
ok $((!$?)) "cores: nothing CAPPED at cur_state 0"

echo 2 >"$cool/cooling_device1/cur_state"
tui_wait s 'policy4 +2x A76 .*CAPPED'; ok $? "cores: policy4 line says CAPPED at cur_state 2"
tui_screen s | grep 'policy0 ' | grep -q CAPPED
ok $((!$?)) "cores: policy0 is not CAPPED"
echo 0 >"$cool/cooling_device1/cur_state"
tui_wait_not s 'CAPPED'; ok $? "cores: CAPPED goes away at cur_state 0"

tui_keys s 2
tui_wait s 'fb000000\.gpu'; ok $? "clocks: the GPU row"
tui_screen s | grep -q CAPPED
ok $((!$?)) "clocks: nothing CAPPED at cur_state 0"
echo 2 >"$cool/cooling_device3/cur_state"
tui_wait s 'fb000000\.gpu .*CAPPED'; ok $? "clocks: the GPU row says CAPPED at cur_state 2"
tui_screen s | grep 'fdab0000\.npu' | grep -q CAPPED
ok $((!$?)) "clocks: the NPU row is not CAPPED"
echo 0 >"$cool/cooling_device3/cur_state"
tui_wait_not s 'CAPPED'; ok $? "clocks: CAPPED goes away at cur_state 0"

tui_keys s q
tui_wait_exit s; ok $? "quits"
done_testing
