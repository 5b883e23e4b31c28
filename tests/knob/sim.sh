#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The sim/ knob family (issue 35, src/knob/fam_sim.c): a world's SIMULATED
# switches are knobs only on a root that holds a world. On a plain fixture
# `knobs sim` lists none and `set sim/...` is refused with one line that
# says why; in the world stm32mp1-rpmsg the M4 firmware's switches are
# listed with their allowed values, a set writes the world's file, a value
# out of the declared ones is refused, and undo puts the file back byte for
# byte (a file without its newline stays without it).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/knob/common.sh"

fresh rk3588
out=$(tt knobs sim 2>/dev/null)
is "$out" "" "plain fixture: knobs sim lists nothing"
out=$(tt knobs 2>/dev/null | grep -c '^sim/')
is "$out" 0 "plain fixture: knobs lists no sim/ address"
out=$(tt set sim/m4/vring_polling=0 2>&1)
rc=$?
is "$rc" 2 "plain fixture: set sim/m4/vring_polling=0 exits 2"
is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "plain fixture: one line"
like "$out" "only in a simulated world" "plain fixture: it says why: $out"
pristine && ok 0 "plain fixture: the tree is untouched" || ok 1 "plain fixture: the tree is untouched"

root="$TMPD/world"
if ! out=$("$TUNETOP" world stm32mp1-rpmsg "$root" 2>&1); then
	case $out in
	*disable-demo* | *"not installed"*) skip "the world switches" "no simulated board in this build"; done_testing; exit 0 ;;
	esac
fi
FW="$root/etc/SIMULATED-m4-firmware"
like "$(tt knobs sim)" "sim/m4/shared_cached_buffers +1 .*0 1" "world: knobs sim lists the M4 switches"
printf '1' >"$FW/vring_polling" # no newline: the restore keeps the bytes
cp "$FW/vring_polling" "$TMPD/before"
out=$(tt set sim/m4/vring_polling=0 2>&1)
is "$?" 0 "world: set sim/m4/vring_polling=0 exits 0"
is "$(cat "$FW/vring_polling")" 0 "world: the switch's file holds 0"
out=$(tt set sim/m4/vring_polling=2 2>&1)
is "$?" 2 "world: a value the world does not declare is refused (exit 2)"
like "$out" "not one of: 0 1" "world: and named: $out"
out=$(tt set sim/m4/poll_interval_us=5 2>&1)
like "$out" "not a whole number in 10..10000" "world: a number out of its range is refused"
out=$(tt undo 2>&1)
is "$?" 0 "world: undo exits 0"
cmp -s "$TMPD/before" "$FW/vring_polling"
is "$?" 0 "world: undo restores the file byte for byte"
done_testing
