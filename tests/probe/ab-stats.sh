#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab's window-level statistics on copied rk3588 fixture roots: the
# per-window values in --json next to the verdict, the inconclusive verdict
# of too few rounds, and --aa (an A/A run: both arms one value, the noise
# floor). Where a result is checked the samples are a command's numbers that
# depend only on the knob's file and the window (deterministic); one short
# probe A/A on the live machine checks only the form.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

KNOB='cpuidle/*/cpu-sleep/disable'
STATE="$TMPD/state"
export ROOT
tt() { "$TUNETOP" --root "$ROOT" --state-dir "$STATE" "$@"; }
open_entries() {
	tt journal --json | jq '[.entries[] | select(.state == "open" or .state == "active")] | length'
}

# 10 ms + 3 ms when state1 of cpu0 is disabled (B) + a window-to-window
# wobble of 0 or 1 ms (odd windows 1), which the two arms share equally
cat >"$TMPD/num.sh" <<'EOF'
#!/bin/sh
read -r v <"$ROOT/sys/devices/system/cpu/cpu0/cpuidle/state1/disable"
echo "t: $((10 + 3 * v + TUNETOP_AB_WINDOW % 2)) ms"
EOF
chmod +x "$TMPD/num.sh"
M='t: ([0-9]+) ms'

# ---- 3 rounds: conclusive; per-window values in the JSON ------------------------------
ROOT=$(copy_fixture rk3588)
tt ab "$KNOB=0,1" --cmd "$TMPD/num.sh" --metric "$M" --window 0 --settle 0 --rounds 3 --json \
	>"$TMPD/ab.json" 2>"$TMPD/ab.err"
is "$?" 0 "3 rounds: exit 0"
j() { jq -c "$1" "$TMPD/ab.json"; }
is "$(j '[.windows[].arm] | join("")')" '"ABBABAABABBA"' "12 windows in ABBA BAAB order"
is "$(j '[.windows[].round]')" '[1,1,1,1,2,2,2,2,3,3,3,3]' "each window's round"
is "$(j '[.windows[].p50]')" '[11,13,14,10,14,10,11,13,11,13,14,10]' "each window's p50 (one sample per window)"
is "$(j '.comparison.p50.a')" '[11,10,10,11,11,10]' "comparison: arm A's per-window p50 values"
is "$(j '.comparison.p50.b')" '[13,14,14,13,13,14]' "comparison: arm B's per-window p50 values"
is "$(j '.comparison.p99.a == .comparison.p50.a and (.comparison.mean.b | length) == 6')" true \
	"comparison: p99 and mean per window too"
is "$(j '[.comparison.windows, .comparison.rounds, .comparison.conclusive, .comparison.exact, .comparison.arrangements]')" \
	'[12,3,true,true,216]' "12 windows, 3 rounds, conclusive, all 216 arrangements"
is "$(j '.comparison.p50 | [.diff, .significant]')" '[3,true]' "B - A = mean(B windows) - mean(A windows) = 3, significant"
ok "$(jq 'if .comparison.p50.lo > 0 and .comparison.p50.lo <= 3 and .comparison.p50.hi >= 3 then 0 else 1 end' "$TMPD/ab.json")" \
	"the interval holds 3 and not 0"
ok "$(jq 'if .comparison.p50.p < 0.05 and .comparison.p50.sd > 0 and .comparison.p50.mde > 0 then 0 else 1 end' "$TMPD/ab.json")" \
	"p-value, noise (sd) and detectable difference"
is "$(j '.comparison.max')" '{"diff":3,"a":11,"a_window":1,"b":14,"b_window":3,"tested":false}' \
	"max: each arm's with its window, not tested"
like "$(j '.comparison.method')" "permutation test" "the method is named"
v=$(jq -r '.comparison.verdict' "$TMPD/ab.json")
like "$v" "^cpuidle/\\*/cpu-sleep/disable=1: p99 \\+3\\.0 ms \\[\\+[0-9.]+, \\+[0-9.]+\\] p adj 0\\.028, p50 \\+3\\.0 ms" "verdict: p99 and p50 with intervals and adjusted p"
like "$v" "Holm over 3 tests \\(p99, p50, mean\\)" "verdict: the correction"
is "$(jq -c '[.comparison.correction | .method, .tests, .primary], [.comparison.p99 | .p_adj, .tested]' "$TMPD/ab.json" | tr -d '\n')" '["holm",3,null][0.0278,true]' \
	"JSON: the correction and each metric's adjusted p (3 x 1/108)"
