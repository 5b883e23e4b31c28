#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab --metric-file LOG --metric REGEX on copied rk3588 fixture roots: a
# writer process appends latency=NNN lines to LOG at ~40 Hz, 200 when the
# fixture's cpu0 state1 is disabled and 100 otherwise. The A/B finds +100 with
# its sign; an A/A run finds nothing; rotation (mv LOG LOG.1, a new LOG) and
# truncation (: > LOG) mid-run still give every window its values; a LOG
# deleted mid-run is one line on stderr, exit 1, the knob restored; usage
# errors are one line, exit 2. (issue 17)
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

KNOB='cpuidle/*/cpu-sleep/disable'
STATE="$TMPD/state"
RE='latency=([0-9]+) us'

# writer.sh ROOT LOG NOISE: one line every 20 ms (plus the shell's time); the
# file is reopened by name for each line, as a logger that follows rotation does
cat >"$TMPD/writer.sh" <<'EOF'
#!/bin/sh
i=0
while :; do
	read -r v <"$1/sys/devices/system/cpu/cpu0/cpuidle/state1/disable"
	if [ "$v" = 1 ]; then b=200; else b=100; fi
	echo "t=$i latency=$((b + (i % 7) * $3)) us" >>"$2"
	i=$((i + 1))
	sleep 0.02
done
EOF
chmod +x "$TMPD/writer.sh"

WP=
start_writer() { # LOG NOISE
	: >"$1"
	"$TMPD/writer.sh" "$ROOT" "$1" "$2" &
	WP=$!
}
stop_writer() { [ -n "$WP" ] && kill "$WP" 2>/dev/null; wait "$WP" 2>/dev/null; WP=; }
trap 'stop_writer' EXIT

# ---- A/B: the difference with its sign and size ------------------------------------
ROOT=$(copy_fixture rk3588)
LOG="$TMPD/app.log"
start_writer "$LOG" 1
"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" \
	--metric "$RE" --window 0.5 --settle 100 --rounds 3 --json >"$TMPD/ab.json" 2>"$TMPD/err"
rc=$?
stop_writer
is "$rc" 0 "ab --metric-file: exit 0"
[ -s "$TMPD/err" ] && diag "stderr: $(cat "$TMPD/err")"
is "$(jq -r .ab.source "$TMPD/ab.json")" file "JSON names the source \"file\""
is "$(jq -r .ab.metric_file "$TMPD/ab.json")" "$LOG" "JSON names the log"
is "$(jq -r .ab.unit "$TMPD/ab.json")" us "the unit is the word after the group"
is "$(jq '[.windows[] | select(.samples > 0)] | length' "$TMPD/ab.json")" 12 "every window got values"
d=$(jq '.comparison.p50.diff' "$TMPD/ab.json")
ok "$(awk -v d="$d" 'BEGIN { exit !(d >= 95 && d <= 105) }'; echo $?)" "B - A of p50 is about +100 (got $d)"
is "$(jq '.comparison.p50.significant' "$TMPD/ab.json")" true "the difference is significant"
# A's windows hold 100..106, B's 200..206: nothing of the other arm leaked in
is "$(jq '[.windows[] | select((.arm == "A" and .max > 106) or (.arm == "B" and .p50 < 200))] | length' "$TMPD/ab.json")" 0 \
	"no value was assigned to the other arm's window"
amax=$(jq '[.windows[] | select(.arm == "A") | .max] | max' "$TMPD/ab.json")
bmin=$(jq '[.windows[] | select(.arm == "B") | .p50] | min' "$TMPD/ab.json")
ok "$(awk -v a="$amax" -v b="$bmin" 'BEGIN { exit !(a <= 106 && b >= 200) }'; echo $?)" \
	"A windows' max <= 106 ($amax), B windows' p50 >= 200 ($bmin): settle lines dropped"
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "knob restored: the tree equals the fixture"

# text report
ROOT=$(copy_fixture rk3588)
start_writer "$LOG" 1
out=$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" \
	--metric "$RE" --window 0.4 --settle 100 --rounds 3 2>"$TMPD/err")
