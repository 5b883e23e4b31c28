#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The probe in the world rk3588-npu (issue 35, doc/teach.md "The probe in a
# world"): under --root on a world `probe` gives the world's simulated
# wake-ups (SIMULATED in text and JSON, the samples of -D simulated seconds,
# the world stepped), and `probe --why` attributes its late samples with
# the attribution of a machine: with cpu-sleep enabled the idle exit of
# cpu-sleep leads, disabled through `set` it is gone and the wake-ups are
# faster by about its 220 us exit latency.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

t0=$(sed -n 's/^time_s //p' "$W/tunetop-world")
T probe -D 2 >"$TMPD/p.txt" 2>"$TMPD/p.err"
is "$?" 0 "probe in a world exits 0"
like "$(head -1 "$TMPD/p.txt")" "^tunetop probe: SIMULATED: world rk3588-npu" "the text says SIMULATED"
like "$(cat "$TMPD/p.txt")" "Histogram, CPU 0" "with the histogram"
t1=$(sed -n 's/^time_s //p' "$W/tunetop-world")
ok "$(awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 2) }'; echo $?)" \
	"the world stepped by the probe's 2 simulated s ($t0 -> $t1)"

T probe -D 2 --why --json >"$TMPD/on.json" 2>"$TMPD/on.err"
is "$?" 0 "probe --why --json in a world exits 0"
is "$(jq -r '.probe.simulated.world' "$TMPD/on.json")" rk3588-npu "the JSON names the world"
is "$(jq -r '.all.samples' "$TMPD/on.json")" 2000 "2 simulated s at 1 ms: 2000 samples"
is "$(jq -r '.why_capture.captured' "$TMPD/on.json")" false "no tracefs capture"
is "$(jq -r '.why.causes[0].kind + " " + .why.causes[0].name' "$TMPD/on.json")" "idle_exit cpu-sleep" \
	"cpu-sleep enabled: its idle exit is the first cause"
like "$(jq -r '.why.causes[0].fix' "$TMPD/on.json")" "state1/disable=1" "with the fix that disables it"
on=$(jq -r '.all.mean_us' "$TMPD/on.json")

T set 'cpuidle/*/cpu-sleep/disable=1' >/dev/null
T probe -D 2 --why --json >"$TMPD/off.json" 2>"$TMPD/off.err"
is "$?" 0 "probe --why after set exits 0"
is "$(jq -r '[.why.causes[] | select(.name == "cpu-sleep")] | length' "$TMPD/off.json")" 0 \
	"cpu-sleep disabled: no cause names it"
off=$(jq -r '.all.mean_us' "$TMPD/off.json")
ok "$(awk -v a="$on" -v b="$off" 'BEGIN { exit !(a - b > 150 && a - b < 230) }'; echo $?)" \
	"the mean wake-up is faster by about the exit latency ($on -> $off us)"
T probe -D 1 --why >"$TMPD/off.txt" 2>&1
like "$(cat "$TMPD/off.txt")" "why \\(SIMULATED\\)" "the text attribution says SIMULATED"
unlike "$(cat "$TMPD/off.txt")" "cpu-sleep" "and does not name cpu-sleep"
done_testing
