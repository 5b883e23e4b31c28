#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# README.md's screenshots are taken from the world rk3588-npu (issue 35):
# scripts/screenshots.sh drives it in tmux (the fixed seed) and prints the
# section it writes between README's world-screens markers; README's section
# must be that, numbers aside (the world runs on the wall clock: digits, n/a,
# the bars and column padding are masked, and so are the parts that move with
# the time a sample lands on: the findings' rows and their evidence text).
. "$TT_SRCDIR/tests/lib.sh"
command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"

out=$("$TUNETOP" world rk3588-npu "$TMPD/w" 2>&1) || skip_all "no world rk3588-npu in this build: $out"
R=$TT_SRCDIR/README.md
sed -n '/^<!-- world-screens begin -->$/,/^<!-- world-screens end -->$/p' "$R" >"$TMPD/readme"
ok "$(test "$(wc -l <"$TMPD/readme")" -gt 20; echo $?)" "README.md has its world-screens section"
TUNETOP="$TUNETOP" sh "$TT_SRCDIR/scripts/screenshots.sh" - >"$TMPD/made" 2>"$TMPD/err"
is "$?" 0 "scripts/screenshots.sh drives the world to its screens"
[ -s "$TMPD/err" ] && diag "$(head -5 "$TMPD/err")"

norm() {
	awk '/^ Evidence / { ev = 1; next } /^ Fix / { ev = 0 } !ev' "$1" |
		grep -Ev '^ (crit|warn|info)~? ' |
		sed -E -e 's/ \.\.\.[^ ]*$//' -e 's/\[[^]]*\]/[]/g' -e 's#n/a#0#g' \
			-e 's/[0-9]+(\.[0-9]+)?/#/g' -e 's/ +/ /g'
}
norm "$TMPD/readme" >"$TMPD/readme.n"
norm "$TMPD/made" >"$TMPD/made.n"
diff "$TMPD/readme.n" "$TMPD/made.n" >"$TMPD/diff"
ok $? "README.md's screenshots are what the script makes on the world (numbers aside)"
[ -s "$TMPD/diff" ] && diag "$(head -10 "$TMPD/diff")"
# and they show what they say, SIMULATED
like "$(cat "$TMPD/readme")" 'policy0 +4x A55 +gov interactive .*cur 408 ' "README: the A55 cluster at 408 MHz before"
like "$(cat "$TMPD/readme")" 'Fix +cpufreq/policy0/governor=performance' "README: the Findings screen's fix"
like "$(cat "$TMPD/readme")" 'policy0 +4x A55 +gov performance .*cur 1800 ' "README: at 1800 MHz after it"
is "$(grep -c 'SIMULATED app [0-9.]* ms' "$TMPD/readme")" 3 "README: every capture shows the app's time, SIMULATED"
means=$(sed -nE 's/.*SIMULATED app [0-9.]+ ms  mean ([0-9.]+) sd.*/\1/p' "$TMPD/readme" | sed -n '1p;3p' | tr '\n' ' ')
ok "$(echo "$means" | awk '{ exit !($1 > 42 && $2 < 40) }'; echo $?)" "README: the app's mean drops ($means ms)"
done_testing
