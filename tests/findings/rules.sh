#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each finding fires on a fixture variant built to trigger it and stays
# silent on a tuned one; the fixes are valid knob assignments that the
# journal applies and restores byte for byte.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/findings/common.sh"

# --- RK3588 as shipped: governor collapse and cpu-sleep, both degraded (no threads)
r=$(copy_fixture rk3588)
f=$(findings "$r")
has "$f" "governor-collapse info" "rk3588: clusters parked at 408 MHz (info without thread data)"
has "$f" "idle-exit-latency info" "rk3588: cpu-sleep 220 us > 100 us budget (info without thread data)"
hasnt "$f" devfreq-starved "rk3588: NPU load 0%: DDR not starving anything"
hasnt "$f" rt-throttling "rk3588: no RT throttling"
hasnt "$f" cooling-active "rk3588: no active cooling"
hasnt "$f" thp-always "rk3588: THP madvise"
json=$("$TUNETOP" --root "$r" snapshot --interval 0 --stable --json)
like "$json" '"evidence":"[^"]*97\.0% of the time there since boot' "evidence carries the numbers"
like "$json" '"fix":\["cpufreq/policy0/governor=performance","cpufreq/policy4/governor=performance"' \
	"fix is a list of address=value"
like "$json" '"degraded":true' "degraded rules say so"
txt=$("$TUNETOP" --root "$r" snapshot --interval 0 --stable)
like "$txt" 'findings' "text report has a findings section"
like "$txt" 'fix: cpuidle/0-7/cpu-sleep/disable=1' "text report lists the fix"

# --- NPU busy: the collapse signature (warn) and DDR starving the NPU
npu_busy "$r" 65
f=$(findings "$r")
has "$f" "governor-collapse warn" "NPU 65% busy while CPUs idle at 408 MHz: warn"
has "$f" "devfreq-starved warn" "NPU busy, dmc at 534 of 2400 MHz: devfreq-starved"
dmc=$r/sys/devices/platform/dmc/devfreq/dmc
cp "$dmc/cur_freq" "$TMPD/dmc.cur"
echo 1968000000 >"$dmc/cur_freq"
hasnt "$(findings "$r")" devfreq-starved "NPU busy, dmc at 1968 of 2400 MHz: not starved"
cp "$TMPD/dmc.cur" "$dmc/cur_freq"
is "$(fixes "$r" devfreq-starved)" "devfreq/dmc/governor=performance" "fix: dmc performance"

# --- apply the fixes of the collapse and idle findings through the journal
st=$TMPD/state-fix
set -- $(fixes "$r" governor-collapse) $(fixes "$r" idle-exit-latency)
is "$#" 4 "four fixes (three governors, one cpuidle list)"
"$TUNETOP" --root "$r" --state-dir "$st" set "$@" >"$TMPD/set.out" 2>&1
ok $? "tunetop set applies the fixes"
f=$(findings "$r")
hasnt "$f" idle-exit-latency "after the fix: cpu-sleep disabled everywhere"
# (a fixture's clock does not move: 408 MHz under performance with nothing
# visible holding it makes no claim)
hasnt "$(findings "$r")" governor-collapse "after the fix: governors are performance"
echo 408000 >"$r/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq"
like "$("$TUNETOP" --root "$r" snapshot --interval 0 --stable)" \
	"scaling_max_freq clamps policy4 at 408 MHz \(its top OPP is 2256 MHz\)" \
	"a max clamp holds policy4 at 408 MHz under performance: named"
like "$("$TUNETOP" --root "$r" snapshot --interval 0 --stable --json)" \
	'"held":"scaling_max_freq clamps policy4 at 408 MHz' "and in the JSON as held"
cp "$FIXTURES/rk3588/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq" \
	"$r/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq"
"$TUNETOP" --root "$r" --state-dir "$st" restore >/dev/null 2>&1
ok $? "restore"
npu_busy "$r" 0
same_tree "$FIXTURES/rk3588" "$r"
ok $? "restored tree is byte-identical to the fixture"

# --- tuned RK3588 (step D), even with the NPU busy: silent
t=$(copy_fixture rk3588)
make_tuned "$t"
npu_busy "$t" 65
f=$(findings "$t")
is "$f" "" "tuned rk3588: no findings"
like "$("$TUNETOP" --root "$t" snapshot --interval 0 --stable --json)" '"findings":\[\]' \
	"tuned: empty findings array"

# --- PM QoS already forbids cpu-sleep (4-byte binary 50 us): idle rule silent
q=$(copy_fixture rk3588)
mkdir -p "$q/dev"
printf '\062\000\000\000' >"$q/dev/cpu_dma_latency"
hasnt "$(findings "$q")" idle-exit-latency "cpu_dma_latency 50 us held: cpu-sleep unusable, silent"

# --- RT time near the limit (900 of 950 ms on cpu2): warn
n=$(copy_fixture rk3588)
sed -i '/^rt_rq\[2\]:/,/^$/ s/\.rt_time  *: .*/.rt_time                       : 900.000000/' \
	"$n/sys/kernel/debug/sched/debug"
has "$(findings "$n")" "rt-throttling warn" "rt_time 900 of 950 ms: near the limit"

# --- STM32MP157 (PREEMPT_RT): ctrl-loop throttled on CPU 1
s=$(copy_fixture stm32mp157)
f=$(findings "$s")
has "$f" "rt-throttling crit" "stm32mp157: RT throttling engaged on CPU 1"
is "$(fixes "$s" rt-throttling | tr '\n' ' ')" "sched/rt_runtime_us=90000 sched/rt_period_us=100000 " \
	"fix: a 100000/90000 window, runtime first"
