#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ab of the probe in a world (issue 35, doc/teach.md "The probe in a
# world"): without --cmd or --metric-file, `ab` on a world's tree compares
# the world's simulated probe (not the host's): in rk3588-npu disabling
# cpu-sleep (220 us exit latency, taken on 9 of 10 wake-ups) is a
# significant decrease of the mean wake-up latency of about 0.9 x 220 =
# 198 us, the JSON says SIMULATED, the windows are simulated time run at
# once; an A/A of the same knob is not significant.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

t0=$(sed -n 's/^time_s //p' "$W/tunetop-world")
T ab 'cpuidle/0/cpu-sleep/disable=0,1' --window 0.3 --settle 100 --rounds 3 --json \
	>"$TMPD/ab.json" 2>"$TMPD/ab.err"
is "$?" 0 "ab of the probe in a world exits 0"
like "$(cat "$TMPD/ab.err")" "SIMULATED: world rk3588-npu .*simulated probe" "it says the probe is SIMULATED"
is "$(jq -r '.ab.simulated, .ab.world' "$TMPD/ab.json" | tr '\n' ' ')" "true rk3588-npu " \
	"the JSON is marked simulated, with the world"
is "$(jq -r '.ab.source' "$TMPD/ab.json")" probe "the source is the probe"
is "$(jq -r '[.arms[].samples] | add' "$TMPD/ab.json")" 3600 \
	"12 windows of 0.3 simulated s at 1 ms: 3600 simulated samples"
t1=$(sed -n 's/^time_s //p' "$W/tunetop-world")
ok "$(awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 4.8) }'; echo $?)" \
	"the world stepped by the windows and settle times ($t0 -> $t1 s)"
a=$(jq -r '.arms[] | select(.arm == "A") | .mean_us' "$TMPD/ab.json")
ok "$(between "$a" 190 235; echo $?)" "A (cpu-sleep enabled): the world's mean, about 212 us ($a)"
is "$(jq -r '.comparison.mean.significant' "$TMPD/ab.json")" true "the mean's difference is significant"
d=$(jq -r '.comparison.mean.diff' "$TMPD/ab.json")
ok "$(between "$d" -230 -170; echo $?)" "B - A of the mean: the model's -0.9 x 220 = -198 us ($d)"
is "$(jq -r '.comparison.p50.significant' "$TMPD/ab.json")" true "and the p50's"
is "$(cat "$W/sys/devices/system/cpu/cpu0/cpuidle/state1/disable")" 0 "cpu-sleep restored"

# the null A/B: the same value in both arms
T ab --aa 'cpuidle/0/cpu-sleep/disable=0' --window 0.3 --settle 100 --rounds 3 --json \
	>"$TMPD/aa.json" 2>"$TMPD/aa.err"
is "$?" 0 "the A/A exits 0"
is "$(jq -r '[.comparison.p99.significant, .comparison.p50.significant, .comparison.mean.significant] | map(tostring) | join(" ")' "$TMPD/aa.json")" \
	"false false false" "the A/A: no metric significant"
d=$(jq -r '.comparison.mean.diff' "$TMPD/aa.json")
ok "$(between "$d" -10 10; echo $?)" "its mean difference is within the noise ($d us)"
done_testing
