#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Lessons 1, 3, 4 and 5 in their worlds (issue 35 point 4): each runs with
# --root on its world's tree (or --demo=world), makes its change through the
# knob engine and judges the latency it is about from the world's samples:
# lesson 1 (governor) and 3 (DDR and NPU clocks) the app's frame time
# (total: of var/log/infer.log), lesson 5 (pinning cyclictest's thread)
# cyclictest's latency from the world's probe: "improved", with the 95 %
# interval of the difference entirely below 0, and "improved" said of
# nothing else. Lesson 4 first makes the world's state it is about (the
# tree's pm_collector a runaway RT thread, FIFO 10, below L2's 50), then
# changes the throttling window to the note's 100000/90000 us: the RT class
# is throttled for the rest of each period, and the shorter window lowers
# the L2 wake-up latency (improved, as above). The planted world runs the
# runaway on another CPU than L2's (pm_collector on CPU 0, l2_tti on CPU
# 1): the throttling term never reaches L2 (doc/teach.md), and nothing may
# be called improved. Every knob, the runaway too, is restored byte for
# byte. The checker is seen
# to fail on a world whose frame time ignores the governor (every policy
# clamped to 408 MHz).
. "$TT_SRCDIR/tests/lib.sh"
WORLD_UNPACK=no
. "$TT_SRCDIR/tests/world/common.sh"
# knobs DIR FILE...: the knob files' contents, one after the other
knobs() {
	d=$1
	shift
	for f; do printf '%s: ' "$f"; cat "$d/$f"; done
}
CPU=sys/devices/system/cpu/cpufreq
GOV="$CPU/policy0/scaling_governor $CPU/policy4/scaling_governor $CPU/policy6/scaling_governor"
DEV="sys/class/devfreq/dmc/governor sys/class/devfreq/fdab0000.npu/governor"
RT="proc/sys/kernel/sched_rt_runtime_us proc/sys/kernel/sched_rt_period_us"
AFF="proc/1203/task/1204/status proc/1203/task/1204/stat"

world_unpack rk3588-npu "$TMPD/w1"
world_unpack rk3588-npu "$TMPD/w3"
world_unpack rk3588-npu "$TMPD/wp"
world_unpack rt-base-station "$TMPD/w4"
world_unpack rt-base-station "$TMPD/w4r"
world_unpack am5729-affinity "$TMPD/w5"
# the planted world: every policy clamped at the lowest OPP, so the
# governor cannot move the clock and the frame time ignores the change
for p in "$TMPD"/wp/$CPU/policy*; do echo 408000 >"$p/scaling_max_freq"; done
knobs "$TMPD/w1" $GOV >"$TMPD/k1.before"
knobs "$TMPD/w3" $DEV >"$TMPD/k3.before"
# the planted world: the runaway (once the lesson makes it) away from L2's CPU
"$TUNETOP" --root "$TMPD/w4" set thread/1502/affinity=1 thread/1610/affinity=0 >/dev/null 2>"$TMPD/set4.err"
is "$?" 0 "planted: l2_tti on CPU 1, pm_collector on CPU 0 $(cat "$TMPD/set4.err")"
knobs "$TMPD/w4" $RT >"$TMPD/k4.before"
knobs "$TMPD/w4r" $RT proc/1610/stat proc/1610/task/1610/stat >"$TMPD/k4r.before"
knobs "$TMPD/w5" $AFF >"$TMPD/k5.before"

# the lessons wait out their counters' windows in real time: all at once
for n in 1 3 4 4r 5 p; do
	case $n in p) l=1 ;; 4r) l=4 ;; *) l=$n ;; esac
	"$TUNETOP" --root "$TMPD/w$n" learn $l --auto </dev/null >"$TMPD/l$n.out" 2>"$TMPD/l$n.err" &
done
"$TUNETOP" learn 5 --auto --demo=world </dev/null >"$TMPD/d5.out" 2>"$TMPD/d5.err"
is "$?" 0 "learn 5 --demo=world exits 0"
wait

for n in 1 3 4 4r 5; do
	[ -s "$TMPD/l$n.err" ] && diag "lesson $n: $(head -3 "$TMPD/l$n.err")"
