#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Compressed recordings (issue 18): --record FILE writes a zstd stream of the
# JSON lines by default (built with libzstd), plain JSON lines for FILE.jsonl
# or --record-format json. Both report the same; zstd -dc of the compressed
# file is the plain format; a compressed file cut short (a killed run)
# reports its complete samples; an old plain recording and a zstd file made
# by zstd(1) read too; garbage after the magic is a one-line error.
. "$TT_SRCDIR/tests/lib.sh"

root=$FIXTURES/rk3588
# the report without its first line (it names the file)
body() { "$TUNETOP" report "$1" 2>&1 | sed 1d; }
nlines() { grep -c "\"type\":\"$2\"" "$1"; }

if ! "$TUNETOP" watch --help | grep -q -- '--record-format'; then
	skip_all "no --record-format"
fi
built_zstd=yes
"$TUNETOP" --root "$root" watch -i 10 -n 1 --record "$TMPD/probe.rec" >/dev/null 2>&1
[ "$(od -An -tx1 -N4 "$TMPD/probe.rec" | tr -d ' ')" = 28b52ffd ] || built_zstd=no
if [ $built_zstd = no ]; then
	# a build without libzstd: plain JSON, and zstd is refused with a reason
	head -1 "$TMPD/probe.rec" | grep -q '"type":"header"'
	ok $? "without libzstd: --record writes plain JSON lines"
	out=$("$TUNETOP" --root "$root" watch -i 10 -n 1 --record-format zstd --record "$TMPD/z.rec" 2>&1)
	is "$?" 2 "without libzstd: --record-format zstd is a usage error"
	like "$out" 'built without libzstd' "  and says why"
	if command -v zstd >/dev/null; then
		zstd -q -c "$TT_SRCDIR/tests/golden/record-v1.jsonl" >"$TMPD/old.rec"
		out=$("$TUNETOP" report "$TMPD/old.rec" 2>&1)
		is "$?" 1 "without libzstd: report of a compressed file fails"
		is "$(printf '%s\n' "$out" | wc -l)" 1 "  in one line"
		like "$out" "old.rec: a zstd-compressed recording, and this tunetop was built without libzstd: decompress it with .zstd -d $TMPD/old.rec -o $TMPD/old.rec.jsonl." \
			"  naming the file, why, and the zstd command"
	fi
	done_testing
	exit 0
fi
command -v zstd >/dev/null || skip_all "zstd(1) not installed (apt-get install zstd)"

# --- the same run, both formats
N=6
"$TUNETOP" --root "$root" watch -i 10 -n $N --record "$TMPD/run.rec" >/dev/null 2>&1
ok $? "watch --record FILE.rec"
"$TUNETOP" --root "$root" watch -i 10 -n $N --record "$TMPD/run.jsonl" >/dev/null 2>&1
ok $? "watch --record FILE.jsonl"
"$TUNETOP" --root "$root" watch -i 10 -n $N --record-format json --record "$TMPD/forced.rec" \
	>/dev/null 2>&1
ok $? "watch --record-format json --record FILE.rec"
"$TUNETOP" --root "$root" watch -i 10 -n 2 --record-format zstd --record "$TMPD/forced.jsonl" \
	>/dev/null 2>&1
ok $? "watch --record-format zstd --record FILE.jsonl"
is "$(od -An -tx1 -N4 "$TMPD/run.rec" | tr -d ' ')" 28b52ffd "the default is a zstd stream (magic 28 b5 2f fd)"
head -1 "$TMPD/run.jsonl" | grep -q '^{"type":"header","format":"tunetop-record"'
ok $? "FILE.jsonl is plain JSON lines"
head -1 "$TMPD/forced.rec" | grep -q '^{"type":"header","format":"tunetop-record"'
ok $? "--record-format json: plain JSON lines whatever the name"
is "$(od -An -tx1 -N4 "$TMPD/forced.jsonl" | tr -d ' ')" 28b52ffd "--record-format zstd: compressed whatever the name"
out=$("$TUNETOP" --root "$root" watch -i 10 -n 1 --record-format gzip --record "$TMPD/x" 2>&1)
is "$?" 2 "--record-format gzip: usage error"
like "$out" 'auto, json or zstd' "  naming the choices"
a=$(stat -c %s "$TMPD/run.rec")
b=$(stat -c %s "$TMPD/run.jsonl")
[ "$a" -lt $((b / 5)) ]
ok $? "compressed is at least 5x smaller ($a vs $b bytes for $N samples)"

