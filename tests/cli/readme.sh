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
