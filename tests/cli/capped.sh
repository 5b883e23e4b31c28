#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Thermal capping is marked on what it caps (issue 6): an active devfreq
# cooling device (devfreq-fb000000.gpu) marks that device and an active
# cpufreq cooling device (cpufreq-cpu4) marks policy4, as "thermal_capped"
# in the JSON and "CAPPED" in the text report; at cur_state 0 neither shows.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture rk3588)
cool="$root/sys/class/thermal"
is "$(cat "$cool/cooling_device3/type")" "devfreq-fb000000.gpu" "fixture: cooling_device3 is the GPU's"
is "$(cat "$cool/cooling_device1/type")" "cpufreq-cpu4" "fixture: cooling_device1 is policy4's"

# field BOARDJSON: "gpu=<capped> policy4=<capped> policy0=<capped> npu=<capped>"
caps() {
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
d = {x["name"]: x.get("thermal_capped", "missing") for x in s["devfreq"]}
p = {x["name"]: x.get("thermal_capped", "missing") for x in s["policies"]}
print("gpu=%s policy4=%s policy0=%s npu=%s" % (d.get("fb000000.gpu"), p.get("policy4"),
      p.get("policy0"), d.get("fdab0000.npu")))' "$1"
}

snap() { # a failure says why (stderr and status) in the log
	"$TUNETOP" --root "$root" --state-dir "$TMPD/st" snapshot --interval 0 --stable "$@" 2>"$TMPD/snap.err"
	_rc=$?
	[ "$_rc" -eq 0 ] || diag "snapshot $* exited $_rc: $(cat "$TMPD/snap.err")"
	return "$_rc"
}

snap --json >"$TMPD/a.json"
ok $? "snapshot --json at cur_state 0"
is "$(caps "$TMPD/a.json")" "gpu=False policy4=False policy0=False npu=False" \
	"cur_state 0: nothing thermal_capped"
snap >"$TMPD/a.txt"
grep -q CAPPED "$TMPD/a.txt"
ok $((!$?)) "cur_state 0: no CAPPED in the text report"

echo 2 >"$cool/cooling_device3/cur_state"
echo 2 >"$cool/cooling_device1/cur_state"
snap --json >"$TMPD/b.json"
ok $? "snapshot --json at cur_state 2"
is "$(caps "$TMPD/b.json")" "gpu=True policy4=True policy0=False npu=False" \
	"cur_state 2: the GPU and policy4 are thermal_capped, nothing else"
snap >"$TMPD/b.txt"
like "$(grep '^  fb000000.gpu' "$TMPD/b.txt")" 'CAPPED' "text: the GPU line says CAPPED"
like "$(grep '^  policy4 ' "$TMPD/b.txt")" 'CAPPED' "text: the policy4 line says CAPPED"
grep '^  policy0 ' "$TMPD/b.txt" | grep -q CAPPED
ok $((!$?)) "text: policy0 is not CAPPED"
grep '^  fdab0000.npu' "$TMPD/b.txt" | grep -q CAPPED
ok $((!$?)) "text: the NPU is not CAPPED"

echo 0 >"$cool/cooling_device3/cur_state"
echo 0 >"$cool/cooling_device1/cur_state"
snap --json >"$TMPD/c.json"
is "$(caps "$TMPD/c.json")" "gpu=False policy4=False policy0=False npu=False" \
	"back at cur_state 0: nothing thermal_capped"

done_testing
