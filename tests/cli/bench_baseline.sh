#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench` compares its numbers with a stored baseline (issue 33, "no
# slowdown"; doc/bench.md): tests/bench/baseline.sh on made-up numbers says
# slower, faster or same per item by the tolerance and exits 1 only on a
# slower one; the stored tests/bench/baseline.txt is in its format and names
# only items tests/bench/run.sh collects. No benchmark runs here: nothing in
# this test depends on timing.
. "$TT_SRCDIR/tests/lib.sh"

B="$TT_SRCDIR/tests/bench"
cat >"$TMPD/base" <<'EOF'
# a comment
sample tick, rk3588 fixture, median|0.400|ms CPU
peak RSS of watch --json, 20 samples, 256-CPU tree|8000|KiB
monitor, same, a 256-CPU tree, tunetop / htop|0.350|ratio
Threads screen, 1 s refresh, ~2k threads, tunetop|17.4|ms CPU/s
kernel config read, this machine, median|1.000|ms CPU
EOF
# +50 %, -25.1 %, +10 % (within 25 %), -20 %, and one not measured
printf '%s\n' 'sample tick, rk3588 fixture, median|0.600|ms CPU' \
	'peak RSS of watch --json, 20 samples, 256-CPU tree|5992|KiB' \
	'monitor, same, a 256-CPU tree, tunetop / htop|0.385|ratio' \
	'Threads screen, 1 s refresh, ~2k threads, tunetop|13.92|ms CPU/s' \
	'an item the baseline does not have|1|ms' >"$TMPD/now"
out=$(sh "$B/baseline.sh" compare "$TMPD/base" "$TMPD/now" 25)
is "$?" 1 "compare: exit 1 when an item is slower"
printf '%s\n' "$out" | sed 's/^/# /'
line() { printf '%s\n' "$out" | grep -F "  $1 "; }
like "$(line 'sample tick, rk3588 fixture, median')" '0\.400 +ms CPU +0\.600 +\+50\.0 %  slower$' "+50 %: slower"
like "$(line 'peak RSS of watch --json, 20 samples, 256-CPU tree')" '-25\.1 %  faster$' "-25.1 %: faster"
like "$(line 'monitor, same, a 256-CPU tree, tunetop / htop')" '\+10\.0 %  same$' "+10 %: same"
like "$(line 'Threads screen, 1 s refresh, ~2k threads, tunetop')" '-20\.0 %  same$' "-20 %: same"
like "$(line 'kernel config read, this machine, median')" 'not measured$' "an item this run lacks: not measured"
unlike "$out" 'does not have' "an item the baseline lacks is not compared"
like "$out" 'baseline: 5 items, 1 slower, 1 faster, 2 same within \+-25 %, 1 not measured' "the summary line"
like "$out" 'slower than the baseline: "sample tick, rk3588 fixture, median"' "names the slower item"
sh "$B/baseline.sh" compare "$TMPD/base" "$TMPD/now" 60 >"$TMPD/out"
is "$?" 0 "compare with a 60 % tolerance: exit 0"
like "$(cat "$TMPD/out")" '0 slower, 0 faster, 4 same within \+-60 %' "... all four the same"
TT_BENCH_TOLERANCE=5 sh "$B/baseline.sh" compare "$TMPD/base" "$TMPD/now" >"$TMPD/out"
like "$(cat "$TMPD/out")" '2 slower, 2 faster, 0 same within \+-5 %' "TT_BENCH_TOLERANCE sets the default"
sh "$B/baseline.sh" compare "$TMPD/nonexistent" "$TMPD/now" 2>"$TMPD/err"
is "$?" 2 "a missing baseline: exit 2"
like "$(cat "$TMPD/err")" "nonexistent: cannot read the baseline" "... naming the file"
sh "$B/baseline.sh" update "$TMPD/now" "$TMPD/new" >/dev/null
is "$(grep -v '^#' "$TMPD/new")" "$(cat "$TMPD/now")" "update: the items as measured"
like "$(sed -n 2p "$TMPD/new")" '^# taken [0-9]{4}-[0-9]{2}-[0-9]{2} on [0-9]+ CPUs' "... under a comment of when and where"

# ---- the stored baseline ------------------------------------------------------------
S="$B/baseline.txt"
is "$(grep -v '^#' "$S" | grep -cvE '^[^|]+\|[0-9]+(\.[0-9]+)?\|[^|]+$')" 0 "baseline.txt: NAME|VALUE|UNIT lines"
[ "$(grep -vc '^#' "$S")" -ge 10 ]
ok $? "baseline.txt: at least 10 items ($(grep -vc '^#' "$S"))"
# the names run.sh collects: its sample/item calls, and the cost table's
# rows of tui.sh and threads_vs_htop.sh with ", tunetop" or ", tunetop /
# htop" (the thread count by the thousands)
{
	sed -n 's/^[[:space:]]*\(\[ [^]]* \] && \)\{0,1\}{\{0,1\} *\(sample\|item\) "\([^"]*\)".*/\3/p' "$B/run.sh"
	grep -h 'TT_BENCH_ROWS"$' "$B"/tui.sh "$B"/threads_vs_htop.sh | sed 's/.*echo "\([^|]*\)|.*/\1/' |
		sed 's/~\$total threads/~Nk threads/' | while IFS= read -r l; do
		echo "$l, tunetop"
		echo "$l, tunetop / htop"
	done
} | grep -v '^\$' >"$TMPD/names"
diag "names run.sh collects: $(wc -l <"$TMPD/names")"
[ "$(wc -l <"$TMPD/names")" -ge 12 ]
ok $? "run.sh: its item names found"
unknown=$(grep -v '^#' "$S" | cut -d'|' -f1 | sed -E 's/~[0-9]+k threads/~Nk threads/' | while IFS= read -r n; do
	grep -qxF "$n" "$TMPD/names" || printf '%s; ' "$n"
done)
is "$unknown" "" "baseline.txt: every item is one run.sh collects"
done_testing
