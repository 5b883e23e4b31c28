#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Lesson 2 (idle states) in the world rk3588-npu (issue 35 point 4): `learn
# 2 --auto` with --root on the world disables cpu-sleep, measures the
# world's probe before and after, and says "improved" of the wake-up
# latency alone, with the 95 % interval of the difference over the
# simulated samples entirely below 0; the idle counters (the knob's own
# effect) are not judged. The checker is seen to fail on a world whose
# probe ignores the knob (cpu0 has a second deep state the change leaves
# enabled).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/world/common.sh"

# the planted world (below) runs its lesson meanwhile: the lessons wait
# out their measuring windows in real time
W2="$TMPD/world2"
(
	"$TUNETOP" world rk3588-npu "$W2" >/dev/null 2>&1
	# cpu0 (the probe's CPU) gets a second deep state of the same exit
	# latency that the lesson's change leaves enabled
	c0="$W2/sys/devices/system/cpu/cpu0/cpuidle"
	cp -r "$c0/state1" "$c0/state2" && echo cpu-sleep-b >"$c0/state2/name"
	"$TUNETOP" --root "$W2" learn 2 --auto >"$TMPD/planted.out" 2>&1
) &
planted=$!
T learn 2 --auto >"$TMPD/learn.out" 2>"$TMPD/learn.err"
is "$?" 0 "learn 2 --auto on the world exits 0"
[ -s "$TMPD/learn.err" ] && diag "$(head -3 "$TMPD/learn.err")"
like "$(head -1 "$TMPD/learn.out")" "SIMULATED: world rk3588-npu" "the lesson says SIMULATED"
is "$(verdict "$TMPD/learn.out" "wake-up latency" us)" ok "the verdict: wake-ups significantly faster, improved said of them alone"
unlike "$(grep 'residency\|entries' "$TMPD/learn.out" | grep -v '^  [a-z]')" "improved" \
	"the idle counters are not judged"
like "$(cat "$TMPD/learn.out")" "SIMULATED: the board is the world rk3588-npu" "the verdict says the probe is the world's"
is "$(cat "$W/sys/devices/system/cpu/cpu0/cpuidle/state1/disable")" 0 "cpu-sleep restored"

# the checker fails when the probe does not follow the knob
wait $planted
like "$(cat "$TMPD/planted.out")" "cpuidle/cpu0/state1/disable: 0 -> 1" "planted: the change is made"
unlike "$(verdict "$TMPD/planted.out" "wake-up latency" us)" "^ok$" "planted (the probe ignores the knob): the checker fails"
"$TUNETOP" learn 2 --auto --demo=no-such-world >/dev/null 2>"$TMPD/nw.err"
is "$?" 2 "learn --demo=WORLD with an unknown world: usage error"
like "$(cat "$TMPD/nw.err")" "no-such-world: no such world" "naming it"
done_testing
