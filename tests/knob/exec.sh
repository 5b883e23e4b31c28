#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop exec: apply, run CMD with affinity/scheduling, hold the PM QoS
# lease, forward signals, restore, exit with CMD's status; SIGKILL leaves
# orphaned entries for `restore`, SIGTERM restores by itself.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

P=sys/devices/system/cpu/cpufreq
D=sys/class/devfreq

# wait_file FILE: up to 5 s for a file to appear
wait_file() {
	_i=0
	while [ ! -s "$1" ] && [ "$_i" -lt 100 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	[ -s "$1" ]
}

# ---- the profile is in place while CMD runs and gone afterwards
fresh rk3588
out=$(tt exec -p rk3588-npu cpufreq/policy0/governor=powersave -- \
	sh -c 'cat "$0/'$P'/policy4/scaling_governor" "$0/'$P'/policy0/scaling_governor" "$0/'$D'/dmc/governor" "$0/'$D'/fdab0000.npu/governor" "$0/sys/devices/system/cpu/cpu7/cpuidle/state1/disable"' "$root" 2>"$TMPD/err")
is "$?" 0 "exec exits with CMD's status 0"
is "$(echo $out)" "performance powersave performance performance 1" "CMD sees the profile and the extra knob applied"
like "$(cat "$TMPD/err")" "tunetop exec: cpufreq/policy4/governor: interactive -> performance" "exec reports what it applied on stderr"
like "$(cat "$TMPD/err")" "tunetop exec: cpufreq/policy4/governor: performance -> interactive \\(restored\\)" "and what it restored"
if pristine; then ok 0 "tree restored after CMD exits"; else ok 1 "tree restored after CMD exits"; show_diff; fi
is "$(tt restore)" "nothing to restore" "nothing left in the journal"

# ---- exit status
fresh rk3588
tt exec mm/thp=never -- sh -c 'exit 3' 2>/dev/null
is "$?" 3 "exit code of CMD is passed through"
tt exec mm/thp=never -- sh -c 'kill -TERM $$' 2>/dev/null
is "$?" 143 "CMD killed by SIGTERM: 128 + 15"
out=$(tt exec -q mm/thp=never -- echo hello 2>&1)
is "$out" "hello" "-q: CMD's output only"
out=$(tt exec mm/thp=never -- echo hello 2>/dev/null)
is "$out" "hello" "tunetop's messages do not go to CMD's stdout"
out=$(tt exec mm/thp=never -- "$TMPD/no-such-program" 2>&1)
is "$?" 127 "missing program: 127"
like "$out" "no-such-program: ENOENT" "says so"
pristine; ok $? "restored after every run"
tt exec 2>/dev/null
is "$?" 2 "no command: exit 2"
out=$(tt exec cpufreq/policy4/governor=turbo -- touch "$TMPD/marker" 2>&1)
is "$?" 2 "bad knob: exit 2"
like "$out" "'turbo' is not in available governors" "says why"
[ ! -e "$TMPD/marker" ]; ok $? "CMD is not started when the knobs are bad"
out=$(tt exec --fifo 0 -- true 2>&1)
is "$?" 2 "--fifo 0: exit 2"
like "$out" "priority must be 1..99" "says the range"
out=$(tt exec --cpus 4096 -- true 2>&1)
is "$?" 2 "--cpus beyond the machine: exit 2"
out=$(tt exec --dry-run -p rk3588-npu -- true 2>&1)
is "$?" 0 "exec --dry-run exits 0"
like "$out" "echo performance > $root/$P/policy4/scaling_governor" "dry run shows the writes"
like "$out" "would run: true" "and the command"
pristine; ok $? "dry run changed nothing"

# ---- affinity and scheduling are applied to CMD (live syscalls on our own child)
fresh rk3588
out=$(tt exec --cpus 0 -- sh -c 'taskset -p $$' 2>&1)
like "$out" "current affinity (list|mask): (0|1)$" "--cpus 0: CMD runs on CPU 0"
out=$(tt exec --nice 7 -- sh -c 'cut -d" " -f19 /proc/$$/stat' 2>&1)
is "$out" "7" "--nice 7: CMD's nice value"
out=$(tt exec --fifo 10 -- sh -c 'chrt -p $$' 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && printf '%s' "$out" | grep -q 'sched_setscheduler'; then
	skip "--fifo 10: CMD runs SCHED_FIFO 10" "RT scheduling refused here: $out"
else
	like "$out" "policy: SCHED_FIFO" "--fifo 10: CMD runs SCHED_FIFO"
	like "$out" "priority: 10" "--fifo 10: at priority 10"
fi
out=$(tt exec --rr 5 --nice 1 -- true 2>&1)
is "$?" 2 "--rr with --nice: exit 2"

# ---- the PM QoS lease: 4-byte binary int32 while CMD runs, released after
fresh rk3588
mkdir -p "$root/dev"
printf '\000\224\065\167' >"$root/dev/cpu_dma_latency" # 2000000000, little endian
cp -a "$root" "$TMPD/ref-lease"
is "$(tt get pmqos/cpu_dma_latency_us)" "pmqos/cpu_dma_latency_us=2000000000" "lease value reads as binary int32"
out=$(tt exec pmqos/cpu_dma_latency_us=0 -- od -An -tx1 "$root/dev/cpu_dma_latency" 2>/dev/null)
is "$(echo $out)" "00 00 00 00" "CMD sees exactly 4 bytes: int32 0"
if pristine "$TMPD/ref-lease"; then ok 0 "lease released after CMD"; else ok 1 "lease released"; show_diff "$TMPD/ref-lease"; fi
out=$(tt exec pmqos/cpu_dma_latency_us=20 -- sh -c 'od -An -td4 "$0"' "$root/dev/cpu_dma_latency" 2>/dev/null)
is "$(echo $out)" "20" "value 20 us"

# ---- SIGKILL while CMD runs: entries stay, journal shows them orphaned, restore fixes
fresh rk3588
rm -f "$TMPD/cmdpid"
"$TUNETOP" --root "$root" --state-dir "$STATE" exec -p rk3588-npu -- \
	sh -c 'echo $$ >"$0"; exec sleep 30' "$TMPD/cmdpid" >/dev/null 2>&1 &
ex=$!
wait_file "$TMPD/cmdpid"; ok $? "CMD started"
kill -KILL "$ex"
wait "$ex" 2>/dev/null
is "$?" 137 "exec was killed"
is "$(file $P/policy4/scaling_governor)" "performance" "the profile is still in place after SIGKILL"
j=$(tt journal)
like "$j" "orphaned .*cpufreq/policy4/governor: interactive -> performance" "journal shows the open entries as orphaned"
like "$j" "entries are orphaned .*'tunetop restore --orphans'" "and says how to fix it"
tt restore >/dev/null
ok $? "restore exits 0"
if pristine; then ok 0 "restore after SIGKILL: tree as before"; else ok 1 "restore after SIGKILL"; show_diff; fi
kill "$(cat "$TMPD/cmdpid")" 2>/dev/null
# the app's cgroup (tunetop-exec-PID, exec follows the app) outlives a
# killed exec; the next exec removes it once empty
own=$(awk '/ - cgroup2 / { print $5; exit }' /proc/self/mountinfo)$(sed -n 's/^0:://p' /proc/self/cgroup)
own=${own%/}
_i=0
while [ "$_i" -lt 100 ] && [ -d "$own/tunetop-exec-$ex" ]; do
	tt exec mm/thp=never -- true 2>/dev/null
	sleep 0.1
	_i=$((_i + 1))
done
[ ! -d "$own/tunetop-exec-$ex" ]
ok $? "the killed run's empty cgroup is removed by the next exec"

# ---- SIGTERM to exec: forwarded to CMD, then exec restores by itself
fresh rk3588
rm -f "$TMPD/cmdpid"
"$TUNETOP" --root "$root" --state-dir "$STATE" exec -p rk3588-npu sched/rt_runtime_us=-1 -- \
	sh -c 'echo $$ >"$0"; exec sleep 30' "$TMPD/cmdpid" >/dev/null 2>"$TMPD/err" &
ex=$!
wait_file "$TMPD/cmdpid"; ok $? "CMD started"
is "$(file proc/sys/kernel/sched_rt_runtime_us)" "-1" "applied while CMD runs"
kill -TERM "$ex"
wait "$ex"
is "$?" 143 "exec exits 128 + SIGTERM (CMD got the forwarded signal)"
kill -0 "$(cat "$TMPD/cmdpid")" 2>/dev/null; ok $((!$?)) "CMD is gone"
if pristine; then ok 0 "SIGTERM: exec restored everything itself"; else ok 1 "SIGTERM restore"; show_diff; fi
like "$(cat "$TMPD/err")" "\\(restored\\)" "and said so"

# ---- SIGHUP likewise
fresh rk3588
rm -f "$TMPD/cmdpid"
"$TUNETOP" --root "$root" --state-dir "$STATE" exec mm/thp=never -- \
	sh -c 'echo $$ >"$0"; exec sleep 30' "$TMPD/cmdpid" >/dev/null 2>&1 &
ex=$!
wait_file "$TMPD/cmdpid"
kill -HUP "$ex"
wait "$ex"
is "$?" 129 "SIGHUP forwarded: 128 + 1"
pristine; ok $? "SIGHUP: restored"

done_testing
