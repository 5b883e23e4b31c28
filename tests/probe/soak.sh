#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop probe soak runs on the live machine: --summary lines (text and
# JSON lines; the cumulative equals the sum of the intervals), --histfile in
# cyclictest's -h format (rows, Total + Overflows = samples, Max = the
# maximum; "-" = stdout; an unwritable place is one line and exit 1), and
# --break against FIXTURE tracefs trees under --root (tracing on: stopped
# and the trace copied; off: untouched, nothing saved; none: said so).
# The machine's own tracefs is never written: every --break run has --root.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

# ---- --summary, text ------------------------------------------------------------
"$TUNETOP" probe --cpus 0 -D 2.5 --summary 1 >"$TMPD/s.txt" 2>"$TMPD/err"
is "$?" 0 "--summary 1 -D 2.5: exit 0"
n=$(grep -c '^summary ' "$TMPD/s.txt")
ok "$([ "$n" -ge 1 ] && [ "$n" -le 3 ] && echo 0 || echo 1)" "summary lines: $n (one a second)"
like "$(grep -m1 '^summary ' "$TMPD/s.txt")" \
	'^summary [0-9]+ s: interval [0-9]+ s: samples [0-9]+ min [0-9]+ p50 [0-9]+ p99 [0-9]+ p99\.9 [0-9]+ max [0-9]+ overflows [0-9]+ \| cumulative: samples [0-9]+ ' \
	"summary line: interval and cumulative, named"
like "$(cat "$TMPD/s.txt")" "tunetop probe: CPUs 0," "the final report follows"

# ---- --summary --json: JSON lines, then the result as before --------------------
"$TUNETOP" probe --cpus 0 -D 2.5 --summary 1 --json >"$TMPD/s.json" 2>"$TMPD/err"
is "$?" 0 "--summary --json: exit 0"
grep '^{"type":"summary"' "$TMPD/s.json" >"$TMPD/lines"
n=$(wc -l <"$TMPD/lines" | tr -d ' ')
ok "$([ "$n" -ge 1 ] && echo 0 || echo 1)" "$n JSON summary lines"
jq -e -s 'all(.[]; .type == "summary" and (.interval.samples | type) == "number"
	and (.cumulative.p99_us | type) == "number" and .interval_s > 0)' "$TMPD/lines" >/dev/null
ok $? "each line: one object with interval and cumulative statistics"
is "$(jq -s '[.[].interval.samples] | add' "$TMPD/lines")" \
	"$(jq -s '.[-1].cumulative.samples' "$TMPD/lines")" "cumulative = the sum of the intervals"
grep -v '^{"type":"summary"' "$TMPD/s.json" >"$TMPD/final.json"
jq -e '.probe.interval_us == 1000 and .probe.break == null' "$TMPD/final.json" >/dev/null
ok $? "the final result is the usual JSON (break null)"
ok "$(jq -n --slurpfile f "$TMPD/final.json" --slurpfile l "$TMPD/lines" \
	'if $f[0].all.samples >= $l[-1].cumulative.samples then 0 else 1 end')" \
	"final samples >= the last cumulative"

# ---- --histfile ---------------------------------------------------------------
h="$TMPD/hist.txt"
"$TUNETOP" probe -D 1 --histfile "$h" --json >"$TMPD/h.json" 2>"$TMPD/err"
is "$?" 0 "--histfile: exit 0"
ncol=$(jq '.cpus | length' "$TMPD/h.json")
is "$(head -1 "$h")" "# Histogram" "first line: # Histogram"
re='^[0-9]{6} [0-9]{6}'
i=1
while [ "$i" -lt "$ncol" ]; do re="$re	[0-9]{6,}"; i=$((i + 1)); done
is "$(grep -Ec "$re\$" "$h")" 1000 "1000 rows 000000..000999, $ncol tab-separated columns"
is "$(sed -n 2p "$h" | cut -c1-7)" "000000 " "rows start at 000000"
is "$(grep -E '^[0-9]' "$h" | tail -1 | cut -c1-6)" "000999" "last row 000999"
for l in "# Total:" "# Min Latencies:" "# Avg Latencies:" "# Max Latencies:" \
	"# Histogram Overflows:" "# Histogram Overflow at cycle number:"; do
	grep -q "^$l" "$h"
	ok $? "has '$l'"
