#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Whole-file reads stop at 16 MiB (issue 13): a 300 MB proc/interrupts in a
# --root tree (a sparse file) is refused with one line naming it, and the
# rest of the snapshot is there.
. "$TT_SRCDIR/tests/lib.sh"

root="$TMPD/root1"
cp -a "$FIXTURES/rk3588" "$root" || exit 1
truncate -s 300M "$root/proc/interrupts"
out=$("$TUNETOP" --root "$root" snapshot --interval 0 2>"$TMPD/err")
ok $? "snapshot exits 0"
is "$(cat "$TMPD/err")" \
	"tunetop snapshot: $root/proc/interrupts: larger than 16 MiB (EFBIG); not read" \
	"one line naming the file"
like "$out" "cpu-sleep" "the rest of the snapshot is there"

"$TUNETOP" --root "$root" watch -i 50 -n 2 >/dev/null 2>"$TMPD/err"
ok $? "watch exits 0"
is "$(grep -c 'proc/interrupts: larger than 16 MiB' "$TMPD/err")" 1 "watch says it once"

"$TUNETOP" --root "$root" capture "$TMPD/cap" >"$TMPD/out" 2>/dev/null
ok $? "capture exits 0"
like "$(cat "$TMPD/out")" "proc/interrupts: larger than 16 MiB \\(EFBIG\\)" \
	"capture lists it as skipped"
[ ! -e "$TMPD/cap/proc/interrupts" ]
ok $? "capture does not copy it"

# just below the cap is read
root2="$TMPD/root2"
cp -a "$FIXTURES/rk3588" "$root2" || exit 1
{
	cat "$root2/proc/interrupts"
	head -c 15000000 /dev/zero | tr '\0' ' '
} >"$TMPD/i" && mv "$TMPD/i" "$root2/proc/interrupts"
"$TUNETOP" --root "$root2" snapshot --interval 0 >/dev/null 2>"$TMPD/err"
ok $? "15 MB: snapshot exits 0"
is "$(cat "$TMPD/err")" "" "15 MB: read, nothing refused"
done_testing
