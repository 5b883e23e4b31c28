# SPDX-License-Identifier: GPL-2.0-or-later
# The x86-64 guest's batch (tests/qemu/x86.sh), sourced by guest.sh as /x86.sh
# after the common commands: acpi_idle with state0 POLL and state1 C1 from
# tests/qemu/c1.asl. Under the menu governor: set --verify and restore, the
# ground truth (probe and cyclictest alone, C1 enabled and disabled,
# alternated), the A/B and an A/A of the same knob. Then the ladder governor
# (switched through current_governor): set --verify, the usage counter
# while disabled, restore, and a short A/B.
cpu=/sys/devices/system/cpu
knob=$cpu/cpu1/cpuidle/state1/disable
# the probe's settings, the same for the truth and the A/B: CPU 1, 1 ms
ab_opts="--cpus 1 -i 1000 --window 1 --settle 200"

# stamp NAME: the guest's uptime, for the host's account of where time goes
stamp() { run "t-$1" cut -d' ' -f1 /proc/uptime; }

# every writable cpuidle file, as bytes: compared before set and after restore
files() { md5sum $cpu/cpu*/cpuidle/state*/disable $cpu/cpuidle/current_governor; }

governor() { # governor NAME: switch, and show what the kernel took
	echo "$1" >$cpu/cpuidle/current_governor
	run "gov-$1" cat $cpu/cpuidle/current_governor
}

# the effect watch: set with --verify, the counters around it, restore. A
# ticker on CPU 1 (100 wake-ups a second) makes it idle often during the
# watch: an idle CPU can otherwise sleep through the whole second in one
# stay, and the verdict is "unknown"
verify() { # verify GOVERNOR
	run "files-before-$1" files
	taskset -c 1 sh -c 'while :; do usleep 10000; done' &
	ticker=$!
	run "usage0-$1" cat $cpu/cpu1/cpuidle/state1/usage
	run "set-$1" tunetop set cpuidle/cpu1/state1/disable=1 --verify 1000
	run "usage1-$1" cat $cpu/cpu1/cpuidle/state1/usage
	sleep 1
	run "usage2-$1" cat $cpu/cpu1/cpuidle/state1/usage
	kill "$ticker"
	wait "$ticker" 2>/dev/null
	run "after-set-$1" cat $knob
	runj "journal-$1" tunetop journal --json
	run "restore-$1" tunetop restore
	run "files-after-$1" files
}

# truth ROUND VALUE: the knob set by hand, then the probe and cyclictest
# alone (cyclictest --laptop: it must not hold /dev/cpu_dma_latency at 0,
# which would keep every CPU out of C1 in both arms)
truth() {
	echo "$2" >$knob
	runj "truth-probe-$1-$2" tunetop probe --cpus 1 -i 1000 -D 3 --json
	cyclictest --laptop -q -m -t 1 -a 1 -p 95 -i 1000 -D 3 -h 100000 --json=/tmp/ct.json \
		>/dev/null 2>&1
	run "truth-ct-$1-$2" cat /tmp/ct.json
	rm -f /tmp/ct.json
}

mkdir -p /dev/shm
mount -t tmpfs tmpfs /dev/shm
stamp start
run governors cat $cpu/cpuidle/available_governors
governor menu
verify menu

stamp truth
# ground truth, alternated: 0 1, 1 0, 0 1
truth 1 0
truth 1 1
truth 2 1
truth 2 0
truth 3 0
truth 3 1
echo 0 >$knob
stamp ab
# shellcheck disable=SC2086
runj ab tunetop ab cpuidle/cpu1/state1/disable=0,1 $ab_opts --rounds 6 --json
# shellcheck disable=SC2086
runj aa tunetop ab --aa cpuidle/cpu1/state1/disable=0 $ab_opts --rounds 6 --json
run files-after-ab files
# why late (issue 29): the probe with its event capture (a tracefs instance
# of its own; tunetop mounts tracefs), C1 enabled, then disabled. Every
# wake-up over 1 us is attributed, not only those over the p99: the p99's
# few are mostly the host not running the vCPU, and need not start in C1
stamp why
echo 0 >$knob
runj why-0 tunetop probe --cpus 1 -i 1000 -D 3 --why --why-over 1 --json
echo 1 >$knob
runj why-1 tunetop probe --cpus 1 -i 1000 -D 3 --why --why-over 1 --json
echo 0 >$knob
# RT throttling (issue 29): an RT budget of 50 ms every 100 ms, used up by
# an RT busy loop of the test's own on CPU 1 (SCHED_FIFO 1, set through
# tunetop's thread knob; busybox has no chrt): CPU 1's rt runqueue is
# throttled for the rest of each period, and the probe (FIFO 95, the same
# runqueue) waits the throttled time out. The budget is the loop's, not the
# probe's own: a probe alone on a 200 us budget starved for seconds when its
# start-up ran over the budget (the kernel pays an overrun back 200 us per
# period), and got one sample in 5 s. CPU 1 idles while throttled (nothing
# else to run), and with a CFS busy loop on it, runs that; either way the
# wait is charged to the RT loop that used the budget up (switched out
# runnable for the idle task or the CFS loop). The budget is put
# back (the period first, it must stay >= the runtime). Writing /proc/sys is
# fine here: this is the guest.
stamp throttle
rt=/proc/sys/kernel
echo 50000 >$rt/sched_rt_runtime_us
echo 100000 >$rt/sched_rt_period_us
run rt-budget sh -c "echo \$(cat $rt/sched_rt_runtime_us) \$(cat $rt/sched_rt_period_us)"
taskset -c 1 sh -c 'while :; do :; done' &
rthog=$!
run rt-hog-pid echo $rthog
run rt-hog tunetop set --no-verify thread/$rthog/policy=fifo:1
runj throttle-idle tunetop probe --cpus 1 -i 1000 -D 2 --why --why-over 1000 --json
taskset -c 1 sh -c 'while :; do :; done' &
cfs=$!
run throttle-hog echo $cfs
runj throttle-cfs tunetop probe --cpus 1 -i 1000 -D 2 --why --why-over 1000 --json
kill $cfs $rthog
wait $cfs $rthog 2>/dev/null
echo 1000000 >$rt/sched_rt_period_us
echo 950000 >$rt/sched_rt_runtime_us
run rt-after sh -c "echo \$(cat $rt/sched_rt_runtime_us) \$(cat $rt/sched_rt_period_us)"
stamp ladder

governor ladder
verify ladder
# shellcheck disable=SC2086
runj ab-ladder tunetop ab cpuidle/cpu1/state1/disable=0,1 $ab_opts --rounds 3 --json
governor menu
stamp end
