#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# knobs / get / set: listing, values, dry-run, write ordering, bad input.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

P=sys/devices/system/cpu/cpufreq

# ---- knobs and get are read-only and work on every fixture
for b in rk3588 intel stm32mp157 rpi4 broken; do
	out=$("$TUNETOP" --root "$FIXTURES/$b" knobs 2>&1)
	ok $? "$b: knobs exits 0"
	like "$out" "^ADDRESS +VALUE +UNIT +WRITE +ALLOWED" "$b: knobs has a header"
	like "$out" "cpufreq/policy0/governor" "$b: lists the policy0 governor"
done
out=$("$TUNETOP" --root "$FIXTURES/rk3588" knobs devfreq/npu)
like "$out" "devfreq/fdab0000.npu/governor +rknpu_ondemand +- +rw +rknpu_ondemand dmc_ondemand" "knobs devfreq/npu: value and allowed governors"
like "$out" "devfreq/fdab0000.npu/min_hz +300000000 +Hz" "devfreq in Hz"
out=$("$TUNETOP" --root "$FIXTURES/rk3588" knobs --long cpuidle/cpu4/cpu-sleep/disable)
like "$out" "note: cpu-sleep, exit latency 220 us" "knobs --long explains the idle state"
like "$out" "file: .*/cpu4/cpuidle/state1/disable" "knobs --long shows the file"
"$TUNETOP" --root "$FIXTURES/intel" knobs --json intel_pstate | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["knobs"]) == 3' 2>/dev/null
ok $? "knobs --json is valid JSON"
out=$("$TUNETOP" --root "$FIXTURES/rk3588" get 'cpufreq/*/governor' mm/thp cpufreq/polico0/governor 2>"$TMPD/err")
rc=$?
is "$out" "cpufreq/policy0/governor=interactive
cpufreq/policy4/governor=interactive
cpufreq/policy6/governor=interactive
mm/thp=madvise" "get prints addr=value lines"
is "$rc" 2 "get with an unknown address exits 2"
like "$(cat "$TMPD/err")" "cpufreq/polico0: not a policy or CPU" "and says why"
is "$("$TUNETOP" --root "$FIXTURES/rk3588" get cpufreq/policy4/lock_khz)" "cpufreq/policy4/lock_khz=off" "lock reads off"
is "$("$TUNETOP" --root "$FIXTURES/broken" get cpufreq/policy0/max_khz)" "cpufreq/policy0/max_khz=garbage" "garbage shown as it is"
# get expands a pattern exactly like knobs (a trailing * or a prefix takes the
# governor tunables and everything under it)
out=$("$TUNETOP" --root "$FIXTURES/rk3588" get 'cpufreq/policy4/*')
like "$out" "^cpufreq/policy4/interactive/timer_rate=20000$" "get 'cpufreq/policy4/*' has the interactive tunables"
like "$out" "^cpufreq/policy4/governor=interactive$" "and the governor"
for b in rk3588 intel; do
	for p in 'cpufreq/policy4/*' 'cpufreq/*/interactive/*' cpufreq cpuidle/cpu0 devfreq/npu intel_pstate sched '*'; do
		k=$("$TUNETOP" --root "$FIXTURES/$b" knobs "$p" 2>/dev/null | awk 'NR > 1 {print $1}')
		g=$("$TUNETOP" --root "$FIXTURES/$b" get "$p" 2>/dev/null | sed 's/=.*//')
		is "$g" "$k" "$b: get '$p' lists the knobs that knobs '$p' lists"
	done
done

# ---- bad input: one line, exit 2, nothing touched, no journal entry
fresh rk3588
bad() { # bad WANT_REGEX DESCRIPTION ARGS...
	_w=$1
	_d=$2
	shift 2
	_o=$(tt set "$@" 2>&1)
	_rc=$?
	is "$_rc" 2 "$_d: exit 2"
	like "$_o" "$_w" "$_d: message"
	is "$(printf '%s\n' "$_o" | grep -c .)" 1 "$_d: one line"
}
bad "unknown knob address 'frob/x': no family 'frob' \\(families: cpufreq cpuidle" "unknown family" frob/x=1
bad "cpufreq/policy9: no such policy \\(policies: policy0 policy4 policy6\\)" "unknown policy" cpufreq/policy9/governor=performance
bad "unknown cpufreq knob 'speed'" "unknown knob" cpufreq/policy0/speed=1
bad "cpufreq/policy4/governor: EINVAL from $root/$P/policy4/scaling_available_governors: 'turbo' is not in available governors: interactive conservative ondemand userspace powersave performance schedutil" \
	"governor not allowed" cpufreq/policy4/governor=turbo
