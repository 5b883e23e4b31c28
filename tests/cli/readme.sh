#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# README.md is for users and says only what works (issue 34): at most 250
# lines; its quick start's second command is what CI runs (.ci/run) and
# both quick-start scripts exist and parse; every command line of its ```sh
# blocks runs and exits 0, with `tunetop` on a copy of tests/fixtures/rk3588
# (--root, a private --state-dir) in a scratch directory, or carries
# "[not run: REASON]" and is skipped with that reason; its cost table sits
# between the markers tests/bench/cost_table.sh (make bench) rewrites.
. "$TT_SRCDIR/tests/lib.sh"

R=$TT_SRCDIR/README.md
n=$(wc -l <"$R" | tr -d ' ')
[ "$n" -le 250 ]
ok $? "README.md has at most 250 lines ($n)"

# ---- the quick start ---------------------------------------------------------
qs=$(sed -n '/^## Quick start/,/^## /p' "$R" | sed -n '/^```sh$/,/^```$/p' | grep -v '^```' | sed 's/[ \t]*#.*//')
is "$(printf '%s\n' "$qs" | sed -n 1p)" "sh scripts/quickstart.sh" "quick start, first command: sh scripts/quickstart.sh"
is "$(printf '%s\n' "$qs" | sed -n 2p)" "sh tests/run-all.sh" "quick start, second command: sh tests/run-all.sh"
sh -n "$TT_SRCDIR/scripts/quickstart.sh" && sh -n "$TT_SRCDIR/tests/run-all.sh"
ok $? "both scripts exist and parse (sh -n)"
grep -qx 'exec sh tests/run-all.sh' "$TT_SRCDIR/.ci/run"
ok $? ".ci/run runs the README's test command"

# ---- every command line --------------------------------------------------------
W=$TMPD/work
mkdir -p "$W/tests/fixtures" "$W/st"
root=$(copy_fixture rk3588)
cp -R "$root" "$W/tests/fixtures/rk3588"
cat >"$TMPD/defs.sh" <<EOF2
tunetop() {
	case " \$* " in
	*" --root "*) "$TUNETOP" --state-dir "$W/st" "\$@" ;;
	*) "$TUNETOP" --root "$root" --state-dir "$W/st" "\$@" ;;
	esac
}
EOF2
# the ```sh blocks outside the quick start, one command a line
sed '/^## Quick start/,/^## /d' "$R" | awk '/^```sh$/ { on = 1; next } /^```$/ { on = 0 } on' >"$TMPD/lines"
is "$(grep -c . "$TMPD/lines" | tr -d ' ')" "$(grep -c '^tunetop\|^\./\|^sudo' "$TMPD/lines" | tr -d ' ')" \
	"every line of the command blocks is a command"
run=0
while IFS= read -r line; do
	[ -n "$line" ] || continue
	case $line in
	*'[not run: '*)
		why=$(printf '%s\n' "$line" | sed 's/.*\[not run: \([^]]*\)\].*/\1/')
		skip "README: ${line%%  *}" "$why"
		continue
		;;
	esac
	cmd=$(printf '%s\n' "$line" | sed 's/[ \t]*#[^'"'"']*$//')
	(cd "$W" && timeout 120 sh -c ". '$TMPD/defs.sh'; $cmd" >"$TMPD/out" 2>"$TMPD/err")
	rc=$?
	is "$rc" 0 "README: $cmd"
	[ "$rc" = 0 ] || sed 's/^/# /' "$TMPD/err" | head -n 5
	run=$((run + 1))
done <"$TMPD/lines"
[ "$run" -ge 10 ]
ok $? "most command lines ran ($run)"
[ -s "$W/report.html" ] && grep -q '<html' "$W/report.html"
ok $? "... and made what they say (report.html from the recording)"