# --- zstd -dc of the compressed file is the plain format
zstd -dcq "$TMPD/run.rec" >"$TMPD/run.dec" 2>"$TMPD/zstd.err"
ok $? "zstd -dc reads the compressed file"
head -1 "$TMPD/run.dec" | grep -q '^{"type":"header","format":"tunetop-record","version":1,'
ok $? "  its first line is the header"
is "$(grep -o '^{"type":"[a-z]*"' "$TMPD/run.dec" | sort | uniq -c | tr -s ' ')" \
	"$(grep -o '^{"type":"[a-z]*"' "$TMPD/run.jsonl" | sort | uniq -c | tr -s ' ')" \
	"  the same line types and counts as the plain file"
is "$(nlines "$TMPD/run.dec" sample)" $N "  $N sample lines"
tail -1 "$TMPD/run.dec" | grep -q '^{"type":"end",'
ok $? "  and the end line last"
# every line is a JSON object (jq when there)
if command -v jq >/dev/null; then
	jq -c .type "$TMPD/run.dec" >/dev/null 2>&1
	ok $? "  every line parses as JSON (jq)"
fi

# --- report: identical for both (timestamps differ: compare what does not)
body "$TMPD/run.rec" >"$TMPD/r1"
body "$TMPD/run.jsonl" >"$TMPD/r2"
like "$(cat "$TMPD/r1")" "$N samples over" "report reads the compressed recording ($N samples)"
unlike "$(cat "$TMPD/r1")" 'killed' "  complete (end line seen)"
is "$(sed 's/over [0-9.]* s/over T s/' "$TMPD/r1")" "$(sed 's/over [0-9.]* s/over T s/' "$TMPD/r2")" \
	"report: compressed and plain give the same output"
# the same file both ways: identical to the byte
body "$TMPD/run.dec" >"$TMPD/r3"
is "$(cat "$TMPD/r1")" "$(cat "$TMPD/r3")" "report of FILE and of zstd -dc FILE are identical"
"$TUNETOP" report "$TMPD/run.rec" --html "$TMPD/run.html" >/dev/null 2>&1
ok $? "report --html of a compressed recording"
grep -q '<html' "$TMPD/run.html"
ok $? "  writes the page"

# --- a killed run: the file cut short reports its complete samples
size=$(stat -c %s "$TMPD/run.rec")
lost=0
for cut in 3 12 60 120; do
	head -c $((size - cut)) "$TMPD/run.rec" >"$TMPD/cut.rec"
	# what zstd(1) itself decodes of it: the complete sample lines
	# (a torn last line has no newline yet)
	zstd -dcq "$TMPD/cut.rec" >"$TMPD/cut.dec" 2>/dev/null
	[ "$(tail -c 1 "$TMPD/cut.dec" | od -An -tx1 | tr -d ' ')" = 0a ] || sed -i '$d' "$TMPD/cut.dec"
	want=$(grep -c '^{"type":"sample"' "$TMPD/cut.dec")
	out=$("$TUNETOP" report "$TMPD/cut.rec" 2>&1)
	ok $? "cut $cut bytes: report reads it"
	like "$out" " $want samples over" "  with the $want complete samples zstd -dc finds"
	if grep -q '^{"type":"end"' "$TMPD/cut.dec"; then
		unlike "$out" 'killed' "  complete: the end line survived the cut"
	else
		like "$out" 'no end line \(the run was killed\)' "  and says the run was killed"
	fi
	[ "$want" -ge 1 ] && [ "$want" -lt $N ] && lost=$((lost + 1))
done
[ $lost -ge 1 ]
ok $? "a cut lost samples but kept some ($lost cuts did)"

# --- an old plain recording (tunetop 0.1.0, before compression) still reads
old=$TT_SRCDIR/tests/golden/record-v1.jsonl
out=$("$TUNETOP" report "$old" 2>&1)
ok $? "an old plain recording reads"
like "$out" '2 samples over' "  its 2 samples"
zstd -q -c "$old" >"$TMPD/old.rec"
"$TUNETOP" report "$TMPD/old.rec" 2>&1 | sed 1d >"$TMPD/o1"
printf '%s\n' "$out" | sed 1d >"$TMPD/o2"
is "$(cat "$TMPD/o1")" "$(cat "$TMPD/o2")" "the same compressed by zstd(1) (one frame, no flushes) reports the same"

# --- garbage after the magic: one line, exit 1, no crash
printf '\050\265\057\375garbage that is no zstd frame at all' >"$TMPD/bad.rec"
out=$("$TUNETOP" report "$TMPD/bad.rec" 2>&1)
is "$?" 1 "garbage after the zstd magic: exit 1"
is "$(printf '%s\n' "$out" | wc -l)" 1 "  one line"
like "$out" 'bad.rec: zstd-compressed, but not readable' "  naming the file and why"
# a valid zstd stream of something else
printf 'hello\nworld\n' | zstd -q -c >"$TMPD/hello.zst"
out=$("$TUNETOP" report "$TMPD/hello.zst" 2>&1)
is "$?" 1 "a zstd file that is no recording: exit 1"
like "$out" 'hello.zst:1: not a tunetop recording' "  says so"
done_testing