bad "cpufreq/policy4/max_khz: EINVAL from .*scaling_available_frequencies: 1500000 kHz is not in available frequencies: 408000 600000" \
	"frequency not an OPP" cpufreq/policy4/max_khz=1500000
bad "cpuidle/cpu9: CPU 9 is offline" "absent CPU" cpuidle/cpu9/state1/disable=1
bad "cpuidle/cpu0/C6: no such idle state \\(states: WFI cpu-sleep\\)" "unknown idle state" cpuidle/cpu0/C6/disable=1
bad "EINVAL from .*/disable: '2' is not one of: 0 1" "disable=2" cpuidle/cpu0/state1/disable=2
bad "devfreq/vpu: no such devfreq device \\(devices: dmc fb000000.gpu fdab0000.npu; aliases npu gpu ddr\\)" "unknown devfreq device" devfreq/vpu/governor=performance
bad "sched/rt_runtime_us: EINVAL: runtime 2000000 would exceed sched/rt_period_us 1000000" "runtime above period" sched/rt_runtime_us=2000000
bad "mm/thp: EINVAL from .*enabled: 'sometimes' is not in THP modes: always madvise never" "thp mode" mm/thp=sometimes
bad "'cpufreq/policy0/governor': expected ADDRESS=VALUE" "no =" cpufreq/policy0/governor
bad "pmqos/cpu_dma_latency_us: ENOENT from .*dev/cpu_dma_latency" "no PM QoS device on the fixture" pmqos/cpu_dma_latency_us=0
bad "cpufreq/policy4/governor is assigned twice" "same knob twice" cpufreq/policy4/governor=performance cpufreq/cpu4/governor=powersave
out=$(tt set cpufreq/policy4/governor=turbo mm/thp=sometimes 2>&1)
is "$(printf '%s\n' "$out" | grep -c .)" 2 "two bad assignments: two lines"
if pristine; then ok 0 "bad input changed nothing"; else ok 1 "bad input changed nothing"; show_diff; fi
is "$(tt journal)" "journal is empty ($STATE)" "bad input left no journal entry"
keep_root=$root
fresh broken
bad "cpuidle/cpu2: CPU 2 is offline" "offline CPU" cpuidle/cpu2/state0/disable=1
root=$keep_root
board=rk3588
# the lease cannot be held by 'set'
mkdir -p "$root/dev" && printf '\000\224\065\167' >"$root/dev/cpu_dma_latency"
bad "pmqos/cpu_dma_latency_us: the value holds only while a process keeps /dev/cpu_dma_latency open, so 'set' cannot keep it; use 'tunetop exec" \
	"set refuses the PM QoS lease" pmqos/cpu_dma_latency_us=0
rm -r "$root/dev"

# ---- dry run prints the exact writes and changes nothing
out=$(tt set --dry-run cpufreq/policy4/governor=performance 'cpuidle/4-5/cpu-sleep/disable=1' 2>&1)
is "$?" 0 "dry run exits 0"
is "$out" "echo performance > $root/$P/policy4/scaling_governor   # cpufreq/policy4/governor: interactive -> performance
echo 1 > $root/sys/devices/system/cpu/cpu4/cpuidle/state1/disable   # cpuidle/cpu4/state1/disable: 0 -> 1
echo 1 > $root/sys/devices/system/cpu/cpu5/cpuidle/state1/disable   # cpuidle/cpu5/state1/disable: 0 -> 1" "dry run shows each write as a shell line"
pristine; ok $? "dry run changed nothing"
is "$(tt journal)" "journal is empty ($STATE)" "dry run wrote no journal"

