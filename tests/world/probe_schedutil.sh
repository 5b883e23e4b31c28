#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The probe in the world schedutil (issue 35, doc/teach.md "The probe in a
# world"): a timer wake-up on the camera board, not the key frame's time
# (which is its log's figure): 3 us + U(0, 2) us + 4000 cycles of kernel
# path at the clock the governor runs the cluster at for the pipeline's
# load (schedutil: the lowest OPP >= 1.25 x u x 1800 MHz, u ~ U(0, 1)),
# so 5..15 us, never an overflow at 1 ms; performance: 4000 / 1800 MHz,
# about 6.2 us; powersave: 4000 / 408 MHz, about 13.8 us.
. "$TT_SRCDIR/tests/lib.sh"
WORLD=schedutil
. "$TT_SRCDIR/tests/world/common.sh"
# run NAME: 1 simulated s of the probe, JSON in $TMPD/NAME.json
run() {
	T probe -D 1 --json >"$TMPD/$1.json" 2>"$TMPD/$1.err"
	is "$?" 0 "$1: probe exits 0"
}
f() { jq -r ".all.$2" "$TMPD/$1.json"; }

run su
is "$(jq -r '.probe.simulated.world' "$TMPD/su.json")" schedutil "the JSON names the world"
is "$(f su samples) $(f su overflows)" "1000 0" "schedutil: 1000 samples at 1 ms, none past the next deadline"
ok "$(between "$(f su min_us)" 5 6; echo $?)" "its fastest wake-up is at the top clock: 5..6 us ($(f su min_us))"
ok "$(between "$(f su max_us)" 12.8 15; echo $?)" "its slowest at 408 MHz: 12.8..15 us ($(f su max_us))"
ok "$(between "$(f su mean_us)" 7 10.5; echo $?)" "mean between: the clock follows the load ($(f su mean_us) us)"
T probe -D 1 >"$TMPD/su.txt" 2>&1
like "$(cat "$TMPD/su.txt")" "Histogram, CPU 0" "the text has the histogram"
unlike "$(sed -n '/Histogram/,$p' "$TMPD/su.txt")" "overflow|>= *1000" "with no overflow bucket"

T set cpufreq/policy0/governor=performance >/dev/null
run perf
ok "$(between "$(f perf max_us)" 5.2 7.3; echo $?)" "performance: every wake-up at 1800 MHz, 5.2..7.3 us (max $(f perf max_us))"
ok "$(between "$(f perf mean_us)" 5.9 6.5; echo $?)" "mean about 6.2 us ($(f perf mean_us))"

T set cpufreq/policy0/governor=powersave >/dev/null
run save
ok "$(between "$(f save min_us)" 12.8 13.9; echo $?)" "powersave: at 408 MHz, at least 12.8 us (min $(f save min_us))"
ok "$(between "$(f save mean_us)" 13.5 14.2; echo $?)" "mean about 13.8 us ($(f save mean_us))"
done_testing