hasnt "$f" isolated-intruders "stm32mp157: device IRQs on CPU 0 only"
"$TUNETOP" --root "$s" --state-dir "$TMPD/state-rt" set --dry-run $(fixes "$s" rt-throttling) >/dev/null 2>&1
ok $? "the window fix validates in the knob engine"

# --- eth0 moved onto the isolated CPU 1
sed -i 's/^ 56:      88412          0/ 56:      88412       5000/' "$s/proc/interrupts"
echo 1 >"$s/proc/irq/56/smp_affinity_list"
echo 1 >"$s/proc/irq/56/effective_affinity_list"
has "$(findings "$s")" "isolated-intruders warn" "eth0 on isolated CPU 1: intruder"
is "$(fixes "$s" isolated-intruders)" "irq/56/affinity=0" "fix: move it to housekeeping CPU 0"
# --- by configuration: the display controller pinned to CPU 1 never fired
# (and has only smp_affinity_list, writable): flagged all the same
p=$(copy_fixture stm32mp157)
rm -f "$p/proc/irq/60/smp_affinity"
echo 1 >"$p/proc/irq/60/smp_affinity_list"
has "$(findings "$p")" "isolated-intruders warn" "IRQ 60 pinned to isolated CPU 1, never fired: intruder"
is "$(fixes "$p" isolated-intruders)" "irq/60/affinity=0" "fix: move it (only smp_affinity_list, writable)"
like "$("$TUNETOP" --root "$p" snapshot --interval 0 --stable 2>&1)" "60 5a001000.display-controller \(affinity\)" \
	"evidence: by its affinity"

# --- an active cooling device; crit once it caps a performance policy
c=$(copy_fixture rk3588)
echo 3 >"$c/sys/devices/virtual/thermal/cooling_device1/cur_state"
has "$(findings "$c")" "cooling-active warn" "cpufreq-cpu4 cooling at 3/10: warn"
echo performance >"$c/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"
has "$(findings "$c")" "cooling-active crit" "cooling over a performance policy: crit"

# --- THP always
h=$(copy_fixture rk3588)
echo 'always [madvise] never' | sed 's/always \[madvise\]/[always] madvise/' \
	>"$h/sys/kernel/mm/transparent_hugepage/enabled"
has "$(findings "$h")" "thp-always info" "THP always: info (no thread data)"
is "$(fixes "$h" thp-always)" "mm/thp=madvise" "fix: madvise"

# --- the other boards: findings present and parseable
for b in intel rpi4 broken; do
	x=$(copy_fixture $b)
	"$TUNETOP" --root "$x" snapshot --interval 0 --stable --json >"$TMPD/$b.json" 2>/dev/null
	ok $? "$b: snapshot --json with findings"
	grep -q '"findings":\[' "$TMPD/$b.json"
	ok $? "$b: carries a findings array"
done
has "$(findings "$(copy_fixture intel)")" "idle-exit-latency info" "intel: C6 170 us > 100 us"
i=$(copy_fixture intel)
f=$(findings "$i")
hasnt "$f" governor-collapse "intel_pstate HWP in powersave: not a governor collapse"
has "$f" "hwp-epp info" "intel: an informational EPP note instead"
json=$("$TUNETOP" --root "$i" snapshot --interval 0 --stable --json)
unlike_json() { printf '%s' "$json" | grep -Eq -- "$1"; }
unlike_json '"evidence":"[^"]*(RK3588|B4860|AM5729|rknn)'
is $? 1 "intel: no reference case quoted in the evidence"

# --- --latency-budget: the budget the idle exit latencies are judged by
# (the TUI's latency_budget_us): cpu-sleep's 220 us fires above it only
budget() { # ROOT US
	"$TUNETOP" --root "$1" snapshot --interval 0 --stable --json --latency-budget "$2" 2>/dev/null |
		grep -o '"id":"[^"]*","severity":"[^"]*"' |
		sed 's/"id":"\([^"]*\)","severity":"\([^"]*\)"/\1 \2/'
}
r=$(copy_fixture rk3588)
has "$(budget "$r" 219)" "idle-exit-latency info" "--latency-budget 219: cpu-sleep 220 us fires"
hasnt "$(budget "$r" 220)" idle-exit-latency "--latency-budget 220: cpu-sleep 220 us is within"
hasnt "$(budget "$r" 500)" idle-exit-latency "--latency-budget 500: silent"
"$TUNETOP" --root "$r" snapshot --interval 0 --latency-budget 500 >"$TMPD/b.txt" 2>&1
grep -q 'idle-exit-latency' "$TMPD/b.txt"
is $? 1 "--latency-budget in the text report too"
for bad in 0 -5 abc 10000001 ''; do
	"$TUNETOP" --root "$r" snapshot --interval 0 --latency-budget "$bad" >/dev/null 2>"$TMPD/err"
	is $? 2 "--latency-budget '$bad': exit 2"
	like "$(cat "$TMPD/err")" "--latency-budget wants microseconds" "--latency-budget '$bad': says why"
done
"$TUNETOP" --root "$r" watch -i 50 -n 2 --json --latency-budget 500 --record "$TMPD/w.jsonl" >/dev/null
ok $? "watch --latency-budget --record"
grep '"type":"sample"' "$TMPD/w.jsonl" | grep -q '"id":"governor-collapse"' &&
	! grep -q '"id":"idle-exit-latency"' "$TMPD/w.jsonl"
ok $? "watch --record: the recorded findings use the budget"
done_testing
