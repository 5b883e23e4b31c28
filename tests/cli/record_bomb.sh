#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bounded memory on any recording (issue 32, item 4): a small zstd file that
# holds one huge line, or decompresses to far more than its size, is one
# error naming the file (and the line), read with bounded memory. Memory is
# measured as the peak RSS (/usr/bin/time -f %M), never wall time.
. "$TT_SRCDIR/tests/lib.sh"
command -v zstd >/dev/null 2>&1 || skip_all "no zstd(1)"
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
root=$FIXTURES/rk3588
"$TUNETOP" --root "$root" watch -i 10 -n 1 --record "$TMPD/probe.rec" >/dev/null 2>&1
[ "$(od -An -tx1 -N4 "$TMPD/probe.rec" | tr -d ' ')" = 28b52ffd ] || skip_all "built without libzstd"
"$TUNETOP" --root "$root" watch -i 10 -n 2 --record "$TMPD/ok.jsonl" --record-format json >/dev/null
LIMIT_KB=250000 # before the limits, the 256 MiB line took over 500 MB
# AddressSanitizer keeps freed memory in quarantine (256 MB) and shadows it:
# over 1.5 GB before the limits there
if ASAN_OPTIONS=help=1 "$TUNETOP" --version 2>&1 | grep -q AddressSanitizer; then
	LIMIT_KB=700000
fi

# header, then one sample line of 256 MiB: a few hundred KB compressed
{
	head -1 "$TMPD/ok.jsonl"
	printf '{"type":"sample","t_ns":1,"x":"'
	head -c 268435456 /dev/zero | tr '\0' a
	printf '"}\n'
} | zstd -q -1 -c >"$TMPD/line.zst"
diag "one 256 MiB line: $(wc -c <"$TMPD/line.zst") bytes compressed"
/usr/bin/time -o "$TMPD/rss" -f %M "$TUNETOP" report "$TMPD/line.zst" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 1 "huge line: report exits 1"
is "$(cat "$TMPD/err")" \
	"tunetop report: $TMPD/line.zst:2: a line longer than 32 MiB (decompressed): not a tunetop recording" \
	"huge line: one error naming the file and the line"
rss=$(tail -1 "$TMPD/rss")
diag "peak RSS ${rss} KB"
[ "$rss" -lt "$LIMIT_KB" ]; ok $? "huge line: peak RSS ${rss} KB under ${LIMIT_KB} KB"

# the same in a plain file (no compression): refused by line, not parsed
{
	head -1 "$TMPD/ok.jsonl"
	printf '{"type":"sample","x":"'
	head -c 40000000 /dev/zero | tr '\0' a
	printf '"}\n'
} >"$TMPD/line.jsonl"
"$TUNETOP" report "$TMPD/line.jsonl" >/dev/null 2>"$TMPD/err"
is "$?" 1 "plain huge line: exits 1"
like "$(cat "$TMPD/err")" "line.jsonl:2: a line longer than 32 MiB" "plain huge line: names the line"

# a ratio bomb: 6 million short lines, about 130 MB, from a few KB
{
	head -1 "$TMPD/ok.jsonl"
	yes '{"type":"note","x":1}' | head -n 6000000
} | zstd -q -1 -c >"$TMPD/ratio.zst"
diag "ratio bomb: $(wc -c <"$TMPD/ratio.zst") bytes compressed"
/usr/bin/time -o "$TMPD/rss" -f %M "$TUNETOP" report "$TMPD/ratio.zst" >"$TMPD/out" 2>"$TMPD/err"
is "$?" 1 "ratio bomb: report exits 1"
like "$(cat "$TMPD/err")" "^tunetop report: $TMPD/ratio.zst: decompresses to more than [0-9]+ MiB" \
	"ratio bomb: one error naming the file"
is "$(grep -c . "$TMPD/err")" 1 "ratio bomb: one line"
rss=$(tail -1 "$TMPD/rss")
diag "peak RSS ${rss} KB"
[ "$rss" -lt "$LIMIT_KB" ]; ok $? "ratio bomb: peak RSS ${rss} KB under ${LIMIT_KB} KB"

# a real recording still reads
"$TUNETOP" --root "$root" watch -i 10 -n 3 --record "$TMPD/real.zst" >/dev/null
"$TUNETOP" report "$TMPD/real.zst" >/dev/null; ok $? "a real zstd recording still reports"
done_testing