done
like "$(head -1 "$TMPD/l1.out")" "SIMULATED: world rk3588-npu" "lesson 1 says SIMULATED"
like "$(cat "$TMPD/l1.out")" "cpufreq/policy0/governor: interactive -> performance" "lesson 1: the governor changed"
is "$(verdict "$TMPD/l1.out" 'frame time total' ms)" ok "lesson 1: the frame time significantly shorter, improved said of it alone"
unlike "$(grep '^  - ' "$TMPD/l1.out" | grep -v '^  - frame time')" ": improved" "lesson 1: the clocks are not judged"
is "$(knobs "$TMPD/w1" $GOV)" "$(cat "$TMPD/k1.before")" "lesson 1: the governors restored byte for byte"

like "$(cat "$TMPD/l3.out")" "devfreq/dmc/governor: dmc_ondemand -> performance" "lesson 3: the DDR governor changed"
is "$(verdict "$TMPD/l3.out" 'frame time total' ms)" ok "lesson 3: the frame time significantly shorter, improved said of it alone"
is "$(knobs "$TMPD/w3" $DEV)" "$(cat "$TMPD/k3.before")" "lesson 3: the devfreq governors restored byte for byte"

like "$(head -1 "$TMPD/l4.out")" "SIMULATED: world rt-base-station" "lesson 4 runs in rt-base-station"
like "$(cat "$TMPD/l4.out")" "sched/rt_period_us: 1000000 -> 100000" "lesson 4: the note's window"
like "$(cat "$TMPD/l4.out")" "  - L2 wake-up latency mean \(probe, l2_tti\): [0-9.]+ us -> [0-9.]+ us" \
	"lesson 4: the L2 wake-up latency is judged"
unlike "$(cat "$TMPD/l4.out")" ": improved" "lesson 4, planted (the runaway off L2's CPU): the window changes nothing there, and nothing is called improved"
is "$(knobs "$TMPD/w4" $RT)" "$(cat "$TMPD/k4.before")" "lesson 4, planted: the RT window restored byte for byte"
like "$(sed -n '/state this lesson is about/,/Measuring before/p' "$TMPD/l4r.out")" "thread/1610/policy: other -> fifo:10" \
	"lesson 4 makes its world's state first: pm_collector a runaway RT thread"
like "$(cat "$TMPD/l4r.out")" "sched/rt_runtime_us: 950000 -> 90000" "lesson 4: the note's window"
is "$(verdict "$TMPD/l4r.out" 'L2 wake-up latency' us)" ok "lesson 4: the L2 wake-up latency significantly lower, improved said of it alone"
is "$(knobs "$TMPD/w4r" $RT proc/1610/stat proc/1610/task/1610/stat)" "$(cat "$TMPD/k4r.before")" \
	"lesson 4: the RT window and the runaway restored byte for byte"

like "$(cat "$TMPD/l5.out")" "thread/1204/affinity: 0-1 -> 1" "lesson 5 pins the tree's cyclictest thread"
unlike "$(cat "$TMPD/l5.out")" "worker thread: tid" "lesson 5 in its world starts no worker of its own"
is "$(verdict "$TMPD/l5.out" 'cyclictest latency' us)" ok "lesson 5: cyclictest's latency significantly lower, improved said of it alone"
is "$(knobs "$TMPD/w5" $AFF)" "$(cat "$TMPD/k5.before")" "lesson 5: the thread's affinity restored byte for byte"
like "$(head -1 "$TMPD/d5.out")" "SIMULATED: world am5729-affinity" "--demo=world: lesson 5 in its own world"
is "$(verdict "$TMPD/d5.out" 'cyclictest latency' us)" ok "--demo=world: the same verdict"

like "$(cat "$TMPD/lp.out")" "cpufreq/policy0/governor: interactive -> performance" "planted: the change is made"
unlike "$(verdict "$TMPD/lp.out" 'frame time total' ms)" "^ok$" "planted (the frame time ignores the governor): the checker fails"
unlike "$(cat "$TMPD/lp.out")" ": improved" "planted: nothing called improved"
done_testing