done
tot=$(grep '^# Total:' "$h" | awk '{print $3+0}')
ovf=$(grep '^# Histogram Overflows:' "$h" | awk '{print $4+0}')
is "$((tot + ovf))" "$(jq '.cpus[0].samples' "$TMPD/h.json")" "column 1: Total + Overflows = samples"
is "$(grep '^# Max Latencies:' "$h" | awk '{print $4+0}')" \
	"$(jq '.cpus[0].max_us | floor' "$TMPD/h.json")" "column 1: Max = max_us"
is "$(awk -F'[ \t]+' '/^[0-9]/ {s += $2} END {print s+0}' "$h")" "$tot" "rows sum to Total"
ls "$TMPD" | grep -q 'hist.txt.tmp' && r=1 || r=0
ok $r "no temporary file left"

"$TUNETOP" probe --cpus 0 -D 0.3 --histfile - >"$TMPD/o.txt" 2>"$TMPD/err"
is "$?" 0 "--histfile -: exit 0"
like "$(cat "$TMPD/o.txt")" "# Histogram Overflows: [0-9]{5}" "--histfile -: on stdout"

"$TUNETOP" probe --cpus 0 -D 0.3 --histfile "$TMPD/no/such/dir/h" >/dev/null 2>"$TMPD/err"
is "$?" 1 "--histfile in a missing directory: exit 1"
# (an ASan build adds its mlockall notice)
is "$(grep -v 'mlockall' "$TMPD/err")" "tunetop probe: --histfile $TMPD/no/such/dir/h: ENOENT" "one line naming it"

# ---- --break against fixture tracefs trees ----------------------------------------
mk_tracefs() { # mk_tracefs ROOT SUBDIR ON
	mkdir -p "$1/$2"
	echo "$3" >"$1/$2/tracing_on"
	printf '# tracer: nop\n#\n          <idle>-0     [000] d.h1.   100.000001: fixture line\n' >"$1/$2/trace"
}
R="$TMPD/root"
mk_tracefs "$R" sys/kernel/tracing 1
# --break 1: any wake-up takes longer than 1 us (the clock read alone), so it
# breaks on the first samples; -D 30 is only the bound.
(cd "$TMPD" && "$TUNETOP" --root "$R" probe --cpus 0 --break 1 -D 30 --json) >"$TMPD/b.json" 2>"$TMPD/err"
is "$?" 0 "--break 1: exit 0"
jq -e '.probe.break.hit == true and .probe.break.cpu == 0 and .probe.break.latency_us > 1
	and .probe.break.threshold_us == 1 and .probe.break.tracing_stopped == true
	and .probe.break.at_monotonic_s > .probe.break.at_s' "$TMPD/b.json" >/dev/null
ok $? "break: hit on CPU 0, the value and threshold, tracing stopped"
ok "$(jq 'if .probe.duration_s < 30 then 0 else 1 end' "$TMPD/b.json")" "the run stopped at the break"
is "$(cat "$R/sys/kernel/tracing/tracing_on")" 0 "fixture tracing_on is now 0"
tf=$(jq -r '.probe.break.trace_file' "$TMPD/b.json")
like "$tf" '^tunetop-break-[0-9]{8}-[0-9]{6}\.trace$' "default trace name with a timestamp"
cmp -s "$TMPD/$tf" "$R/sys/kernel/tracing/trace"
ok $? "trace copied into the working directory"

# text, debugfs location, --break-trace
R2="$TMPD/root2"
mk_tracefs "$R2" sys/kernel/debug/tracing 1
"$TUNETOP" --root "$R2" probe --cpus 0 --break 1 -D 30 --break-trace "$TMPD/t2.trace" >"$TMPD/b.txt" 2>"$TMPD/err"
is "$?" 0 "--break-trace: exit 0"
like "$(cat "$TMPD/b.txt")" "break: CPU 0 \\(thread [0-9]+\\) woke [0-9]+ us late at [0-9.]+ s \\(threshold 1 us; CLOCK_MONOTONIC [0-9.]+\\)" \
	"text: which CPU/thread, the value and when"
