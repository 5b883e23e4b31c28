#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Transactions: a target that cannot be written stops the change and rolls
# back what was already written (exit 1, tree unchanged); errors are one line
# naming the address, the file and the reason.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

C=sys/devices/system/cpu

# ---- a target replaced by a directory (EISDIR), after other targets in the same set
fresh rk3588
gov="$root/sys/devices/platform/fdab0000.npu/devfreq/fdab0000.npu/governor"
rm -f "$gov" && mkdir "$gov"
cp -a "$root" "$TMPD/ref-eisdir"
out=$(tt set cpufreq/policy4/governor=performance devfreq/npu/governor=performance mm/thp=never 2>&1)
is "$?" 1 "EISDIR target: exit 1"
like "$out" "devfreq/fdab0000.npu/governor: EISDIR from $TMPD/.*/governor" "names address, errno and file"
is "$(printf '%s\n' "$out" | grep -c .)" 1 "one line"
if pristine "$TMPD/ref-eisdir"; then ok 0 "nothing changed"; else ok 1 "nothing changed"; show_diff "$TMPD/ref-eisdir"; fi

# ---- a write the kernel refuses half-way: the earlier writes are rolled back
for err in EBUSY EINVAL EACCES EPERM; do
	fresh rk3588
	out=$(TUNETOP_TEST_FAULT="cpu5/cpuidle/state1/disable=$err" tt set 'cpuidle/*/cpu-sleep/disable=1' 2>&1 >/dev/null)
	is "$?" 1 "$err half-way through: exit 1"
	like "$out" "cpuidle/cpu5/state1/disable: $err from $root/$C/cpu5/cpuidle/state1/disable: could not write '1'" \
		"$err: message names address, errno and file"
	like "$out" "could not write '1'[^;]*; nothing changed \\(5 earlier writes rolled back\\)$" "$err: says it rolled back, same line"
	is "$(printf '%s\n' "$out" | grep -c .)" 1 "$err: one line on stderr"
	if pristine; then ok 0 "$err: tree unchanged after the rollback"; else ok 1 "$err: tree unchanged"; show_diff; fi
done
j=$(tt journal)
like "$j" "cpuidle/cpu4/state1/disable: 0 -> 1 \\(rolled back\\)" "journal shows the rolled-back writes"
like "$j" "failed .*cpuidle/cpu5/state1/disable: 0 -> 1 \\(EPERM\\)" "journal shows the failed write"
out=$(tt restore 2>&1)
is "$out" "nothing to restore" "nothing left to restore after a rollback"

# ---- RT throttling: EBUSY from the fair server / DL admission is explained
fresh rk3588
out=$(TUNETOP_TEST_FAULT="sched_rt_runtime_us=EBUSY" tt set sched/rt_runtime_us=10000 2>&1)
is "$?" 1 "EBUSY on sched_rt_runtime_us: exit 1"
like "$out" "EBUSY from .*sched_rt_runtime_us: could not write '10000': below the SCHED_DEADLINE bandwidth" \
	"EBUSY on RT runtime explains DL admission / fair server"
pristine; ok $? "nothing changed"
out=$(TUNETOP_TEST_FAULT="sched_rt_runtime_us=EINVAL" tt set sched/rt_runtime_us=10000 2>&1)
like "$out" "EINVAL from .*sched_rt_runtime_us: could not write '10000': the kernel refused the value; nothing changed" \
	"EINVAL on RT runtime: the generic words (its own hint is for EBUSY only)"

# ---- EPP: EBUSY under the performance governor is explained by the knob's own hint
fresh intel
out=$(TUNETOP_TEST_FAULT="policy3/energy_performance_preference=EBUSY" tt set cpufreq/policy3/energy_performance_preference=power 2>&1)
is "$?" 1 "EBUSY on EPP: exit 1"
like "$out" "cpufreq/policy3/energy_performance_preference: EBUSY from .*/policy3/energy_performance_preference: could not write 'power': the performance governor allows only EPP 'performance'; nothing changed" \
	"EBUSY on EPP names the performance governor"
pristine; ok $? "nothing changed"
out=$(TUNETOP_TEST_FAULT="policy3/energy_performance_preference=EINVAL" tt set cpufreq/policy3/energy_performance_preference=power 2>&1)
like "$out" "could not write 'power': the kernel refused the value; nothing changed" \
	"EINVAL on EPP: the generic words"
unlike "$out" "performance governor" "EINVAL on EPP: no EBUSY hint"

# ---- a later knob fails after min/max were both written: both come back
fresh rk3588
out=$(TUNETOP_TEST_FAULT="transparent_hugepage/enabled=EINVAL" tt set cpufreq/policy4/lock_khz=1008000 mm/thp=never 2>&1)
is "$?" 1 "lock then failing thp: exit 1"
like "$out" "mm/thp: EINVAL from .*transparent_hugepage/enabled: could not write 'never': the kernel refused the value" \
	"EINVAL message"
if pristine; then ok 0 "lock rolled back"; else ok 1 "lock rolled back"; show_diff; fi

# ---- a file that cannot be read cannot be restored, so it is not changed
fresh rk3588
f="$root/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
rm -f "$f" && mkdir "$f"
cp -a "$root" "$TMPD/ref-unreadable"
out=$(tt set cpufreq/policy0/governor=performance 2>&1)
is "$?" 1 "unreadable current value: exit 1"
like "$out" "EISDIR from .*scaling_governor" "says why"
pristine "$TMPD/ref-unreadable"; ok $? "nothing changed"

# ---- the kernel clamps a value: reported, journaled, still restorable
fresh rk3588
out=$(TUNETOP_TEST_FAULT="policy0/scaling_min_freq=clamp:1008000" tt set cpufreq/policy0/min_khz=1800000 2>&1)
is "$?" 0 "clamped write: exit 0"
like "$out" "note: cpufreq/policy0/min_khz: wrote 1800000, the kernel reports 1008000 \\(clamped or adjusted\\)" \
	"the clamp is reported"
like "$(tt journal)" "cpufreq/policy0/min_khz: 408000 -> 1800000 \\(kernel reports 1008000\\)" "and journaled"
out=$(tt restore 2>&1)
like "$out" "cpufreq/policy0/min_khz: 1008000 -> 408000 \\(restored\\)" "restore recognises the clamped value as ours"
pristine; ok $? "restored"
fresh rk3588
out=$(TUNETOP_TEST_FAULT="cpufreq/policy0/scaling_governor=clamp:interactive" tt set cpufreq/policy0/governor=performance 2>&1)
like "$out" "wrote performance, the kernel reports interactive \\(ignored\\)" "an ignored write is reported"
tt restore >/dev/null
pristine; ok $? "nothing to undo there"

done_testing
