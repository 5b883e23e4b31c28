#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# capture: a tree copied from a root reads back the same as the original.
. "$TT_SRCDIR/tests/lib.sh"

for b in rk3588 intel stm32mp157; do
	out="$TMPD/cap-$b"
	"$TUNETOP" --root "$FIXTURES/$b" capture "$out" >"$TMPD/msg" 2>&1
	ok $? "$b: capture exits 0"
	like "$(cat "$TMPD/msg")" "captured [0-9]+ files" "$b: capture reports what it copied"
	"$TUNETOP" --root "$FIXTURES/$b" snapshot --json --interval 0 --stable |
		sed 's/"root":"[^"]*"//' >"$TMPD/a.json"
	"$TUNETOP" --root "$out" snapshot --json --interval 0 --stable | sed 's/"root":"[^"]*"//' >"$TMPD/b.json"
	if cmp -s "$TMPD/a.json" "$TMPD/b.json"; then ok 0 "$b: snapshot of the capture equals the original"
	else ok 1 "$b: snapshot of the capture equals the original"; diff "$TMPD/a.json" "$TMPD/b.json" | head -5 | sed 's/^/# /'; fi
	bad=$(find "$out" -xtype l | head -3)
	is "$bad" "" "$b: every symlink in the capture resolves inside it"
	abs=$(find "$out" -type l -lname '/*' | head -3)
	is "$abs" "" "$b: no absolute symlinks"
done
if [ -d "$FIXTURES/rk3588/sys/class/devfreq" ]; then
	[ -L "$TMPD/cap-rk3588/sys/class/devfreq/dmc" ]; ok $? "rk3588: devfreq class symlink kept as a link"
fi
# Live capture works and writes nothing outside OUT_DIR.
"$TUNETOP" capture "$TMPD/cap-live" >/dev/null 2>&1; ok $? "live capture exits 0"
[ -f "$TMPD/cap-live/proc/stat" ]; ok $? "live capture has proc/stat"
"$TUNETOP" --root "$TMPD/cap-live" snapshot --interval 0 >/dev/null; ok $? "live capture is a usable --root"
mkdir -p "$TMPD/inside"
"$TUNETOP" --root "$TMPD" capture "$TMPD/inside/x" >/dev/null 2>&1; is "$?" 2 "capture into the root itself is refused"
done_testing