like "$v" "max \\+3\\.0 ms \\(B's in window 3, A's in window 1; one sample each, not tested\\)" "verdict: the max with its windows, not tested"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "3 rounds: fixture restored"

# the same as text: the per-window table and the method
tt ab "$KNOB=0,1" --cmd "$TMPD/num.sh" --metric "$M" --window 0 --settle 0 --rounds 3 >"$TMPD/ab.txt" 2>/dev/null
out=$(cat "$TMPD/ab.txt")
like "$out" "^per window \\(in order\\):" "text: a per-window table"
like "$out" "^ +5 +2 B +1 +1 +14\\.00 +14\\.00 +14\\.00 +14\\.00$" "text: window 5 (round 2, B)"
like "$out" "permutation test within 3 rounds, all 216 arrangements" "text: the method"
like "$out" "^  max .*B 14.* in window 3, A 11.* in window 1 \\(one sample each, not tested\\)" "text: the max, not tested"

# ---- one figure, one value: the table's interval and the verdict's -------------------------
# B - A = +156.5 exactly: the table printed +156 (printf rounds half to even)
# where the verdict said +157; both now come from one formatter
cat >"$TMPD/half.sh" <<'EOF'
#!/bin/sh
read -r v <"$ROOT/sys/devices/system/cpu/cpu0/cpuidle/state1/disable"
awk -v v="$v" -v w="$TUNETOP_AB_WINDOW" 'BEGIN { printf "t: %.1f ms\n", 1000 + 156.5 * v + (w % 2) * 2 }'
EOF
chmod +x "$TMPD/half.sh"
ROOT=$(copy_fixture rk3588)
tt ab "$KNOB=0,1" --cmd "$TMPD/half.sh" --metric 't: ([0-9.]+) ms' --window 0 --settle 0 --rounds 3 \
	>"$TMPD/half.txt" 2>/dev/null
row=$(awk '$1 == "p50" && $3 == "ms" { print $2, $4, $5; exit }' "$TMPD/half.txt")
verd=$(sed -n 's/^verdict: .* p50 \([^ ]*\) ms \(\[[^]]*\]\).*/\1 \2/p' "$TMPD/half.txt")
like "$row" "^\\+157 " "table: +156.5 rounds to +157 ($row)"
is "$verd" "$row" "the verdict gives the table's estimate and interval ends"

# ---- too few rounds: inconclusive, never significant ---------------------------------------
ROOT=$(copy_fixture rk3588)
tt ab "$KNOB=0,1" --cmd "$TMPD/num.sh" --metric "$M" --window 0 --settle 0 --rounds 2 --json \
	>"$TMPD/few.json" 2>/dev/null
is "$?" 0 "2 rounds: exit 0"
is "$(jq -c '[.comparison.conclusive, .comparison.p50.lo, .comparison.p50.significant, .comparison.p99.significant, .comparison.mean.significant]' "$TMPD/few.json")" \
	'[false,null,null,null,null]' "2 rounds: no interval, nothing called significant"
v=$(jq -r '.comparison.verdict' "$TMPD/few.json")
like "$v" "^cpuidle/\\*/cpu-sleep/disable=1: inconclusive: 8 windows \\(2 complete rounds\\); a 95% interval needs 3 rounds or more \\(--rounds 3\\)" \
	"verdict: inconclusive: 8 windows, asks for --rounds 3"
like "$v" "with this noise, --rounds 6 would see p99 differences of [0-9.]+ ms" "verdict: what the default rounds would see"
like "$v" "p50 \\+[0-9.]+ ms, .*\\(estimates, not tested\\)" "verdict: the estimates, marked as such"
ok "$(printf '%s' "$v" | grep -q 'significant' && echo 1 || echo 0)" "verdict: no significance claim"
ROOT=$(copy_fixture rk3588)
tt ab "$KNOB=0,1" --cmd "$TMPD/num.sh" --metric "$M" --window 0 --settle 0 --rounds 1 >"$TMPD/one.txt" 2>/dev/null
like "$(cat "$TMPD/one.txt")" "^verdict: .*: inconclusive: 4 windows \\(1 complete round\\)" "1 round: inconclusive: 4 windows"

# ---- --aa: an A/A run, the noise floor ---------------------------------------------------------
ROOT=$(copy_fixture rk3588)
tt ab --aa "$KNOB" --cmd "$TMPD/num.sh" --metric "$M" --window 0 --settle 0 --rounds 3 --json \
	>"$TMPD/aa.json" 2>"$TMPD/aa.err"
