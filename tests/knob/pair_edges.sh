#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The pair checks at their edges (issue 32, from make mutate): an RT runtime
# equal to the period is accepted, one microsecond more is refused (exit 2,
# nothing written); a min equal to the max is accepted, one step above is
# refused. On a copy of rk3588 (period 1000000 us, policy0 max 1800000 kHz).
# Within an object the governor is written first, then the pair, then the
# rest, whatever the order typed. A rollback undoes the writes in reverse order (the reverse of a safe
# order is safe: min/max and runtime/period pairs rely on it). A change the
# journal cannot record (the file size limit, prlimit --fsize) is not
# written.
. "$TT_SRCDIR/tests/lib.sh"

# fresh N: a copy of rk3588 of its own (copy_fixture reuses one path under dash)
fresh() { cp -a "$FIXTURES/rk3588" "$TMPD/rk3588-$1" && root=$TMPD/rk3588-$1; }

fresh 1
k=$root/proc/sys/kernel
"$TUNETOP" --root "$root" set sched/rt_runtime_us=1000001 >/dev/null 2>"$TMPD/err"
is "$?" 2 "rt_runtime_us = period + 1: exit 2"
like "$(cat "$TMPD/err")" "runtime 1000001 would exceed sched/rt_period_us 1000000" "... says why"
is "$(cat "$k/sched_rt_runtime_us")" 950000 "... nothing written"
"$TUNETOP" --root "$root" set sched/rt_runtime_us=1000000 >/dev/null 2>"$TMPD/err"
is "$?" 0 "rt_runtime_us = period: accepted"
is "$(cat "$k/sched_rt_runtime_us")" 1000000 "... written"
"$TUNETOP" --root "$root" set sched/rt_period_us=999999 >/dev/null 2>"$TMPD/err"
is "$?" 2 "rt_period_us one below the runtime: exit 2"

p=$root/sys/devices/system/cpu/cpufreq/policy0
"$TUNETOP" --root "$root" set cpufreq/policy0/min_khz=1800000 >/dev/null 2>"$TMPD/err"
is "$?" 0 "min_khz = max_khz: accepted"
is "$(cat "$p/scaling_min_freq")" 1800000 "... written"
"$TUNETOP" --root "$root" set cpufreq/policy0/max_khz=1608000 >/dev/null 2>"$TMPD/err"
is "$?" 2 "max_khz below the min: exit 2"

fresh 2
"$TUNETOP" --root "$root" set cpufreq/policy0/interactive/boost=1 cpufreq/policy0/max_khz=1608000 \
	cpufreq/policy0/governor=performance >"$TMPD/out" 2>&1
is "$?" 0 "a tunable, the max and the governor of policy0: exit 0"
is "$(cut -d: -f1 "$TMPD/out" | tr '\n' ' ')" \
	"cpufreq/policy0/governor cpufreq/policy0/max_khz cpufreq/policy0/interactive/boost " \
	"... written governor first, then the max, then the tunable"

fresh 3
TUNETOP_TEST_FAULT="cpu5/cpuidle/state1/disable=EBUSY" "$TUNETOP" --root "$root" \
	set 'cpuidle/*/cpu-sleep/disable=1' >"$TMPD/out" 2>/dev/null
is "$?" 1 "a write failing half-way: exit 1"
is "$(sed -n 's|^cpuidle/cpu\([0-9]\)/state1/disable: rolled back to 0$|\1|p' "$TMPD/out" | tr -d '\n')" \
	43210 "the five earlier writes rolled back last first (cpu4 .. cpu0)"

if command -v prlimit >/dev/null 2>&1; then
	fresh 4
	"$TUNETOP" --root "$root" set cpufreq/policy0/governor=performance >/dev/null 2>&1
	size=$(stat -c %s "$TUNETOP_STATE_DIR/journal")
	# room for 100 more bytes: not for the next W record (about 300)
	sh -c "trap '' XFSZ; exec prlimit --fsize=$((size + 100)) \"\$@\"" sh \
		"$TUNETOP" --root "$root" set cpufreq/policy4/governor=performance >/dev/null 2>"$TMPD/err"
	is "$?" 1 "the journal cannot record the change: exit 1"
	like "$(cat "$TMPD/err")" "cannot record the change in .*journal: File too large; not writing" \
		"... says so"
	is "$(cat "$root/sys/devices/system/cpu/cpufreq/policy4/scaling_governor")" interactive \
		"... and the knob is not written"
else
	skip "a change the journal cannot record" "prlimit is not installed"
fi
done_testing
