#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The live machine (a VM without cpufreq, cpuidle states, devfreq, PMU or
# hwmon here): every view still works and what is missing is null / n/a.
. "$TT_SRCDIR/tests/lib.sh"

"$TUNETOP" snapshot --json --interval 200 >"$TMPD/live.json" 2>"$TMPD/err"
ok $? "live snapshot --json exits 0"
python3 - "$TMPD/live.json" >"$TMPD/check" 2>&1 <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
def p(k, v): print(f"{k}={v}")
p("root", d["root"])
p("ncpus", len(d["cpus"]))
p("online0", d["cpus"][0]["online"])
p("util_is_number", isinstance(d["cpus"][0]["util_pct"], (int, float)))
has_cpufreq = os.path.isdir("/sys/devices/system/cpu/cpufreq/policy0")
p("freq_null_iff_no_cpufreq", (d["cpus"][0]["freq_khz"] is None) == (not has_cpufreq))
p("policies_empty_iff_no_cpufreq", (len(d["policies"]) == 0) == (not has_cpufreq))
p("kernel", d["system"]["kernel"] == os.uname().release)
PY
ok $? "live JSON parses"
check=$(cat "$TMPD/check")
like "$check" "root=/" "root is /"
like "$check" "ncpus=$(nproc --all)" "one record per possible CPU"
like "$check" "online0=True" "cpu0 online"
like "$check" "util_is_number=True" "utilisation measured over the interval"
like "$check" "freq_null_iff_no_cpufreq=True" "frequency is null exactly when there is no cpufreq"
like "$check" "policies_empty_iff_no_cpufreq=True" "no invented policies"
like "$check" "kernel=True" "kernel release matches uname -r"
"$TUNETOP" snapshot --interval 100 >"$TMPD/live.txt"; ok $? "live text report exits 0"
if [ ! -d /sys/devices/system/cpu/cpufreq/policy0 ]; then
	like "$(cat "$TMPD/live.txt")" "n/a" "missing data shows n/a in the text report"
fi
"$TUNETOP" snapshot --csv --interval 100 >"$TMPD/live.csv"; ok $? "live CSV exits 0"
is "$(wc -l <"$TMPD/live.csv")" "$(($(nproc --all) + 1))" "CSV: header + one row per CPU"
"$TUNETOP" watch --json -i 100 -n 3 >"$TMPD/watch.jsonl"; ok $? "watch -n 3 exits 0"
is "$(wc -l <"$TMPD/watch.jsonl")" 3 "watch prints one JSON line per interval"
python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$TMPD/watch.jsonl"
ok $? "every watch line is JSON"
"$TUNETOP" watch --csv -i 100 -n 2 >"$TMPD/watch.csv"; ok $? "watch --csv exits 0"
is "$(grep -c '^time_ns,' "$TMPD/watch.csv")" 1 "watch CSV has one header"
# knobs and get on whatever this host has (an empty cpufreq or cpuidle
# directory included: UBSan once caught a qsort of NULL there)
"$TUNETOP" knobs >"$TMPD/knobs.out" 2>"$TMPD/knobs.err"
ok $? "knobs on the live machine exits 0 ($(head -c 200 "$TMPD/knobs.err"))"
"$TUNETOP" get 'cpufreq/*/governor' >/dev/null 2>"$TMPD/get.err"
rc=$?
ok "$([ $rc -le 2 ] && ! grep -q 'runtime error' "$TMPD/get.err" && [ "$(wc -l <"$TMPD/get.err")" -le 1 ] && echo 0 || echo 1)" \
	"get cpufreq/*/governor: values or one line saying why not, no sanitizer error (exit $rc)"
done_testing