rc=$?
stop_writer
is "$rc" 0 "text report: exit 0"
like "$out" "samples: --metric 'latency=\\(\\[0-9\\]\\+\\) us' from the lines .*app.log gains, us" "the source line names the log and the regex"
like "$out" "  metric file: .*app.log \\(0 rotations, 0 truncations\\)" "the log's rotations and truncations"
# B is A + 100 and each line adds 0..6 of noise: the windows' p99 differ by
# 94..106 depending on which lines each window got (a loaded machine gives
# fewer per window)
like "$out" "^verdict: cpuidle/\\*/cpu-sleep/disable=1: p99 \\+(9[4-9]|10[0-6]) us" "verdict: p99 +100 us (within the writer's noise)"

# ---- A/A: no difference --------------------------------------------------------------
ROOT=$(copy_fixture rk3588)
start_writer "$LOG" 0
"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab --aa "$KNOB=0,0" --metric-file "$LOG" \
	--metric "$RE" --window 0.4 --settle 100 --rounds 3 --json >"$TMPD/aa.json" 2>"$TMPD/err"
rc=$?
stop_writer
is "$rc" 0 "A/A: exit 0"
is "$(jq '[.comparison.p99.significant, .comparison.p50.significant, .comparison.mean.significant] | any' "$TMPD/aa.json")" false \
	"A/A: no metric significant"
is "$(jq '.comparison.p50.diff' "$TMPD/aa.json")" 0 "A/A: B - A of p50 is 0"

# ---- rotation and truncation mid-run ------------------------------------------------
ROOT=$(copy_fixture rk3588)
start_writer "$LOG" 1
(sleep 1.6 && mv "$LOG" "$LOG.1" && sleep 1.6 && : >"$LOG") &
MV=$!
"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" \
	--metric "$RE" --window 0.5 --settle 100 --rounds 2 --json >"$TMPD/rot.json" 2>"$TMPD/err"
rc=$?
wait $MV
stop_writer
is "$rc" 0 "rotation + truncation: exit 0"
[ -s "$TMPD/err" ] && diag "stderr: $(cat "$TMPD/err")"
is "$(jq .ab.file.rotations "$TMPD/rot.json")" 1 "one rotation seen"
is "$(jq .ab.file.truncations "$TMPD/rot.json")" 1 "one truncation seen"
is "$(jq '[.windows[] | select(.samples > 0)] | length' "$TMPD/rot.json")" 8 \
	"all 8 windows got values across the rotation and the truncation"
is "$(jq '[.windows[] | select((.arm == "A" and .max > 106) or (.arm == "B" and .p50 < 200))] | length' "$TMPD/rot.json")" 0 \
	"values still land in their arm's windows"

# ---- deleted mid-run -----------------------------------------------------------------
ROOT=$(copy_fixture rk3588)
start_writer "$LOG" 1
(sleep 1.2 && kill "$WP" && rm -f "$LOG") &
RM=$!
"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" \
	--metric "$RE" --window 0.5 --settle 100 --rounds 3 >"$TMPD/out" 2>"$TMPD/err"
rc=$?
wait $RM
stop_writer
is "$rc" 1 "log deleted mid-run: exit 1"
is "$(grep -c 'metric file .*app.log: deleted (no new file after 2 s)' "$TMPD/err")" 1 \
	"one line: metric file LOG: deleted (no new file after 2 s)"
unlike "$(cat "$TMPD/err")" "AddressSanitizer|Segmentation|core dumped" "no crash"
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "knob restored after the deletion"

# ---- usage ---------------------------------------------------------------------------
ROOT=$(copy_fixture rk3588)
: >"$LOG"
err=$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" 2>&1 >/dev/null)
is "$?" 2 "--metric-file without --metric: exit 2"
is "$err" "tunetop ab: --metric-file $LOG: needs --metric REGEX" "... one line"
err=$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" --metric 'x=([0-9]' 2>&1 >/dev/null)
is "$?" 2 "a regex that does not compile: exit 2"
like "$err" "^tunetop ab: --metric 'x=\\(\\[0-9\\]': " "... one line naming it"
is "$(printf '%s\n' "$err" | wc -l)" 1 "... only one"
err=$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$LOG" --metric "$RE" --cmd true 2>&1 >/dev/null)
is "$?" 2 "--metric-file with --cmd: exit 2"
is "$err" "tunetop ab: --cmd and --metric-file: one source at a time" "... one line"
mkfifo "$TMPD/fifo"
err=$("$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=0,1" --metric-file "$TMPD/fifo" --metric "$RE" 2>&1 >/dev/null)
is "$?" 1 "a FIFO as the log: exit 1, without blocking"
like "$err" "metric file .*fifo: not a regular file" "... one line saying why"
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "nothing touched by the refused runs"

done_testing
