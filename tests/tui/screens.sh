#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every screen draws the fixture's values (copied RK3588 fixture, nothing is
# changed), screens switch with number keys, F-keys and Tab, and the other
# fixtures (x86, STM32MP157, RPi 4, broken files) draw without failing.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
# littlecore-thermal (CPUs 0-3) at 43750 mC: 43.8 here and in `snapshot`'s
# zone list, one formatter (issue 30: the Cores column said 43.8, the zone
# list 43.7; tests/cli/thermal_topology.sh checks the text views)
echo 43750 >"$root/sys/class/thermal/thermal_zone3/temp"
tui_start s 120 40 -- --root "$root" --state-dir "$TMPD/st"

# header
tui_wait s 'Orange Pi 5 Max'; ok $? "header: board model"
tui_wait s 'rockchip,rk3588'; ok $? "header: SoC compatible"
tui_wait s '6\.1\.43-rockchip-rk3588'; ok $? "header: kernel release"
tui_wait s 'every 1\.0s'; ok $? "header: refresh interval"
tui_wait s "root $root"; ok $? "header: the fixture root is named"
tui_wait s 'DDR 534 MHz'; ok $? "header: DDR clock (dmc 534 MHz)"
tui_wait s 'NPU 1000 MHz'; ok $? "header: NPU clock"
tui_wait s 'changes 0'; ok $? "header: no active changes"

# Cores
tui_wait s 'policy4 +2x A76 +gov interactive +408-2256 MHz +cur 408'; ok $? "cores: policy4 line (governor, range, cur 408)"
tui_wait s 'policy0 +4x A55'; ok $? "cores: policy0 is the A55 cluster"
tui_wait s '^ +4 A76 .*\[\|+ +408\]'; ok $? "cores: CPU 4 frequency bar shows 408"
tui_wait s 'WFI 1us'; ok $? "cores: legend WFI with exit latency"
tui_wait s 'cpu-sleep 220us'; ok $? "cores: legend cpu-sleep with exit latency"
tui_wait s 'psci_idle/menu'; ok $? "cores: cpuidle driver and governor"
tui_wait s '^ +7 A76 .*C$'; ok $? "cores: CPU 7 shows a temperature"
tui_wait s '4[0-9]\.[0-9]C'; ok $? "cores: temperatures in the 40s (fixture zones)"
tui_wait s '^ +0 A55 .* 43\.8C$'; ok $? "cores: CPU 0 shows 43750 mC as 43.8C, as the zone list does"
tui_wait s 'F1Help'; ok $? "bottom key bar"
# ? on a row: its explanation (the policy0 row: the governor entry)
tui_keys s '?'
tui_wait s 'Explain' 5; ok $? "? on the policy row offers its explanation"
tui_keys s Enter
tui_wait s 'Explain cpufreq/policy0/governor'; ok $? "? opens the row's entry"
tui_keys s Escape
tui_wait_not s 'Explain cpufreq'; ok $? "Esc closes it"
tui_keys s Down e
tui_wait s 'Freq: current frequency'; ok $? "e on a CPU row lists its columns"
tui_keys s Down Enter
tui_wait s 'Explain cpu\.freq_khz'; ok $? "explain window"
tui_wait s 'cpufreq/policy0/scaling_cur_freq'; ok $? "explain resolves the files on this root"
tui_keys s Escape Home

# Clocks (number key)
tui_keys s 2
tui_wait s 'dmc +ddr +dmc_ondemand +534 +534 +2400'; ok $? "clocks: dmc governor, cur/min/max"
tui_wait s 'fdab0000\.npu +npu +rknpu_ondemand +1000 +300 +1000'; ok $? "clocks: NPU"
tui_wait s 'fb000000\.gpu +gpu +simple_ondemand +300'; ok $? "clocks: GPU"
tui_wait s 'scmi_clk_npu +npu +1000'; ok $? "clocks: debugfs clock rate"

# RT (F-key)
tui_keys s F5
tui_wait s 'period 1000000 us +runtime 950000 us'; ok $? "rt: period and runtime"
tui_wait s 'RT may use 95\.0%'; ok $? "rt: the share RT may use"
tui_wait s 'THP +madvise'; ok $? "rt: THP mode"
tui_wait s 'Kernel config +/boot/config-6\.1\.43-rockchip-rk3588: VOLUNTARY HZ=300 NO_HZ_FULL=n RCU_NOCB_CPU=n'
ok $? "rt: the fixture's kernel config (the board's /boot config)"
tui_wait s '^ +0 +0 +no +0\.040'; ok $? "rt: per-CPU rt_time from sched debug"

