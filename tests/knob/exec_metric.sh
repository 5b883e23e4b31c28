#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop exec --metric REGEX: CMD's stdout passes through byte for byte (the
# last partial line too), stderr untouched, every match collected; the
# summary line (n, p50, p99, max) on stderr; --json adds a JSON object as
# the last line of stdout; the exit status is CMD's. (issue 17)
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

# an app printing latency=1..100 us between other lines, a line on stderr,
# a last line without its newline (latency=7), and exit status 3
cat >"$TMPD/app.sh" <<'EOF'
#!/bin/sh
i=1
while [ $i -le 100 ]; do
	echo "req $i latency=$i us"
	echo "other line $i: latency=n/a"
	i=$((i + 1))
done
echo "to stderr latency=999 us" >&2
printf 'tail without newline latency=7 us'
exit 3
EOF
chmod +x "$TMPD/app.sh"
"$TMPD/app.sh" >"$TMPD/direct.out" 2>"$TMPD/direct.err"
is "$?" 3 "the app alone exits 3"

fresh rk3588
tt exec --no-follow --metric 'latency=([0-9]+) us' -- "$TMPD/app.sh" >"$TMPD/via.out" 2>"$TMPD/via.err"
is "$?" 3 "exec --metric: the exit status is the app's"
if cmp -s "$TMPD/direct.out" "$TMPD/via.out"; then ok 0 "stdout passed through byte for byte"; else
	ok 1 "stdout passed through byte for byte"
	cmp "$TMPD/direct.out" "$TMPD/via.out" | sed 's/^/# /'
fi
like "$(cat "$TMPD/via.err")" "^to stderr latency=999 us$" "stderr untouched"
# values 1..100 and 7: 101 numbers; p50 (rank 51) 50, p99 (rank 100) 99, max 100
like "$(cat "$TMPD/via.err")" "^tunetop exec: metric 'latency=\\(\\[0-9\\]\\+\\) us': n=101 p50=50 p99=99 max=100$" \
	"the summary: n=101 p50=50 p99=99 max=100 (the stderr line and 'n/a' not counted)"
is "$(grep -c '^tunetop exec: metric' "$TMPD/via.err")" 1 "one summary line"

tt exec --metric 'latency=([0-9]+) us' --json -- "$TMPD/app.sh" >"$TMPD/json.out" 2>/dev/null
is "$?" 3 "--json: the exit status is the app's"
tail -n 1 "$TMPD/json.out" >"$TMPD/obj"
is "$(jq -r '[.n, .p50, .p99, .max, .min] | map(tostring) | join(" ")' "$TMPD/obj")" "101 50 99 100 1" \
	"--json: the last line is an object with n, p50, p99, max, min"
is "$(jq -r .metric "$TMPD/obj")" 'latency=([0-9]+) us' "--json: names the regex"
head -n 201 "$TMPD/json.out" >"$TMPD/json.head"
printf '\n' >>"$TMPD/direct.out"
if cmp -s "$TMPD/direct.out" "$TMPD/json.head"; then ok 0 "--json: the app's output comes first, unchanged (a newline ends its last line)"; else
	ok 1 "--json: the app's output comes first, unchanged (a newline ends its last line)"
fi

# a line far longer than the line bound is passed on, not matched
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "x"; print s " latency=5 us"; print "latency=6 us" }' >"$TMPD/long.txt"
tt exec --no-follow --metric 'latency=([0-9]+) us' -- cat "$TMPD/long.txt" >"$TMPD/long.out" 2>"$TMPD/long.err"
is "$?" 0 "a 100 kB line: exit 0"
if cmp -s "$TMPD/long.txt" "$TMPD/long.out"; then ok 0 "the long line passed through unchanged"; else ok 1 "the long line passed through unchanged"; fi
like "$(cat "$TMPD/long.err")" "n=1 p50=6 p99=6 max=6" "only the normal line's number counted"

# nothing matched; errors
tt exec --no-follow --metric 'latency=([0-9]+)' -- true >/dev/null 2>"$TMPD/none.err"
is "$?" 0 "no output: exit 0 (the app's)"
like "$(cat "$TMPD/none.err")" "n=0 p50=n/a p99=n/a max=n/a \\(no line matched\\)" "no match: n=0, n/a"
err=$(tt exec --metric 'x=([0-9]' -- true 2>&1 >/dev/null)
is "$?" 2 "a regex that does not compile: exit 2"
like "$err" "^tunetop exec: --metric 'x=\\(\\[0-9\\]': " "... one line naming it"
err=$(tt exec --metric 'x=[0-9]+' -- true 2>&1 >/dev/null)
is "$?" 2 "a regex without a group: exit 2"
like "$err" "needs a capture group" "... says so"
err=$(tt exec --json -- true 2>&1 >/dev/null)
is "$?" 2 "--json without --metric: exit 2"
if pristine; then ok 0 "nothing left changed"; else ok 1 "nothing left changed"; show_diff; fi

done_testing
