#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Command line: --help, --version, bad options and unknown commands.
. "$TT_SRCDIR/tests/lib.sh"

out=$("$TUNETOP" --version); ok $? "--version exits 0"
like "$out" '^tunetop [0-9]+\.[0-9]+' "--version prints the version"
out=$("$TUNETOP" --help); ok $? "--help exits 0"
for c in snapshot watch capture; do
	like "$out" "tunetop $c" "--help lists $c"
	"$TUNETOP" "$c" --help >/dev/null; ok $? "$c --help exits 0"
done
"$TUNETOP" frobnicate >/dev/null 2>"$TMPD/err"; is "$?" 2 "unknown command exits 2"
like "$(cat "$TMPD/err")" "unknown command 'frobnicate'" "unknown command is named"
"$TUNETOP" snapshot --bogus >/dev/null 2>&1; is "$?" 2 "unknown option exits 2"
"$TUNETOP" snapshot --interval abc >/dev/null 2>"$TMPD/err"; is "$?" 2 "bad interval exits 2"
like "$(cat "$TMPD/err")" "--interval wants milliseconds" "bad interval explained"
"$TUNETOP" watch -n 0 >/dev/null 2>&1; is "$?" 2 "watch -n 0 exits 2"
"$TUNETOP" --root >/dev/null 2>&1; is "$?" 2 "--root without a directory exits 2"
# a --root that is not a directory is a usage error (design: exit 2), one line
"$TUNETOP" --root /nonexistent snapshot >/dev/null 2>"$TMPD/err"; is "$?" 2 "missing root exits 2"
is "$(cat "$TMPD/err")" "tunetop: --root /nonexistent: ENOENT" "missing root: one line naming it"
"$TUNETOP" --root=/nonexistent/dir knobs >/dev/null 2>"$TMPD/err"; is "$?" 2 "missing root, another command: exit 2"
is "$(cat "$TMPD/err")" "tunetop: --root /nonexistent/dir: ENOENT" "--root=DIR form named"
: >"$TMPD/plain"
"$TUNETOP" --root "$TMPD/plain" snapshot >/dev/null 2>"$TMPD/err"; is "$?" 2 "root that is a file exits 2"
is "$(cat "$TMPD/err")" "tunetop: --root $TMPD/plain: ENOTDIR" "root that is a file: named"
# --json and --csv are two output formats: pick one
for c in snapshot watch; do
	"$TUNETOP" --root "$FIXTURES/rk3588" $c --json --csv -i 100 -n 1 >"$TMPD/out" 2>"$TMPD/err"
	is "$?" 2 "$c --json --csv exits 2"
	is "$(cat "$TMPD/err")" "tunetop $c: --json and --csv are mutually exclusive (one output format)" \
		"$c --json --csv: one line saying why"
	is "$(cat "$TMPD/out")" "" "$c --json --csv: no output"
done
"$TUNETOP" --root "$FIXTURES/rk3588" snapshot --csv --json >/dev/null 2>&1; is "$?" 2 "snapshot --csv --json exits 2"
"$TUNETOP" --root "$FIXTURES/rk3588" snapshot --json --json --interval 0 >/dev/null 2>&1; is "$?" 0 "--json twice is fine"
# undo -n: a reason, not just the usage
mkdir -m 700 "$TMPD/state"
"$TUNETOP" --root "$FIXTURES/rk3588" --state-dir "$TMPD/state" undo -n abc >/dev/null 2>"$TMPD/err"
is "$?" 2 "undo -n abc exits 2"
is "$(cat "$TMPD/err")" "tunetop undo: -n: 'abc' is not a number" "undo -n abc: says why, in one line"
"$TUNETOP" --root "$FIXTURES/rk3588" --state-dir "$TMPD/state" undo -n 0 >/dev/null 2>"$TMPD/err"
is "$?" 2 "undo -n 0 exits 2"
is "$(cat "$TMPD/err")" "tunetop undo: -n: '0' is not a count of changes (1 or more)" "undo -n 0: says why"
"$TUNETOP" capture >/dev/null 2>&1; is "$?" 2 "capture without OUT_DIR exits 2"
done_testing
