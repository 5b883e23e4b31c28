#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Idle residency that tells the truth (issue 19 items 2 and 3).
# - The kernel adds a stay to stateK/time only when the CPU leaves the state:
#   a CPU asleep through most of the interval shows far less residency than
#   it had. An emulated kernel here counts 45 % of the interval in state1's
#   time while /proc/stat counts the CPU 100 % idle: tunetop must credit the
#   stay in progress and show >= 90 %.
# - States that counted more than /proc/stat's idle time (a stay that began
#   before the interval) are trimmed to it.
# - A tree where nothing moves (a capture, a fixture) has no rates: n/a in
#   JSON, text and findings, never 0.
. "$TT_SRCDIR/tests/lib.sh"

# --- a static tree: nothing moved ------------------------------------------
r=$(copy_fixture rk3588)
json=$("$TUNETOP" --root "$r" snapshot --interval 300 --json 2>"$TMPD/err")
ok $? "snapshot --interval 300 on a static tree"
unlike "$json" '"residency_pct":[0-9]' "static tree: no idle residency is a number"
unlike "$json" '"entries_per_s":[0-9]' "static tree: no entries/s is a number"
like "$json" '"residency_pct":null' "static tree: residency is null"
unlike "$json" '"time_in_state_pct":\{[^}]*:[0-9]' "static tree: no time-in-state share is a number"
unlike "$json" '"transitions_per_s":[0-9]' "static tree: no transitions/s is a number (cpufreq and devfreq)"
like "$json" '"time_in_state_10ms":\{"408000":8219347' "the raw time_in_state counters are kept"
unlike "$json" 'up to 0\.0% residency' "no finding quotes a 0.0 % residency"
unlike "$json" 'up to 0 entries/s' "no finding quotes 0 entries/s"
txt=$("$TUNETOP" --root "$r" snapshot --interval 300 2>&1)
unlike "$txt" ' 0\.0 +0\.0 ' "static tree text: no 0.0 rates"

# --- an emulated kernel: CPU 0 asleep, state1 counted at exits only -------
# emulate IDLE_TICKS_PER_S STATE1_US_PER_S: for 3 s, every 20 ms, rewrite
# cpu0's /proc/stat line (idle grows by IDLE_TICKS_PER_S, total by 100 per
# second) and cpu0/state1/time, each replaced in one step.
cpu0=$r/sys/devices/system/cpu/cpu0/cpuidle
emulate() {
	(
		t0=$(date +%s%N)
		base_time=$(cat "$cpu0/state1/time")
		set -- "$1" "$2" $(grep '^cpu0 ' "$r/proc/stat")
		ipt=$1 upt=$2
		shift 3
		user=$1 nice=$2 sys=$3 idle=$4
		shift 4
		rest="$*"
		end=$((t0 + 3500000000))
		now=$t0
		while [ "$now" -lt "$end" ]; do
			ms=$(((now - t0) / 1000000))
			it=$((ms * ipt / 1000))
			bt=$((ms / 10 - it))
			sed "s/^cpu0 .*/cpu0 $((user + bt)) $nice $sys $((idle + it)) $rest/" \
				"$r/proc/stat" >"$TMPD/stat.new"
			mv -f "$TMPD/stat.new" "$r/proc/stat"
			echo $((base_time + ms * upt / 1000)) >"$TMPD/time.new"
			mv -f "$TMPD/time.new" "$cpu0/state1/time"
			sleep 0.02
			now=$(date +%s%N)
		done
	) &
	writer=$!
	sleep 0.3
}
# residency_sum JSON CPU: the sum of that CPU's residency_pct values
residency_sum() {
	printf '%s\n' "$1" | tr '\n' ' ' | sed 's/"id":/\n"id":/g' | grep "^\"id\":$2," |
		grep -o '"residency_pct":[0-9.]*' | cut -d: -f2 |
		awk '{ s += $1 } END { printf "%.1f\n", s + 0 }'
}

emulate 100 450000
json=$("$TUNETOP" --root "$r" snapshot --interval 1000 --json 2>"$TMPD/err")
ok $? "snapshot over the emulated kernel"
wait "$writer"
sum=$(residency_sum "$json" 0)
diag "cpu0: 100 % idle in /proc/stat, 45 % counted in state1/time: residency $sum %"
awk -v s="$sum" 'BEGIN { exit !(s >= 90 && s <= 100.1) }'
ok $? "an idle CPU shows >= 90 % idle residency (the stay in progress credited): $sum %"

emulate 50 900000
json=$("$TUNETOP" --root "$r" snapshot --interval 1000 --json 2>"$TMPD/err")
ok $? "snapshot over the emulated kernel, second run"
wait "$writer"
sum=$(residency_sum "$json" 0)
diag "cpu0: 50 % idle in /proc/stat, 90 % counted in state1/time: residency $sum %"
awk -v s="$sum" 'BEGIN { exit !(s >= 40 && s <= 60) }'
ok $? "states that counted more than the idle time are trimmed to it: $sum %"

"$TUNETOP" explain cpuidle.residency_pct >"$TMPD/explain" 2>&1
like "$(cat "$TMPD/explain")" 'in progress' "explain says how the stay in progress is counted"
done_testing
