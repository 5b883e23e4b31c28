#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Knobs the kernel does not obey, as findings and explain entries (issue
# 21): an idle state disabled but still entered (the haltpoll governor
# ignores per-state disable) with the fix cpuidle/governor=menu, and idle
# states limited on the kernel command line.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/findings/common.sh"

# findings_over ROOT: the findings of a snapshot with rates (two reads 1 s apart: --interval is in ms)
findings_over() {
	"$TUNETOP" --root "$1" snapshot --interval 1000 --json 2>/dev/null |
		grep -o '"id":"[^"]*","severity":"[^"]*"' |
		sed 's/"id":"\([^"]*\)","severity":"\([^"]*\)"/\1 \2/'
}

r=$(copy_fixture rk3588)
cpu=$r/sys/devices/system/cpu
printf 'menu teo haltpoll\n' >"$cpu/cpuidle/available_governors"
echo haltpoll >"$cpu/cpuidle/current_governor"
echo 1 >"$cpu/cpu1/cpuidle/state1/disable"
# nothing grows: a disabled state that is not entered is what was asked
hasnt "$(findings_over "$r")" idle-disable-ignored "disabled and not entered: no finding"
# the emulated kernel keeps entering state1 on CPU 1 although it is disabled
(
	u=$(cat "$cpu/cpu1/cpuidle/state1/usage")
	i=0
	while [ $i -lt 60 ]; do
		i=$((i + 1))
		# replaced in one step: a reader never sees the file empty
		echo $((u + i * 20)) >"$TMPD/usage.new"
		mv -f "$TMPD/usage.new" "$cpu/cpu1/cpuidle/state1/usage"
		sleep 0.05
	done
) &
writer=$!
json=$("$TUNETOP" --root "$r" snapshot --interval 1000 --json 2>/dev/null)
wait "$writer"
like "$json" '"id":"idle-disable-ignored","severity":"warn"' "disabled yet entered: a warning"
like "$json" '"title":"cpu-sleep is disabled on CPU 1 but still entered \([0-9]+/s\): the haltpoll governor ignores disable"' \
	"the title names the CPU, the rate and haltpoll"
like "$json" '"evidence":"cpuidle/cpu1/state1/disable is 1, yet its usage grew by [0-9]+ entries/s; governor haltpoll. menu honours per-state disable"' \
	"the evidence carries the counter"
like "$json" '"id":"idle-disable-ignored"[^{}]*"fix":\["cpuidle/governor=menu"\]' "the fix: cpuidle/governor=menu"
unlike "$json" '"id":"idle-disable-ignored"[^{}]*"subject":"cpu0' "only CPU 1 is flagged"

# the command line limits idle states: an info finding, silent without it
hasnt "$(findings "$r")" idle-limited-at-boot "rk3588 as shipped: no max_cstate on the command line"
printf '%s intel_idle.max_cstate=1 idle=poll\n' "$(cat "$r/proc/cmdline")" >"$r/proc/cmdline"
has "$(findings "$r")" "idle-limited-at-boot info" "max_cstate and idle=poll on the command line: info"
like "$("$TUNETOP" --root "$r" snapshot --interval 0 --stable --json)" \
	'/proc/cmdline has intel_idle.max_cstate=1 idle=poll: states beyond that limit are never registered' \
	"the evidence quotes the parameters"

# explain: the entries the findings and the effect warnings point to
for k in knob.effect cpuidle.max_cstate irq.managed; do
	out=$("$TUNETOP" explain "$k" 2>&1)
	ok $? "explain $k"
done
like "$("$TUNETOP" explain knob.effect)" 'haltpoll' "knob.effect names the haltpoll case"
like "$("$TUNETOP" explain max_cstate)" 'Idle states limited on the kernel command line' "max_cstate finds its entry"
like "$("$TUNETOP" explain irq.managed)" "Kernel-managed IRQs" "irq.managed finds its entry"
done_testing
