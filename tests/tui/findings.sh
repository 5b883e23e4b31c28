#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Findings screen and the header count: on the RK3588 fixture as shipped
# (governor collapse, cpu-sleep above the latency budget) the header counts
# what `snapshot --json` lists and the screen shows each finding with its
# evidence and fix; a applies the selected fix through the journal (the
# fixture files change, the finding goes, the count follows), u puts every
# file back byte for byte, Enter applies too. A crit finding (STM32MP157 RT
# throttling) is counted as well.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
. "$TT_SRCDIR/tests/findings/common.sh"

# the fixture without its processes: the TUI reads a tree's threads (issue
# 35), which would turn these two into thread-based rules (tests/threads/tree.sh)
root=$(copy_fixture rk3588)
rm -rf "$root"/proc/[0-9]*
ref=$(copy_fixture rk3588)
rm -rf "$ref"/proc/[0-9]*
cpu=$root/sys/devices/system/cpu
n=$(findings "$root" | grep -c .)
is "$n" 2 "snapshot --json: two findings on the shipped RK3588"

tui_start f 120 40 -- --root "$root" --state-dir "$TMPD/st"
tui_wait f "changes 0  $n findings"; ok $? "header counts the findings of snapshot --json ($n)"
tui_keys f '!'
tui_wait f '^2 findings: 0 crit, 0 warn, 2 info'; ok $? "! opens the Findings screen"
tui_wait f 'info~ +governor-collapse +cpufreq +policy0, policy4, policy6 sit at their lowest OPP'
ok $? "governor collapse listed with severity, rule, subject, title"
tui_wait f 'info~ +idle-exit-latency +cpu-sleep'; ok $? "idle exit latency listed"
tui_wait f 'Evidence policy0 \(CPUs 0-3\) at 408 MHz'; ok $? "the selected finding's evidence"
tui_wait f 'Fix +cpufreq/policy0/governor=performance'; ok $? "its fix as address=value"
tui_wait f 'cpufreq/policy6/governor=performance'; ok $? "every assignment of the fix"
tui_wait f 'Why +cpufreq/\*/governor: CPU frequency governor'; ok $? "the explain entry it points to"

# a: the fix of the selected finding, one transaction
tui_keys f a
for p in 0 4 6; do
	wait_file "$cpu/cpufreq/policy$p/scaling_governor" '^performance$'
	ok $? "a applied the fix: policy$p on performance"
done
tui_wait f 'changes 3  1 finding '; ok $? "header: 3 changes, 1 finding left"
is "$(findings "$root" | grep -c .)" 1 "snapshot --json agrees: one finding"
tui_wait f 'u undoes'; ok $? "the status line says u undoes it"
tui_keys f u
for p in 0 4 6; do
	wait_file "$cpu/cpufreq/policy$p/scaling_governor" '^interactive$'
	ok $? "u restored policy$p"
done
tui_wait f 'changes 0  2 findings'; ok $? "header: the finding is back"
same_tree "$root" "$ref"; ok $? "u put every file back byte for byte"

# Enter applies the selected one too: the idle state on every CPU
tui_keys f Down
tui_wait f 'Fix +cpuidle/0-7/cpu-sleep/disable=1'; ok $? "Down selects the idle finding"
tui_keys f Enter
n=0
for c in 0 1 2 3 4 5 6 7; do
	wait_file "$cpu/cpu$c/cpuidle/state1/disable" '^1$' 5 && n=$((n + 1))
done
is "$n" 8 "Enter applied it: cpu-sleep disabled on the 8 CPUs"
tui_wait f 'changes 8  1 finding '; ok $? "header: 8 changes, 1 finding"
tui_keys f u
wait_file "$cpu/cpu7/cpuidle/state1/disable" '^0$'; ok $? "u restored the idle states"
tui_wait f 'changes 0  2 findings'
same_tree "$root" "$ref"; ok $? "byte for byte again"

# e explains the selected finding's rule
tui_keys f Home e
tui_wait f 'Why: the rule.s entry'; ok $? "e offers the rule's explain entry and the fix addresses"
tui_keys f Escape
tui_keys f q
tui_wait_exit f; ok $? "quits"
is "$(tui_status f)" 0 "exit status 0"
same_tree "$root" "$ref"; ok $? "nothing left changed"

# a crit finding: RT throttling engaged on the STM32MP157
if [ -d "$FIXTURES/stm32mp157" ]; then
	s=$(copy_fixture stm32mp157)
	sn=$(findings "$s" | grep -c .)
	tui_start s 120 40 -- --root "$s" --state-dir "$TMPD/st-s" --screen findings
	tui_wait s "changes 0  $sn finding"; ok $? "stm32mp157: the header counts $sn like snapshot --json"
	tui_wait s 'crit +rt-throttling'; ok $? "stm32mp157: RT throttling listed as crit"
	tui_wait s 'Fix +sched/rt_runtime_us=90000'; ok $? "stm32mp157: its fix"
	tmx capture-pane -e -p -t s | grep -q "31m$sn finding"
	ok $? "stm32mp157: the count has the alert colour of a crit finding"
	tui_keys s q
	tui_wait_exit s; ok $? "stm32mp157: quits"

	# CPU 1 is isolated there, so the header reads the interrupt rates even
	# on the Cores screen (elsewhere it skips /proc/interrupts): eth0 firing
	# on CPU 1 becomes the isolated-intruders finding without visiting IRQs
	irqf=$s/proc/interrupts
	(
		n=0
		while [ $n -lt 100 ]; do
			n=$((n + 1))
			sed "s/^ 56:      88412          0/ 56:      88412 $(printf '%10d' $((n * 100)))/" \
				"$FIXTURES/stm32mp157/proc/interrupts" >"$irqf.new" && mv "$irqf.new" "$irqf"
			sleep 0.2
		done
	) &
	bumper=$!
	tui_start i 120 40 -- --root "$s" --state-dir "$TMPD/st-i"
	tui_wait i 'policy0'; ok $? "stm32mp157: Cores screen"
	tui_wait i "changes 0  $((sn + 1)) finding" 15
	ok $? "stm32mp157: the header counts the IRQ intruder on the isolated CPU"
	tui_keys i '!'
	tui_wait i 'isolated-intruders'; ok $? "stm32mp157: listed on the Findings screen"
	kill "$bumper" 2>/dev/null
	wait "$bumper" 2>/dev/null
	tui_keys i q
	tui_wait_exit i; ok $? "stm32mp157: quits"
fi

done_testing
