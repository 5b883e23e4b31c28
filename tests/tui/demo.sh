#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --demo: the simulated RK3588 board. Every screen says SIMULATED RK3588;
# the simulator reacts to knob writes (governor -> frequency, disabled idle
# state stops accumulating time, devfreq governor -> DDR clock, RT runtime
# -> throttling, PM QoS lease); the temporary root is removed on exit.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

tui_start d 200 50 -- --demo -d 5
tui_wait d 'SIMULATED RK3588'; ok $? "banner"
demo=$(tui_screen d | sed -n 's/.*demo root \(\/[^ ]*\).*/\1/p' | head -1)
test -n "$demo" && test -d "$demo/sys/devices/system/cpu"
ok $? "the demo root exists ($demo)"
case "$demo" in "$FIXTURES"*) ok 1 "the demo runs on a copy" ;; *) ok 0 "the demo runs on a copy" ;; esac
for k in 1 2 3 4 5 6; do
	tui_keys d "$k"
	tui_wait d 'SIMULATED RK3588' 15; ok $? "screen $k says SIMULATED RK3588"
done
tui_keys d 1
tui_wait d '\[\|+ *[0-9]+\.[0-9]%\]' 10; ok $? "utilisation moves"
tui_wait d 'policy[46] .*cur (1[0-9]{3}|2[0-9]{3}) ' 20; ok $? "a big cluster scales up under load"

# governor performance on policy0 -> its maximum, 1800 MHz
tui_keys d Home g
tui_wait d 'Governor for policy0'
tui_keys d Down Down Down Down Down Enter
tui_wait d 'policy0 .*gov performance .*cur 1800 ' 10; ok $? "performance: policy0 runs at 1800 MHz"
is "$(cat "$demo/sys/devices/system/cpu/cpufreq/policy0/scaling_governor")" performance \
	"the knob engine wrote the demo root"
# powersave -> 408
tui_keys d g
tui_wait d 'Governor for policy0'
tui_keys d Home Down Down Down Down Enter # the menu opens on the current one
tui_wait d 'policy0 .*gov powersave .*cur 408 ' 10; ok $? "powersave: policy0 runs at 408 MHz"

# cpu-sleep off on all CPUs: its time stops, WFI takes over
tui_keys d Down i
tui_wait d 'Disable cpu-sleep'
tui_keys d Down Down Down Enter
wait_file "$demo/sys/devices/system/cpu/cpu5/cpuidle/state1/disable" '^1$'; ok $? "cpu-sleep disabled"
tui_wait d '^ +5 A76 .* -x ' 15; ok $? "marker shows"
t1=$(cat "$demo/sys/devices/system/cpu/cpu5/cpuidle/state1/time")
w1=$(cat "$demo/sys/devices/system/cpu/cpu5/cpuidle/state0/time")
# until the simulator has stepped (WFI's time moved; 20 s at most on a
# loaded machine): the disabled state's time stayed where it was
i=0
while w2=$(cat "$demo/sys/devices/system/cpu/cpu5/cpuidle/state0/time") &&
	[ "$w2" = "$w1" ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
t2=$(cat "$demo/sys/devices/system/cpu/cpu5/cpuidle/state1/time")
is "$t2" "$t1" "a disabled state accumulates no time"
test "$w2" -gt "$w1"; ok $? "WFI keeps accumulating"

# devfreq: dmc performance -> DDR 2400 in the header
tui_keys d 2
tui_wait d 'dmc +ddr'
tui_keys d Home g
tui_wait d 'Governor for dmc'
# rknpu_ondemand dmc_ondemand userspace powersave performance simple_ondemand
tui_keys d Home Down Down Down Down Enter
wait_file "$demo/sys/devices/platform/dmc/devfreq/dmc/governor" '^performance$'; ok $? "dmc governor performance"
tui_wait d 'DDR 2400 MHz' 10; ok $? "dmc performance: DDR at 2400 MHz"
tui_wait d 'scmi_clk_ddr +ddr +2400' 10; ok $? "the debugfs DDR clock follows"

# RT: the simulated RT task gets throttled at 95%
tui_keys d 3
tui_wait d '^ +7 +[0-9]+ +YES' 25; ok $? "RT throttling appears on CPU 7"
tui_keys d r
tui_wait d 'Unlimited \(-1\)'
tui_keys d Enter
wait_file "$demo/proc/sys/kernel/sched_rt_runtime_us" '^-1$'; ok $? "rt_runtime_us = -1"
tui_wait d 'runtime unlimited' 15; ok $? "RT screen says unlimited"
tui_wait d '0 CPUs throttled now' 15; ok $? "no throttling without a limit"

# PM QoS: hold cpu_dma_latency = 0 while running
tui_keys d l
tui_wait d 'Hold /dev/cpu_dma_latency'
tui_keys d Enter
tui_wait d 'QoS 0us' 15; ok $? "header shows the held request"
tui_wait d 'cpu_dma_latency 0 us in force' 15; ok $? "RT screen shows the request in force"

tui_keys d q
tui_wait d 'Restore and quit'; ok $? "quit dialog"
tui_keys d Enter
tui_wait_exit d; ok $? "exited"
is "$(tui_status d)" 0 "exit status 0"
test ! -e "$demo"; ok $? "the temporary root is removed"

# SIGTERM removes it too
tui_start d2 200 40 -- --demo
tui_wait d2 'SIMULATED RK3588'; ok $? "second demo"
demo2=$(tui_screen d2 | sed -n 's/.*demo root \(\/[^ ]*\).*/\1/p' | head -1)
test -n "$demo2" && test -d "$demo2"; ok $? "second demo root exists"
kill -TERM "$(tui_pid d2)"
tui_wait_exit d2; ok $? "SIGTERM: exited"
test ! -e "$demo2"; ok $? "SIGTERM: the temporary root is removed"

done_testing
