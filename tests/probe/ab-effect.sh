#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ab refuses a verdict on a knob the kernel does not obey (issue 21): on a
# copied stm32mp157, an emulated haltpoll kernel keeps entering CStop
# (state1) on CPU 1 whether or not it is disabled. The B windows
# (state1/disable=1) are marked "knob not in effect", the verdict says "no
# verdict" with the evidence, and the JSON has "conclusive": false and
# "effect": "not_seen". Where the kernel obeys (CStop stops growing while
# disabled, WFI grows), the same run gives a verdict again.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture stm32mp157)
d=$root/sys/devices/system/cpu/cpu1/cpuidle
echo 0 >"$d/state1/disable"
cp -a "$root" "$TMPD/before"

# put FILE VALUE: replace a counter in one step (a reader never sees it empty)
put() {
	echo "$2" >"$1.new" && mv -f "$1.new" "$1"
}
# kernel MODE: "ignore" enters state1 always; "obey" only while it is enabled
kernel() {
	(
		u0=$(cat "$d/state0/usage")
		u1=$(cat "$d/state1/usage")
		while [ ! -e "$TMPD/stop" ]; do
			if [ "$1" = ignore ] || [ "$(cat "$d/state1/disable")" = 0 ]; then
				u1=$((u1 + 5))
				put "$d/state1/usage" "$u1"
			else
				u0=$((u0 + 5))
				put "$d/state0/usage" "$u0"
			fi
			sleep 0.05
		done
	) &
	kpid=$!
}
stop_kernel() {
	touch "$TMPD/stop"
	wait "$kpid"
	rm -f "$TMPD/stop"
}
ab() {
	"$TUNETOP" --root "$root" --state-dir "$TMPD/st" ab cpuidle/cpu1/state1/disable=0,1 \
		--cmd true --window 1 --settle 1500 --rounds 3 "$@"
}

kernel ignore
out=$(ab 2>&1)
is "$?" 0 "ab runs to the end"
stop_kernel
like "$out" '  2 +1 B   1 .*\(knob not in effect\)' "the B windows are marked: knob not in effect"
like "$out" 'verdict: cpuidle/cpu1/state1/disable=1: no verdict: the knob was not in effect in [1-6] of the 6 B windows \(CStop \(state1\) entered [0-9]+ times on CPU 1 in [0-9.]+ s while disabled\)' \
	"no verdict, with the count of windows and the evidence"
printf '%s\n' "$out" | grep -Eq 'verdict: .*(significant|inconclusive)'
ok $((!$?)) "no comparison is called"
like "$out" 'restored: cpuidle/cpu1/state1/disable = 0' "restored"

kernel ignore
ab --json >"$TMPD/ab.json" 2>/dev/null
stop_kernel
is "$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]
print(c["conclusive"], c["effect"], c["not_in_effect_arm"], c["not_in_effect_windows"] > 0,
      "entered" in c["effect_evidence"])' "$TMPD/ab.json")" "False not_seen B True True" \
	"JSON: not conclusive, effect not_seen in arm B, with the evidence"
is "$(python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["windows"]
print("not_seen" in [x["effect"] for x in w if x["arm"] == "B"],
      all(x["effect"] != "not_seen" for x in w if x["arm"] == "A"))' "$TMPD/ab.json")" "True True" \
	"JSON: B windows not_seen, no A window not_seen"

kernel obey
out=$(ab 2>&1)
stop_kernel
printf '%s\n' "$out" | grep -q 'not in effect'
ok $((!$?)) "a kernel that obeys: no window marked"
like "$out" 'verdict: cpuidle/cpu1/state1/disable=1: ' "a kernel that obeys: a verdict line"
printf '%s\n' "$out" | grep -q 'verdict: .*no verdict'
ok $((!$?)) "a kernel that obeys: a verdict again, not 'no verdict'"

# the counters are the emulated kernel's, not knobs: put them back (the
# settle time of 1.5 s lets the emulated kernel, a shell loop that a loaded
# machine may starve, see each switch before a window measures)
cp "$TMPD/before/sys/devices/system/cpu/cpu1/cpuidle/state0/usage" "$d/state0/usage"
cp "$TMPD/before/sys/devices/system/cpu/cpu1/cpuidle/state1/usage" "$d/state1/usage"
if same_tree "$TMPD/before" "$root"; then ok 0 "the copy is as it was"; else
	ok 1 "the copy is as it was"
	diff -r "$TMPD/before" "$root" | head -5 | sed 's/^/# /'
fi
done_testing
