#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop watch --metric-file LOG --metric REGEX on a fixture root: each record
# holds count, last, p50, p99 and max of the numbers the log gained in its
# interval (JSON "app_metric", a text line); a rotated log is read on (the
# old file's rest, then the new one); a deleted log is one line and exit 1;
# usage errors exit 2. (issue 17)
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

ROOT=$(copy_fixture rk3588)
LOG=$TMPD/app.log
RE='latency=([0-9]+) us'

# wait_lines FILE N: up to 30 s for FILE to hold N lines
wait_lines() {
	_i=0
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ] && [ $_i -lt 600 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}

# ---- the numbers of each interval, across a rotation ---------------------------------
: >"$LOG"
"$TUNETOP" --root "$ROOT" watch --json -i 700 -n 6 --metric-file "$LOG" --metric "$RE" \
	>"$TMPD/w.jsonl" 2>"$TMPD/w.err" &
W=$!
wait_lines "$TMPD/w.jsonl" 1 # following from the end: wait until watch runs
# one burst of 1..10 (a single write), then a rotation with 101..105 in the new log
printf 'latency=%s us\n' 1 2 3 4 5 6 7 8 9 10 >>"$LOG"
wait_lines "$TMPD/w.jsonl" 3
mv "$LOG" "$LOG.1"
printf 'latency=%s us\n' 101 102 103 104 105 >"$LOG"
wait $W
is "$?" 0 "watch --metric-file: exit 0"
[ -s "$TMPD/w.err" ] && diag "stderr: $(cat "$TMPD/w.err")"
is "$(jq -s 'map(.app_metric.count) | add' "$TMPD/w.jsonl")" 15 "all 15 numbers counted, across the rotation"
is "$(jq -s 'length' "$TMPD/w.jsonl")" 6 "6 records"
is "$(jq -c 'select(.app_metric.count == 10) | .app_metric | [.last, .p50, .p99, .max]' "$TMPD/w.jsonl")" "[10,5,10,10]" \
	"the burst's record: last 10, p50 5, p99 10, max 10"
is "$(jq -c 'select(.app_metric.count == 5) | .app_metric | [.last, .p50, .max]' "$TMPD/w.jsonl")" "[105,103,105]" \
	"the new log's record: last 105, p50 103, max 105"
is "$(jq -c 'select(.app_metric.count == 0) | .app_metric | [.last, .p50, .p99, .max]' "$TMPD/w.jsonl" | sort -u)" "[null,null,null,null]" \
	"a record without numbers: count 0, null statistics"
is "$(jq -r '.app_metric.file' "$TMPD/w.jsonl" | sort -u)" "$LOG" "each record names the log"

# ---- text ------------------------------------------------------------------------------
: >"$LOG"
"$TUNETOP" --root "$ROOT" watch -i 500 -n 3 --metric-file "$LOG" --metric "$RE" >"$TMPD/t.out" 2>&1 &
W=$!
wait_lines "$TMPD/t.out" 1
printf 'latency=%s us\n' 4 8 >>"$LOG"
wait $W
like "$(cat "$TMPD/t.out")" "^app metric $LOG: count=2 last=8 p50=4 p99=8 max=8$" "text: one line per record"

# ---- deleted -----------------------------------------------------------------------------
: >"$LOG"
"$TUNETOP" --root "$ROOT" watch --json -i 300 -n 100 --metric-file "$LOG" --metric "$RE" \
	>"$TMPD/d.jsonl" 2>"$TMPD/d.err" &
W=$!
wait_lines "$TMPD/d.jsonl" 1
rm -f "$LOG"
wait $W
is "$?" 1 "log deleted: exit 1"
is "$(cat "$TMPD/d.err")" "tunetop watch: metric file $LOG: deleted (no new file after 2 s)" "one line says so"
ok "$([ "$(wc -l <"$TMPD/d.jsonl")" -lt 100 ]; echo $?)" "watch stopped"

# ---- usage ---------------------------------------------------------------------------------
: >"$LOG"
err=$("$TUNETOP" --root "$ROOT" watch -n 1 --metric-file "$LOG" 2>&1 >/dev/null)
is "$?" 2 "--metric-file without --metric: exit 2"
is "$err" "tunetop watch: --metric-file needs --metric REGEX" "... one line"
err=$("$TUNETOP" --root "$ROOT" watch -n 1 --metric "$RE" 2>&1 >/dev/null)
is "$?" 2 "--metric without --metric-file: exit 2"
err=$("$TUNETOP" --root "$ROOT" watch -n 1 --metric-file "$LOG" --metric 'a(' 2>&1 >/dev/null)
is "$?" 2 "a bad regex: exit 2"
like "$err" "^tunetop watch: --metric 'a\\(': " "... one line naming it"
err=$("$TUNETOP" --root "$ROOT" watch --csv -n 1 --metric-file "$LOG" --metric "$RE" 2>&1 >/dev/null)
is "$?" 2 "--csv with --metric-file: exit 2"

done_testing
