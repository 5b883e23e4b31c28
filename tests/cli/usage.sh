#!/bin/sh
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
"$TUNETOP" --root /nonexistent/dir snapshot --interval 0 >/dev/null 2>"$TMPD/err"; is "$?" 1 "missing root exits 1"
like "$(cat "$TMPD/err")" "cannot open root '/nonexistent/dir'" "missing root named"
"$TUNETOP" capture >/dev/null 2>&1; is "$?" 2 "capture without OUT_DIR exits 2"
done_testing
