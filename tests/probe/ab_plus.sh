#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A/B numbers carry their sign (issue 32, from make mutate: dropping the
# explicit '+' of a positive difference survived): a command whose metric is
# the knob's value, 0 then 1, gives B - A = +1.0 in the verdict; the other
# way round, a real minus sign (U+2212). On a copy of rk3588, --cmd, no probe.
. "$TT_SRCDIR/tests/lib.sh"

ab() {
	root=$(mktemp -d "$TMPD/ab.XXXXXX")
	cp -a "$FIXTURES/rk3588/." "$root/"
	"$TUNETOP" --root "$root" ab "cpuidle/cpu0/cpu-sleep/disable=$1" \
		--cmd 'echo v=$TUNETOP_AB_VALUE' --metric 'v=([0-9.]+)' --window 0 --settle 0 \
		--rounds 3 2>&1 | sed -n 's/^verdict: //p'
}
v=$(ab 0,1)
like "$v" 'disable=1: p99 \+1\.0 \[\+1\.0, \+1\.0\]( p adj [0-9.]+)?, p50 \+1\.0 \[\+1\.0, \+1\.0\]' \
	"B - A of 1: +1.0 [+1.0, +1.0]"
v=$(ab 1,0)
like "$v" 'disable=0: p99 −1\.0 \[−1\.0, −1\.0\]' "B - A of -1: −1.0 [−1.0, −1.0] (U+2212)"
done_testing
