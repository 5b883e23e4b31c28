#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The accelerator's side and power in snapshot (issue 17, items 3 and 7):
# rknpu load per core and driver version on the rk3588 fixture (present),
# removed (absent) and garbage (broken); hwmon ina226 power, SCMI energy
# and RAPL energy_uj in copies of the fixtures (present, absent, broken:
# garbage, a counter that goes back). watch gives the energy counters two
# samples; a writer moves them between the samples.
. "$TT_SRCDIR/tests/lib.sh"

j() { # j FILE PYTHON-EXPR(d) : print an expression over the JSON document
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- accelerator: present ----------------------------------------------------
root=$(copy_fixture rk3588)
"$TUNETOP" --root "$root" snapshot --interval 0 --json >"$TMPD/a.json"
ok $? "rk3588: snapshot --json"
is "$(j "$TMPD/a.json" 'd["accel"]["npu_load_pct"]')" "[0, 0, 0]" "rknpu load: three cores at 0%"
is "$(j "$TMPD/a.json" 'd["accel"]["driver_version"]')" "v0.9.8" "rknpu driver version"
is "$(j "$TMPD/a.json" '[(x["name"],x["kind"],x["load_pct"],x["freq_hz"]) for x in d["accel"]["devices"]]')" \
	"[('fb000000.gpu', 'gpu', 0, 300000000), ('fdab0000.npu', 'npu', 0, 1000000000)]" \
	"devfreq load files: GPU and NPU, percent and Hz"
"$TUNETOP" --root "$root" snapshot --interval 0 >"$TMPD/a.txt"
like "$(cat "$TMPD/a.txt")" 'Accelerator  driver rknpu v0.9.8 \(/sys/kernel/debug/rknpu/version\)' "text: Accelerator section with the version"
like "$(cat "$TMPD/a.txt")" 'NPU load \(rknpu debugfs\): core0 0% core1 0% core2 0%' "text: per-core load"

# broken: garbage in the load file
printf 'NPU load:  Core0: ??%%\n' >"$root/sys/kernel/debug/rknpu/load"
"$TUNETOP" --root "$root" snapshot --interval 0 --json >"$TMPD/b.json"
ok $? "broken load: snapshot still works"
is "$(j "$TMPD/b.json" '(d["accel"]["npu_load_pct"], d["accel"]["npu_load_error"])')" "(None, 'EINVAL')" \
	"broken load: null with EINVAL"

# absent: no rknpu at all
rm -rf "$root/sys/kernel/debug/rknpu"
"$TUNETOP" --root "$root" snapshot --interval 0 --json >"$TMPD/c.json"
is "$(j "$TMPD/c.json" '(d["accel"]["npu_load_pct"], d["accel"]["npu_load_error"], d["accel"]["driver_version"])')" \
	"(None, 'ENOENT', None)" "absent rknpu: null, ENOENT, no version"
root2=$(copy_fixture intel)
"$TUNETOP" --root "$root2" snapshot --interval 0 >"$TMPD/i.txt"
unlike "$(cat "$TMPD/i.txt")" 'Accelerator|^Power' "intel fixture: no accelerator, no power section"
"$TUNETOP" --root "$root2" snapshot --interval 0 --json >"$TMPD/i.json"
is "$(j "$TMPD/i.json" '(d["power"], d["accel"]["devices"])')" "([], [])" "intel fixture: power [] and no devices"

# ---- power: present ------------------------------------------------------------
hw="$root/sys/class/hwmon/hwmon9"
mkdir -p "$hw"
echo ina226 >"$hw/name"
echo 2500000 >"$hw/power1_input"
echo vdd_npu >"$hw/power1_label"
echo 1000000 >"$hw/energy1_input"
echo vdd_cpu_big >"$hw/energy1_label"
rapl="$root2/sys/class/powercap"
mkdir -p "$rapl/intel-rapl:0"
echo package-0 >"$rapl/intel-rapl:0/name"
echo 262143328000 >"$rapl/intel-rapl:0/energy_uj"
echo 262143328850 >"$rapl/intel-rapl:0/max_energy_range_uj"

"$TUNETOP" --root "$root" snapshot --interval 0 --json >"$TMPD/p.json"
is "$(j "$TMPD/p.json" '[(x["name"],x["source"],x["kind"],x["watts"]) for x in d["power"]]')" \
	"[('ina226 vdd_cpu_big', 'hwmon', 'energy', None), ('ina226 vdd_npu', 'hwmon', 'power', 2.5)]" \
	"ina226: power1 2.5 W, energy1 n/a on one sample"
"$TUNETOP" --root "$root" snapshot --interval 0 >"$TMPD/p.txt"
like "$(cat "$TMPD/p.txt")" 'ina226 vdd_npu +hwmon +2\.500 W' "text: power line"
like "$(cat "$TMPD/p.txt")" 'ina226 vdd_cpu_big +hwmon +n/a \(energy counter: needs two samples\)' "text: energy needs two samples"

# two samples with the counters moving in between (watch -n 2): a writer
# adds energy while watch waits; RAPL wraps around its range
rm -f "$TMPD/stop"
( i=0; while [ ! -e "$TMPD/stop" ] && [ $i -lt 6000 ]; do
	echo $((1000000 + i * 100000)) >"$hw/energy1_input.tmp" && mv "$hw/energy1_input.tmp" "$hw/energy1_input"
	echo $((i * 1000)) >"$rapl/intel-rapl:0/energy_uj.tmp" && mv "$rapl/intel-rapl:0/energy_uj.tmp" "$rapl/intel-rapl:0/energy_uj"
	i=$((i + 1)); sleep 0.05; done ) &
wpid=$!
"$TUNETOP" --root "$root" watch --json -i 1000 -n 2 >"$TMPD/w.jsonl"
ok $? "watch -n 2 with a moving energy counter"
"$TUNETOP" --root "$root2" watch --json -i 1000 -n 2 >"$TMPD/r.jsonl"
ok $? "watch -n 2 with a wrapping RAPL counter"
touch "$TMPD/stop"
wait $wpid
is "$(python3 -c '
import json,sys
l=[json.loads(x) for x in open(sys.argv[1])]
w=[p["watts"] for p in l[1]["power"] if p["name"]=="ina226 vdd_cpu_big"][0]
print(w is not None and w > 0, [p["counter_reset"] for p in l[1]["power"]])' "$TMPD/w.jsonl")" "True [False, False]" \
	"energy counter: positive watts on the second sample"
is "$(python3 -c '
import json,sys
l=[json.loads(x) for x in open(sys.argv[1])]
p=l[1]["power"][0]
print(p["name"], p["source"], p["watts"] is not None and p["watts"] >= 0, p["counter_reset"])' "$TMPD/r.jsonl")" \
	"package-0 rapl True False" "RAPL: wrap-around gives watts, not a reset"

# broken: garbage and a counter going back without a range
echo garbage >"$hw/power1_input"
rm -f "$TMPD/stop"
( i=0; while [ ! -e "$TMPD/stop" ] && [ $i -lt 6000 ]; do
	echo $((900000000 - i * 100000)) >"$hw/energy1_input.tmp" && mv "$hw/energy1_input.tmp" "$hw/energy1_input"
	i=$((i + 1)); sleep 0.05; done ) &
wpid=$!
"$TUNETOP" --root "$root" watch --json -i 1000 -n 2 >"$TMPD/x.jsonl"
ok $? "broken sensors: watch still works"
touch "$TMPD/stop"
wait $wpid
is "$(python3 -c '
import json,sys
l=[json.loads(x) for x in open(sys.argv[1])]
print([(p["watts"], p["error"], p["counter_reset"]) for p in l[1]["power"]])' "$TMPD/x.jsonl")" \
	"[(None, None, True), (None, 'EINVAL', False)]" "counter back: null, reset; garbage: null with EINVAL"
"$TUNETOP" --root "$root" snapshot --interval 0 >"$TMPD/x.txt" 2>"$TMPD/x.err"
ok $? "broken sensors: text report"
like "$(cat "$TMPD/x.txt")" 'ina226 vdd_npu +hwmon +n/a \(/sys/class/hwmon/hwmon9/power1_input: EINVAL\)' "text: garbage named with its file"

# explain entries resolve
"$TUNETOP" explain accel.load >"$TMPD/e1.txt"; ok $? "explain accel.load"
"$TUNETOP" explain power.watts >"$TMPD/e2.txt"; ok $? "explain power.watts"
"$TUNETOP" explain thread.wait >"$TMPD/e3.txt"; ok $? "explain thread.wait"
"$TUNETOP" explain npu.wait_low_opp >"$TMPD/e4.txt"; ok $? "explain npu.wait_low_opp"
like "$(cat "$TMPD/e4.txt")" '97 ms' "finding's explain cites the RK3588 field numbers"

done_testing