is "$?" 0 "--aa: exit 0"
is "$(jq -c '[.ab.aa, .ab.a, .ab.b]' "$TMPD/aa.json")" '[true,"0","0"]' "--aa ADDRESS: both arms the current value 0"
is "$(jq -c '.comparison.p50 | [.a, .b, .diff, .significant]' "$TMPD/aa.json")" \
	'[[11,10,10,11,11,10],[10,11,11,10,10,11],0,false]' "--aa: per-window values, B - A = 0, not significant"
v=$(jq -r '.comparison.verdict' "$TMPD/aa.json")
like "$v" "^cpuidle/\\*/cpu-sleep/disable=0 \\(A/A\\): noise floor, 12 windows: no significant difference, as expected: " \
	"--aa verdict: the noise floor, as expected"
like "$v" "differences under [0-9.]+ ms in p99, [0-9.]+ ms in p50 and [0-9.]+ ms in mean cannot be seen with 6 windows per arm; [0-9]+ per arm \\(--rounds [0-9]+\\) would see half of that" \
	"--aa verdict: what cannot be seen, and the rounds that would see half"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "--aa: fixture unchanged"
is "$(open_entries)" 0 "--aa: nothing left open in the journal"

# --aa ADDRESS=VALUE: both arms that value (here 1, so B's +3 is in both), restored after
tt ab --aa "$KNOB=1" --cmd "$TMPD/num.sh" --metric "$M" --window 0 --settle 0 --rounds 3 >"$TMPD/aa1.txt" 2>/dev/null
is "$?" 0 "--aa ADDRESS=1: exit 0"
out=$(cat "$TMPD/aa1.txt")
like "$out" "^tunetop ab: A/A cpuidle/\\*/cpu-sleep/disable \\(8 knobs, was 0\\): A=B=1, the noise floor" "text: A/A header"
like "$out" "^  +[0-9]+ +[0-9]+ A +1 +1 +1[3-5]\\.00 " "--aa ADDRESS=1: the A windows ran with 1"
like "$out" "^verdict: cpuidle/\\*/cpu-sleep/disable=1 \\(A/A\\): noise floor" "text: A/A verdict"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "--aa ADDRESS=1: fixture restored"

# usage: two different values with --aa, and A = B without it
tt ab --aa "$KNOB=0,1" --cmd true >"$TMPD/o" 2>"$TMPD/e"
is "$?" 2 "--aa with two values: exit 2"
like "$(cat "$TMPD/e")" "^tunetop ab: .*an A/A run takes one value, not 0 and 1" "--aa with two values: says why"
tt ab "$KNOB=1,1" --cmd true >"$TMPD/o" 2>"$TMPD/e"
is "$?" 2 "A = B without --aa: exit 2"
like "$(cat "$TMPD/e")" "A and B are the same value \\(an A/A run, to measure the noise, is tunetop ab --aa\\)" \
	"A = B without --aa: points at --aa"
tt ab --aa >"$TMPD/o" 2>"$TMPD/e"
is "$?" 2 "--aa without an address: exit 2"
like "$(cat "$TMPD/e")" "expected ADDRESS\\[=VALUE\\] after --aa" "--aa without an address: says what is expected"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "usage errors touch nothing"

# ---- a probe A/A on this machine: the form only ------------------------------------------------
ROOT=$(copy_fixture rk3588)
tt ab --aa cpuidle/cpu0/state1/disable --cpus 0 -i 500 --window 0.2 --settle 0 --rounds 3 --json \
	>"$TMPD/paa.json" 2>/dev/null
is "$?" 0 "probe --aa: exit 0"
is "$(jq -c '[.ab.aa, .ab.source, .comparison.rounds, (.windows | length)]' "$TMPD/paa.json")" '[true,"probe",3,12]' \
	"probe --aa: 3 rounds, 12 windows"
ok "$(jq 'if ([.windows[] | .p50_us, .p99_us, .mean_us, .max_us] | all(type == "number")) and (.comparison.p99.a | length) == 6 then 0 else 1 end' "$TMPD/paa.json")" \
	"probe --aa: p50, p99, mean, max of every window"
ok "$(jq 'if (.comparison.p99.mde | type) == "number" and (.comparison.p99.significant | type) == "boolean" then 0 else 1 end' "$TMPD/paa.json")" \
	"probe --aa: a detectable difference and a test"
like "$(jq -r '.comparison.verdict' "$TMPD/paa.json")" "^cpuidle/cpu0/state1/disable=0 \\(A/A\\): noise floor, 12 windows: .*cannot be seen with 6 windows per arm" \
	"probe --aa: the verdict states the noise floor"
same_tree "$FIXTURES/rk3588" "$ROOT"
ok $? "probe --aa: fixture unchanged"

done_testing