like "$(cat "$TMPD/b.txt")" "break: tracing stopped \\(0 written to $R2/sys/kernel/debug/tracing/tracing_on\\)" \
	"text: tracing stopped under sys/kernel/debug/tracing"
cmp -s "$TMPD/t2.trace" "$R2/sys/kernel/debug/tracing/trace"
ok $? "trace saved to --break-trace FILE"
is "$(cat "$R2/sys/kernel/debug/tracing/tracing_on")" 0 "tracing_on 0"
unlike "$(cat "$TMPD/err")" "ignored" "no '--root ignored' note with --break"

# tracing off: left alone, nothing saved
R3="$TMPD/root3"
mk_tracefs "$R3" sys/kernel/tracing 0
cp -p "$R3/sys/kernel/tracing/tracing_on" "$TMPD/on.before"
(cd "$TMPD" && rm -f tunetop-break-*.trace && "$TUNETOP" --root "$R3" probe --cpus 0 --break 1 -D 30) >"$TMPD/b3.txt" 2>&1
is "$?" 0 "tracing off: exit 0"
like "$(cat "$TMPD/b3.txt")" "break: tracing is off \\($R3/sys/kernel/tracing/tracing_on = 0\\): no trace will be saved" \
	"tracing off: said, nothing saved"
ls "$TMPD" | grep -q '^tunetop-break-' && r=1 || r=0
ok $r "tracing off: no trace file"
is "$(cat "$R3/sys/kernel/tracing/tracing_on")" 0 "tracing off: tracing_on untouched"

# no tracefs at all
mkdir -p "$TMPD/root4/sys"
"$TUNETOP" --root "$TMPD/root4" probe --cpus 0 --break 1 -D 30 >"$TMPD/b4.txt" 2>&1
is "$?" 0 "no tracefs: exit 0"
like "$(cat "$TMPD/b4.txt")" "break: no tracefs under $TMPD/root4 \\(looked for sys/kernel/tracing/tracing_on and sys/kernel/debug/tracing/tracing_on\\)" \
	"no tracefs: where it looked"

# broken: tracing on but no trace file to copy; a tracing_on that is a directory
R5="$TMPD/root5"
mk_tracefs "$R5" sys/kernel/tracing 1
rm "$R5/sys/kernel/tracing/trace"
"$TUNETOP" --root "$R5" probe --cpus 0 --break 1 -D 30 --break-trace "$TMPD/t5.trace" >"$TMPD/b5.txt" 2>&1
is "$?" 0 "no trace file: exit 0"
like "$(cat "$TMPD/b5.txt")" "break: trace not saved: $R5/sys/kernel/tracing/trace: ENOENT" "no trace file: one line"
is "$(cat "$R5/sys/kernel/tracing/tracing_on")" 0 "no trace file: tracing still stopped"
[ -e "$TMPD/t5.trace" ] && r=1 || r=0
ok $r "no trace file: nothing written"
R6="$TMPD/root6"
mkdir -p "$R6/sys/kernel/tracing/tracing_on"
"$TUNETOP" --root "$R6" probe --cpus 0 --break 1 -D 30 >"$TMPD/b6.txt" 2>&1
is "$?" 0 "tracing_on unreadable: exit 0"
like "$(cat "$TMPD/b6.txt")" "break: $R6/sys/kernel/tracing/tracing_on: [A-Za-z ()]+: no trace will be saved" \
	"tracing_on unreadable: one line"

# a threshold nothing reaches in a short run
"$TUNETOP" --root "$TMPD/root4" probe --cpus 0 --break 100000000 -D 0.3 --json >"$TMPD/b5.json" 2>/dev/null
jq -e '.probe.break.hit == false' "$TMPD/b5.json" >/dev/null
ok $? "--break 100 s: no break, hit false"

done_testing