# ---- frequency order: raise max before min going up, lower min before max going down
tt set cpufreq/policy0/max_khz=600000 >/dev/null
out=$(tt set --dry-run cpufreq/policy0/min_khz=1416000 cpufreq/policy0/max_khz=1800000 | awk '{print $6}')
is "$(echo $out)" "cpufreq/policy0/max_khz: cpufreq/policy0/min_khz:" "going up: max is written first"
tt set cpufreq/policy0/min_khz=1416000 cpufreq/policy0/max_khz=1800000 >/dev/null
ok $? "going up: set"
order=$(tt journal --json | grep '"address"' | tail -2 | sed 's/.*"address": *"//; s/".*//' | tr '\n' ' ')
is "$order" "cpufreq/policy0/max_khz cpufreq/policy0/min_khz " "going up: the journal records max before min"
out=$(tt set --dry-run cpufreq/policy0/max_khz=816000 cpufreq/policy0/min_khz=600000 | awk '{print $6}')
is "$(echo $out)" "cpufreq/policy0/min_khz: cpufreq/policy0/max_khz:" "going down: min is written first"
out=$(tt set --dry-run cpufreq/policy0/lock_khz=408000 | awk '{print $6}')
is "$(echo $out)" "cpufreq/policy0/min_khz: cpufreq/policy0/max_khz:" "lock going down: min first"
tt restore >/dev/null
tt set cpufreq/policy0/max_khz=600000 >/dev/null
out=$(tt set --dry-run cpufreq/policy0/lock_khz=1800000 | awk '{print $6}')
is "$(echo $out)" "cpufreq/policy0/max_khz: cpufreq/policy0/min_khz:" "lock going up: max first"
tt set cpufreq/policy0/lock_khz=1800000 >/dev/null
is "$(file $P/policy0/scaling_min_freq) $(file $P/policy0/scaling_max_freq)" "1800000 1800000" "lock_khz sets min and max"
is "$(tt get cpufreq/policy0/lock_khz)" "cpufreq/policy0/lock_khz=1800000" "lock_khz reads the locked value"
tt set cpufreq/policy0/lock_khz=off >/dev/null
is "$(file $P/policy0/scaling_min_freq) $(file $P/policy0/scaling_max_freq)" "408000 1800000" "lock_khz=off opens the full range"
tt restore >/dev/null
if pristine; then ok 0 "ordering tests restored"; else ok 1 "ordering tests restored"; show_diff; fi

# ---- RT runtime/period order
out=$(tt set --dry-run sched/rt_runtime_us=90000 sched/rt_period_us=100000 | awk '{print $6}')
is "$(echo $out)" "sched/rt_runtime_us: sched/rt_period_us:" "shrinking the window: runtime first"
out=$(tt set --dry-run sched/rt_period_us=2000000 sched/rt_runtime_us=1500000 | awk '{print $6}')
is "$(echo $out)" "sched/rt_period_us: sched/rt_runtime_us:" "growing past the period: period first"
out=$(tt set --dry-run sched/rt_runtime_us=-1 sched/rt_period_us=100000 | awk '{print $6}')
is "$(echo $out)" "sched/rt_runtime_us: sched/rt_period_us:" "unlimited runtime first"
tt set sched/rt_runtime_us=90000 sched/rt_period_us=100000 >/dev/null && tt undo >/dev/null
pristine; ok $? "rt window set and undone"

# ---- a value already in place is not written or journaled
out=$(tt set cpufreq/policy0/governor=interactive)
is "$out" "cpufreq/policy0/governor: already interactive" "already: reported"
is "$(tt journal)" "$(tt journal)" "journal readable"
like "$(tt journal)" "^ID" "journal lists"
n=$(tt journal --json | grep -c '"address"')
tt set cpufreq/policy0/governor=interactive >/dev/null
is "$(tt journal --json | grep -c '"address"')" "$n" "already: no journal entry"

# ---- RT group scheduling: EINVAL names the child groups holding runtime (issue 30) ----
RTR=$(copy_fixture rk3588)
mkdir -p "$RTR/sys/fs/cgroup/cpu/rt-app/inner" "$RTR/sys/fs/cgroup/cpu/idle"
echo 950000 >"$RTR/sys/fs/cgroup/cpu/cpu.rt_runtime_us"
echo 500000 >"$RTR/sys/fs/cgroup/cpu/rt-app/cpu.rt_runtime_us"
echo 100000 >"$RTR/sys/fs/cgroup/cpu/rt-app/inner/cpu.rt_runtime_us"
echo 0 >"$RTR/sys/fs/cgroup/cpu/idle/cpu.rt_runtime_us"
err=$(TUNETOP_TEST_FAULT="proc/sys/kernel/sched_rt_runtime_us=EINVAL" "$TUNETOP" --root "$RTR" \
	--state-dir "$TMPD/rtstate" set sched/rt_runtime_us=900000 2>&1 >/dev/null)
is "$?" 1 "rt_runtime_us EINVAL with RT groups: exit 1"
like "$err" "EINVAL .*RT group scheduling: 2 child groups hold RT runtime \\(/sys/fs/cgroup/cpu/rt-app/inner \\(100000 us\\), /sys/fs/cgroup/cpu/rt-app \\(500000 us\\)\\); lower theirs first .*then set sched/rt_runtime_us=900000" \
	"... names the child groups holding runtime (not the empty one) and what to change first"
is "$(echo "$err" | wc -l | tr -d ' ')" 1 "... in one line"
rm -rf "$RTR/sys/fs/cgroup"
err=$(TUNETOP_TEST_FAULT="proc/sys/kernel/sched_rt_runtime_us=EINVAL" "$TUNETOP" --root "$RTR" \
	--state-dir "$TMPD/rtstate" set sched/rt_runtime_us=900000 2>&1 >/dev/null)
unlike "$err" "RT group" "no RT groups: no group hint"

done_testing
