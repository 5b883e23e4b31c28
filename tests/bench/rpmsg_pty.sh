#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: the floor of `probe --rpmsg` on this machine: round trips
# through a pseudo-terminal echo without delay (tests/probe/pty_echo), i.e.
# what the tty layer and two wake-ups cost before any remote core is
# involved. Prints numbers; never fails on timing.
set -u
: "${TT_BUILDDIR:?run through make bench}"
ECHO="$TT_BUILDDIR/tests/probe/pty_echo"
[ -x "$ECHO" ] || { echo "pty_echo not built (make check builds it)"; exit 0; }
command -v jq >/dev/null 2>&1 || { echo "jq not installed"; exit 0; }
tmp=$(mktemp -d)
pid=""
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for size in 32 496; do
	rm -f "$tmp/out"
	"$ECHO" -s "$size" >"$tmp/out" 2>/dev/null &
	pid=$!
	i=0
	while [ ! -s "$tmp/out" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	dev=$(head -1 "$tmp/out")
	"$TUNETOP" probe --rpmsg "$dev" --rpmsg-size "$size" --rpmsg-interval-us 1000 -D 5 --json \
		>"$tmp/r.json" 2>/dev/null
	jq -r --arg s "$size" '.rpmsg | "pty echo, \($s) B every 1 ms, 5 s: \(.echoed) round trips, p50 \(.p50_us) us, p99 \(.p99_us) us, max \(.max_us) us, lost \(.lost)"' "$tmp/r.json"
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
done
