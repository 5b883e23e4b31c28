#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# "-" is the standard output for the file arguments that write (issue 16):
# watch --record - (the recording instead of the samples), the TUI's
# --record - (refused in one line: the terminal is the screen), report
# --html - (the page instead of the summary) and capture - (a tar stream);
# report - reads the standard input.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
root=$(copy_fixture rk3588)

# ---- watch --record - ---------------------------------------------------------------
"$TUNETOP" --root "$root" watch -i 10 -n 3 --record - >"$TMPD/rec.jsonl" 2>"$TMPD/rec.err"
is "$?" 0 "watch --record -: exit 0"
is "$(head -1 "$TMPD/rec.jsonl" | jq -r '.type + " " + .schema')" "header tunetop.record/1" \
	"the first line on stdout is the recording header"
is "$(jq -r .type "$TMPD/rec.jsonl" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	" 1 end; 1 header; 3 sample;" "stdout holds the recording only: header, 3 samples, end"
is "$(jq -r 'select(.type == "sample") | .snapshot.schema' "$TMPD/rec.jsonl" | sort -u)" \
	"tunetop.snapshot/1" "each sample's snapshot names its schema"
"$TUNETOP" report - <"$TMPD/rec.jsonl" >"$TMPD/rep.txt" 2>&1
is "$?" 0 "report - reads the recording from standard input"
like "$(cat "$TMPD/rep.txt")" "3 samples" "... and summarises its 3 samples"
if "$TUNETOP" watch --help | grep -q zstd && command -v zstd >/dev/null 2>&1; then
	"$TUNETOP" --root "$root" watch -i 10 -n 2 --record - --record-format zstd 2>/dev/null |
		zstd -dc | jq -r .type | tr '\n' ' ' >"$TMPD/z"
	is "$(cat "$TMPD/z")" "header sample sample end " "watch --record - --record-format zstd: a zstd stream"
else
	skip "watch --record - as zstd" "no zstd"
fi

# ---- the TUI refuses --record - -----------------------------------------------------------
"$TUNETOP" --root "$root" --record - </dev/null >"$TMPD/tui.out" 2>"$TMPD/tui.err"
is "$?" 2 "TUI --record -: exit 2"
is "$(wc -l <"$TMPD/tui.err" | tr -d ' ')" 1 "... with one line"
like "$(cat "$TMPD/tui.err")" "--record -: the terminal is the screen" "... saying why"

# ---- report --html - ----------------------------------------------------------------------
"$TUNETOP" --root "$root" snapshot --interval 0 --json >"$TMPD/snap.json" 2>/dev/null
"$TUNETOP" report "$TMPD/snap.json" --html - >"$TMPD/page.html" 2>"$TMPD/html.err"
is "$?" 0 "report --html -: exit 0"
like "$(head -c 200 "$TMPD/page.html")" "^<!DOCTYPE html>" "stdout is the page"
unlike "$(cat "$TMPD/page.html")" "^html: " "no 'html: FILE' line in it"
like "$(tail -c 20 "$TMPD/page.html")" "</html>" "the page is whole"
"$TUNETOP" report - --html - <"$TMPD/rec.jsonl" | grep -c '<svg' >"$TMPD/svg"
ok "$([ "$(cat "$TMPD/svg")" -ge 1 ]; echo $?)" "report - --html -: a recording's page with plots"
printf 'not json' | "$TUNETOP" report - >/dev/null 2>"$TMPD/bad.err"
is "$?" 1 "report - of garbage: exit 1"
like "$(cat "$TMPD/bad.err")" "^tunetop report: -: " "... naming standard input as -"

# ---- capture - ----------------------------------------------------------------------------
mkdir "$TMPD/tt"
TMPDIR=$TMPD/tt "$TUNETOP" --root "$root" capture - >"$TMPD/c.tar" 2>"$TMPD/c.err"
is "$?" 0 "capture -: exit 0"
like "$(cat "$TMPD/c.err")" "^captured [0-9]+ files and [0-9]+ symlinks .* a tar stream on standard output" \
	"the summary goes to stderr"
mkdir "$TMPD/x" "$TMPD/y"
tar -C "$TMPD/x" -xf "$TMPD/c.tar"
ok $? "the stream unpacks with tar"
"$TUNETOP" --root "$root" capture "$TMPD/y/t" >/dev/null 2>&1
diff -r "$TMPD/x" "$TMPD/y/t" >/dev/null
ok $? "it unpacks into the same tree as capture OUT_DIR"
is "$(tar -tvf "$TMPD/c.tar" | grep -c '^l')" "$(find "$TMPD/y/t" -type l | wc -l | tr -d ' ')" \
	"symlinks are symlinks in the stream"
is "$("$TUNETOP" --root "$TMPD/x" snapshot --interval 0 --json 2>/dev/null | jq '.cpus[4].freq_khz')" 408000 \
	"the unpacked tree works as --root"
is "$(ls -A "$TMPD/tt")" "" "no temporary capture directory is left (in \$TMPDIR)"
"$TUNETOP" --root "$root" capture -x >/dev/null 2>&1
is "$?" 2 "capture -x (an option, not -): usage error"
done_testing
