#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# TUI start-up on a tree with FIFOs and a socket where files belong (issue
# 32, item 2): the screen comes up (it used to wait forever in the first
# sample's open of a FIFO), the values behind them are n/a, and q quits.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
. "$TT_SRCDIR/tests/bench/special.sh"

root=$(copy_fixture rk3588)
P="$root/sys/devices/system/cpu/cpufreq/policy4"
rm -f "$P/scaling_cur_freq" && mkfifo "$P/scaling_cur_freq"
rm -f "$root/proc/interrupts" && mkfifo "$root/proc/interrupts"
mk_socket "$root/proc/softirqs"
z=$(cd "$root/sys/class/thermal/thermal_zone0" && pwd -P)
rm -f "$z/temp" && mkfifo "$z/temp"
tui_start s 120 40 -- --root "$root" --state-dir "$TMPD/st" -d 2

tui_wait s 'policy4 +2x A76'; ok $? "cores: the screen comes up, policy4 line there"
tui_wait s 'policy0 +4x A55'; ok $? "cores: policy0 line (its files are regular)"
tui_keys s q
tui_wait_exit s; ok $? "quits"
[ -p "$P/scaling_cur_freq" ]; ok $? "the FIFO is still a FIFO"
done_testing
