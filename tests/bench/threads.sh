#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: sampling cost of the thread list (threads_read) with a helper
# process holding 2,000 threads. Median of 20 reads; printed, never asserted.
# Run from a build tree: TT_BUILDDIR=... sh tests/bench/threads.sh (make bench).
set -u
b=${TT_BUILDDIR:-.}
helper="$b/tests/live/threads_helper"
bench="$b/tests/live/bench_threads"
n=${TT_BENCH_THREADS:-2000}
if [ ! -x "$helper" ] || [ ! -x "$bench" ]; then
	(cd "$b" && make -s tests/live/threads_helper tests/live/bench_threads) >/dev/null 2>&1
fi
[ -x "$helper" ] && [ -x "$bench" ] || { echo "bench threads: helpers not built (make check first)"; exit 0; }
out=$(mktemp)
"$helper" -n 0 --spawn "$n" >"$out" 2>&1 &
hp=$!
i=0
while ! grep -q '^ready' "$out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 3000 ] && { echo "bench threads: helper did not start: $(cat "$out")"; kill $hp; rm -f "$out"; exit 0; }
	sleep 0.01
done
echo "== thread list sampling cost, helper with $n threads, $(getconf _NPROCESSORS_ONLN) CPUs =="
"$bench" 20
kill $hp 2>/dev/null
wait $hp 2>/dev/null
rm -f "$out"
exit 0
