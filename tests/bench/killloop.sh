#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kill at random, long form: tests/knob/killloop.sh with 100 SIGKILLs (set
# and profile apply on a 64-CPU tree, restore, diff -r against the pristine
# copy each time), with FIFOs, a socket and hard links (one to a file outside
# the tree) among the tree's files (TT_KILL_SPECIAL, tests/bench/special.sh);
# the loop runs under timeout(1) (TT_KILL_LIMIT s), so a hang fails it
# instead of stalling make bench.
# Prints the failures and a count; exits 1 on a failure.
set -u
: "${TUNETOP:?run through make bench}"
out=$(TT_KILL_SPECIAL=1 TT_KILLS=${TT_KILLS:-100} timeout -k 10 "${TT_KILL_LIMIT:-1800}" \
	sh "$TT_SRCDIR/tests/knob/killloop.sh" 2>&1)
rc=$?
[ "$rc" -eq 124 ] && echo "not ok - killloop: hung (over ${TT_KILL_LIMIT:-1800} s)"
printf '%s\n' "$out" | grep -v '^ok '
echo "killloop: $(printf '%s\n' "$out" | grep -c '^ok ') ok, $(printf '%s\n' "$out" | grep -c '^not ok') not ok"
exit "$rc"