# Journal (Tab from RT)
tui_keys s Tab
tui_wait s 'No changes recorded'; ok $? "journal: empty"
# ? where the row has nothing to explain: the Help screen
tui_keys s '?'
tui_wait s 'Miss/s +mispredictions'; ok $? "? without a row to explain: Help"
tui_keys s 4
tui_wait s 'No changes recorded'; ok $? "back to the journal"

# Help and Setup
tui_keys s F1
tui_wait s 'Miss/s +mispredictions'; ok $? "help: column meanings"
tui_keys s F2
tui_wait s 'Refresh interval'; ok $? "setup: settings listed"
tui_keys s F3
tui_wait s 'policy4'; ok $? "F3 goes back to Cores"

tui_keys s q
tui_wait_exit s; ok $? "q quits at once when nothing changed"
is "$(tui_status s)" 0 "exit status 0"
cat "$FIXTURES/rk3588/sys/class/thermal/thermal_zone3/temp" >"$root/sys/class/thermal/thermal_zone3/temp" # the 43750 above
same_tree "$root" "$FIXTURES/rk3588"; ok $? "nothing was written to the fixture"

# 256 CPUs: scrolls, reads at 80x24
if bash "$TT_SRCDIR/tests/gen-bigmachine.sh" "$TMPD/big256" >/dev/null 2>&1; then
	tui_start big 80 24 -- --root "$TMPD/big256" --state-dir "$TMPD/st-big"
	tui_wait big 'policy0 +64x'; ok $? "256 CPUs: first cluster"
	tui_wait big ' 1/26[0-9]'; ok $? "256 CPUs: position indicator"
	tui_keys big End
	tui_wait big '^ +255 '; ok $? "256 CPUs: End shows CPU 255"
	tui_keys big PPage PPage PPage
	tui_wait big 'policy192 +64x'; ok $? "256 CPUs: PgUp shows the last cluster line"
	tui_keys big q
	tui_wait_exit big; ok $? "256 CPUs: quits"
else
	skip "256 CPUs" "gen-bigmachine.sh failed"
fi

# without a terminal: a clear message, exit 1, nothing drawn
out=$("$TUNETOP" --root "$root" --state-dir "$TMPD/st" </dev/null 2>&1 >"$TMPD/notty.out")
is "$?" 1 "no terminal: exit status 1"
like "$out" 'needs a terminal.*tunetop snapshot' "no terminal: points to snapshot / watch"
is "$(wc -c <"$TMPD/notty.out" | tr -d ' ')" 0 "no terminal: nothing written to stdout"
# a terminal that cannot move the cursor: refused with one line, nothing drawn
if command -v script >/dev/null 2>&1; then
	script -qec "env TERM=dumb $TUNETOP --root $root --state-dir $TMPD/st 2>$TMPD/dumb.err; echo rc=\$?" \
		/dev/null >"$TMPD/dumb.out" 2>&1 </dev/null
	like "$(cat "$TMPD/dumb.out")" "rc=1" "TERM=dumb: exit status 1"
	is "$(wc -l <"$TMPD/dumb.err" | tr -d ' ')" 1 "TERM=dumb: one line on stderr"
	like "$(cat "$TMPD/dumb.err")" "TERM=dumb cannot draw the monitor.*tunetop watch" "TERM=dumb: says why and what to use"
	is "$(tr -d '\r' <"$TMPD/dumb.out")" "rc=1" "TERM=dumb: nothing drawn on the terminal"
else
	for i in 1 2 3 4; do skip "TERM=dumb" "script (util-linux) is not installed"; done
fi
"$TUNETOP" --bogus-option </dev/null >/dev/null 2>&1
is "$?" 2 "unknown option: exit status 2"
"$TUNETOP" -d 0 </dev/null >/dev/null 2>&1
is "$?" 2 "-d out of range: exit status 2"

# other boards: the screens draw, missing pieces are n/a, never a crash
for b in intel stm32mp157 rpi4 broken; do
	[ -d "$FIXTURES/$b" ] || {
		skip "$b fixture" "not present"
		continue
	}
	r=$(copy_fixture "$b")
	tui_start "b$b" 100 30 -- --root "$r" --state-dir "$TMPD/st-$b"
	tui_wait "b$b" 'CPU +Type'; ok $? "$b: cores screen draws"
	tui_keys "b$b" 2
	tui_wait "b$b" 'Device +Kind'; ok $? "$b: clocks screen draws"
	tui_keys "b$b" 3
	tui_wait "b$b" 'RT bandwidth'; ok $? "$b: rt screen draws"
	tui_keys "b$b" q
	tui_wait_exit "b$b"; ok $? "$b: quits"
	is "$(tui_status "b$b")" 0 "$b: exit status 0"
done

done_testing
