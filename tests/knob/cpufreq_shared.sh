#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Governor tunables shared by all policies (issue 33): a cpufreq driver
# without per-policy governors (cpufreq-dt on the rpi4 and stm32mp157
# fixtures) keeps the active governor's tunables in cpufreq/ondemand, not
# policy0/ondemand. cpufreq/<policy>/ondemand/<tunable> reaches them
# (knobs, get, set, restore) instead of the refusal that said the governor
# ondemand was not active while naming it as the active one.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

P=sys/devices/system/cpu/cpufreq
for b in rpi4 stm32mp157; do
	fresh "$b"
	out=$(tt knobs 'cpufreq/*/ondemand/*' 2>&1)
	is "$?" 0 "$b: knobs 'cpufreq/*/ondemand/*' exits 0"
	like "$out" "^cpufreq/policy0/ondemand/up_threshold +[0-9]+ " "$b: lists the shared up_threshold"
	is "$(printf '%s\n' "$out" | grep -c '^cpufreq/')" \
		"$(ls "$root/$P/ondemand" | wc -l | tr -d ' ')" "$b: one address per file of $P/ondemand"
	unlike "$out" "exist only while it is active" "$b: no refusal naming the active governor"
	out=$(tt knobs cpufreq 2>&1)
	like "$out" "cpufreq/policy0/ondemand/sampling_rate" "$b: knobs cpufreq lists them too"
	is "$(tt get cpufreq/policy0/ondemand/up_threshold 2>&1)" \
		"cpufreq/policy0/ondemand/up_threshold=$(cat "$root/$P/ondemand/up_threshold")" \
		"$b: get reads cpufreq/ondemand/up_threshold"
	cycle "$b" "cpufreq/policy0/ondemand/up_threshold=95" "$P/ondemand/up_threshold=95"
	# a governor that is not active still has its own words
	fresh "$b"
	out=$(tt get cpufreq/policy0/schedutil/rate_limit_us 2>&1)
	is "$?" 2 "$b: an inactive governor's tunable: exit 2"
	like "$out" "no schedutil tunables .*the governor is ondemand" "$b: ... says which governor is active"
done
done_testing
