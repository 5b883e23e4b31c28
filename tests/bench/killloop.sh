#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kill at random, long form: tests/knob/killloop.sh with 100 SIGKILLs (set
# and profile apply on a 64-CPU tree, restore, diff -r against the pristine
# copy each time). Prints the failures and a count; exits 1 on a failure.
set -u
: "${TUNETOP:?run through make bench}"
out=$(TT_KILLS=${TT_KILLS:-100} sh "$TT_SRCDIR/tests/knob/killloop.sh" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^ok '
echo "killloop: $(printf '%s\n' "$out" | grep -c '^ok ') ok, $(printf '%s\n' "$out" | grep -c '^not ok') not ok"
exit "$rc"