# ---- the cost table ----------------------------------------------------------------
b=$(grep -nx '<!-- cost-table begin -->' "$R" | cut -d: -f1)
e=$(grep -nx '<!-- cost-table end -->' "$R" | cut -d: -f1)
[ -n "$b" ] && [ -n "$e" ] && [ "$e" -gt "$b" ]
ok $? "the cost table's markers"
is "$(sed -n "$((b + 1)),$((e - 1))p" "$R" | grep -vc '^|')" 0 "... hold a table and nothing else"
# ... in the form cost_table.sh gives a `make bench` run's rows: its header
# line, rows named as the benchmarks name theirs, tunetop's and htop's
# numbers with their unit, and the ratio of the two
tab=$(sed -n "$((b + 1)),$((e - 1))p" "$R")
like "$(printf '%s\n' "$tab" | sed -n 1p)" \
	'^\| measured by `make bench` \([0-9]{4}-[0-9]{2}-[0-9]{2}, [0-9]+ CPUs\) \| tunetop \| htop \| tunetop / htop \|$' \
	"the table's header: the date and the CPUs of the make bench run (cost_table.sh)"
is "$(printf '%s\n' "$tab" | sed -n 2p)" "|---|---|---|---|" "... then the rule"
# the labels the benchmarks give their rows (tests/bench/tui.sh,
# threads_vs_htop.sh), "~$total threads" as any thread count
grep -h 'TT_BENCH_ROWS"$' "$TT_SRCDIR/tests/bench/tui.sh" "$TT_SRCDIR/tests/bench/threads_vs_htop.sh" |
	sed 's/.*echo "\([^|]*\)|.*/\1/' >"$TMPD/labels"
[ "$(wc -l <"$TMPD/labels")" -ge 4 ]
ok $? "the benchmarks' row labels found ($(wc -l <"$TMPD/labels"))"
printf '%s\n' "$tab" | sed 1,2d | awk -v lf="$TMPD/labels" '
	BEGIN { while ((getline l < lf) > 0) { gsub(/[().]/, "\\\\&", l); sub(/~\$total/, "~[0-9]+", l); re[l] = l } }
	{
		n = split($0, f, "|")
		for (i = 2; i < n; i++) gsub(/^ +| +$/, "", f[i])
		known = 0
		for (r in re) if (f[2] ~ "^" r "$") { known = 1; seen[r] = 1 }
		if (n != 6) { print "bad: not four cells: " $0; next }
		if (!known) { print "bad: unknown row: " f[2]; next }
		if (f[3] !~ /^[0-9]+[.][0-9][0-9] [^ ].*$/) { print "bad: tunetop: " f[3]; next }
		if (f[4] == "") { if (f[5] != "") print "bad: a ratio without htop: " $0; next }
		split(f[3], t, " "); split(f[4], h, " ")
		if (f[4] !~ /^[0-9]+[.][0-9][0-9] [^ ].*$/ || t[2] != h[2]) { print "bad: htop: " f[4]; next }
		if (f[5] !~ /^[0-9]+[.][0-9][0-9]$/ || (t[1] / h[1] - f[5]) ^ 2 > 0.0004) print "bad: ratio: " $0
	}
	END { for (r in re) if (!(r in seen)) print "missing: " r }' >"$TMPD/tabcheck"
is "$(grep '^bad' "$TMPD/tabcheck")" "" "... every row named as a benchmark names it, with a unit, and its ratio"
is "$(grep '^missing' "$TMPD/tabcheck")" "" "... and every benchmark's row is in it"
# cost_table.sh rewrites exactly that section from a bench run's rows
cp "$R" "$TMPD/README.md"
printf '%s\n' 'monitor, 1 s refresh, 120x40, this machine|1.5|3|ms CPU/s' \
	'Threads screen, 1 s refresh, ~2000 threads|17|68|ms CPU/s' >"$TMPD/rows"
sh "$TT_SRCDIR/tests/bench/cost_table.sh" "$TMPD/rows" "$TMPD/README.md" >/dev/null
ok $? "cost_table.sh ROWS README.md"
got=$(sed -n '/^<!-- cost-table begin -->$/,/^<!-- cost-table end -->$/p' "$TMPD/README.md")
like "$got" '\| monitor, 1 s refresh, 120x40, this machine \| 1.50 ms CPU/s \| 3.00 ms CPU/s \| 0.50 \|' \
	"... the row and its ratio"
is "$(printf '%s\n' "$got" | grep -c '^|')" 4 "... the old rows gone (header, rule, two rows)"
is "$(sed '/^<!-- cost-table begin -->$/,/^<!-- cost-table end -->$/d' "$TMPD/README.md" | cksum)" \
	"$(sed '/^<!-- cost-table begin -->$/,/^<!-- cost-table end -->$/d' "$R" | cksum)" "... the rest of README.md unchanged"
done_testing
