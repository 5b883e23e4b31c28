#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A value of two lines for a knob whose family checks it itself (irq, thread:
# their messages quote the value) is refused in one line, exit 2, nothing
# written (issue 32: found by tests/fuzz/fuzz_knobaddr.c, the message was
# two lines). A file knob's refusal was one line already.
. "$TT_SRCDIR/tests/lib.sh"

root=$(copy_fixture rk3588)
cp -a "$root" "$TMPD/orig"
nl='
'
for a in irq/14/affinity irq/default_smp_affinity cpufreq/policy0/governor; do
	"$TUNETOP" --root "$root" set "$a=m${nl}Uid:-3" >/dev/null 2>"$TMPD/err"
	is "$?" 2 "set $a to two lines: exit 2"
	is "$(wc -l <"$TMPD/err" | tr -d ' ')" 1 "... one line on stderr"
	like "$(cat "$TMPD/err")" "$a: EINVAL" "... naming the address and EINVAL"
done
same_tree "$root" "$TMPD/orig"
ok $? "nothing written"
done_testing
