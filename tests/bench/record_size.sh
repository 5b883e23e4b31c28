#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Size of a recording and the writer's CPU per sample (issue 18): 3600
# samples of the demo board (1 h at 1 Hz; the simulator is stepped 1 s per
# sample, no sleeping) written as plain JSON lines and as the zstd stream
# (tests/bench/bench_record), then a check that `tunetop report` reads the
# compressed file back (its time printed). Target: <= 3 KB per sample.
# Printed, never asserted.
#   TT_BENCH_RECORD_N=N        samples (default 3600)
#   TT_BENCH_RECORD_LEVELS="1 3 6"  zstd levels to compare (default: the
#                              recorder's own level)
set -u
: "${TUNETOP:?run through make bench}"
N=${TT_BENCH_RECORD_N:-3600}
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$base/tunetop-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
b="${TT_BUILDDIR:-.}"
[ -n "${TUNETOP_DEMO:-}" ] || TUNETOP_DEMO="$b/rk3588-demo.tar"
export TUNETOP_DEMO
# the simulated root on tmpfs too: the sampler reads ~260 files a sample
TMPDIR=$tmp "$b/tests/bench/bench_record" "$tmp" "$N" ${TT_BENCH_RECORD_LEVELS:-} || exit 1
for f in "$tmp"/rec-zstd*.rec; do
	[ -f "$f" ] || continue
	/usr/bin/time -f "  tunetop report of the compressed file: %e s, max RSS %M KiB" \
		"$TUNETOP" report "$f" >/dev/null 2>"$tmp/t" && tail -1 "$tmp/t"
	/usr/bin/time -f "  tunetop report of the plain file: %e s, max RSS %M KiB" \
		"$TUNETOP" report "$tmp"/rec-plain0.jsonl >/dev/null 2>"$tmp/t" && tail -1 "$tmp/t"
	break
done
