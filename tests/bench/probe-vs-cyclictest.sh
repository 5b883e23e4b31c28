#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): tunetop probe against cyclictest (Debian rt-tests)
# with identical settings -- one thread pinned to CPU 0, SCHED_FIFO 95,
# 1000 us interval, memory locked, PM QoS left alone (cyclictest --laptop
# keeps it from holding /dev/cpu_dma_latency at 0, which it does by
# default) -- run alternately, three times each. Prints every run and the
# merged distributions side by side (mean, p50, p99, max) with the ratio
# tunetop / cyclictest. Never fails on timing.
#
#   TUNETOP=./tunetop sh tests/bench/probe-vs-cyclictest.sh
#   env: BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_CPU (0),
#        BENCH_HIST_US (10000: cyclictest's histogram range; a latency beyond
#        it counts as this value in both tools, so a p99 there is a floor)
#
# Both tools' statistics are computed here from their 1 us histograms, the
# same way (nearest rank, whole microseconds truncated, mean of the
# truncated values), so the comparison is like for like; the max is each
# tool's exact maximum (whole us).
set -u
: "${TUNETOP:=./tunetop}"
secs=${BENCH_SECONDS:-10}
rounds=${BENCH_ROUNDS:-3}
cpu=${BENCH_CPU:-0}
hmax=${BENCH_HIST_US:-10000}

if ! command -v cyclictest >/dev/null 2>&1; then
	echo "probe-vs-cyclictest: cyclictest not installed (Debian: apt-get install rt-tests); skipped"
	exit 0
fi
if ! command -v jq >/dev/null 2>&1; then
	echo "probe-vs-cyclictest: jq not installed; skipped"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "probe-vs-cyclictest: needs root for SCHED_FIFO and mlockall in both tools; skipped"
	exit 0
fi
[ -x "$TUNETOP" ] || { echo "probe-vs-cyclictest: $TUNETOP not built" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# stats FILE -> "n mean p50 p99" from "value count" lines (value in whole us)
stats() {
	sort -n "$1" | awk '
		{ v[NR] = $1; c[NR] = $2; n += $2; s += $1 * $2 }
		END {
			if (!n) { print "0 nan nan nan"; exit }
			r50 = int(0.50 * n); if (r50 < 0.50 * n) r50++
			r99 = int(0.99 * n); if (r99 < 0.99 * n) r99++
			cum = 0; p50 = p99 = ""
			for (i = 1; i <= NR; i++) {
				cum += c[i]
				if (p50 == "" && cum >= r50) p50 = v[i]
				if (p99 == "" && cum >= r99) p99 = v[i]
			}
			printf "%d %.1f %d %d\n", n, s / n, p50, p99
		}'
}

# merge FILES... -> "value count" summed per value
merge() { cat "$@" | awk '{ c[$1] += $2 } END { for (v in c) print v, c[v] }'; }

run_cyclictest() { # N
	out="$tmp/ct$1.out"
	cyclictest -m -p95 -i1000 -t1 -a"$cpu" -D"$secs" -q -h"$hmax" --laptop >"$out" \
		2>"$tmp/ct$1.err"
	# 1 us buckets 0..hmax-1; samples beyond the histogram count as hmax us
	awk -v hmax="$hmax" '/^[0-9]/ { if ($2 + 0) print $1 + 0, $2 + 0 }
	     /^# Histogram Overflows:/ { if ($4 + 0) print hmax, $4 + 0 }' "$out" >"$tmp/ct$1.hist"
	sed -n 's/^# Max Latencies: *0*\([0-9][0-9]*\).*/\1/p' "$out" >"$tmp/ct$1.max"
}

run_tunetop() { # N
	out="$tmp/tt$1.json"
	"$TUNETOP" probe --cpus "$cpu" -i 1000 --prio 95 --policy fifo -D "$secs" --json >"$out" \
		2>"$tmp/tt$1.err"
	jq -r '.cpus[0].histogram[] | "\(.lo_us) \(.count)"' "$out" |
		awk -v hmax="$hmax" '{ v = $1 > hmax ? hmax : $1; print v, $2 }' >"$tmp/tt$1.hist"
	jq -r '.cpus[0].max_us | floor' "$out" >"$tmp/tt$1.max"
}

echo "probe-vs-cyclictest: CPU $cpu, SCHED_FIFO 95, interval 1000 us, ${secs} s per run," \
	"$rounds rounds, PM QoS untouched, histograms to $hmax us, $(uname -r)"
printf '%-11s %5s %8s %8s %6s %6s %6s\n' tool run samples mean_us p50_us p99_us max_us
i=1
while [ "$i" -le "$rounds" ]; do
	run_cyclictest "$i"
	set -- $(stats "$tmp/ct$i.hist")
	printf '%-11s %5s %8s %8s %6s %6s %6s\n' cyclictest "$i" "$1" "$2" "$3" "$4" "$(cat "$tmp/ct$i.max")"
	run_tunetop "$i"
	set -- $(stats "$tmp/tt$i.hist")
	printf '%-11s %5s %8s %8s %6s %6s %6s\n' tunetop "$i" "$1" "$2" "$3" "$4" "$(cat "$tmp/tt$i.max")"
	i=$((i + 1))
done

merge "$tmp"/ct*.hist >"$tmp/ct.all"
merge "$tmp"/tt*.hist >"$tmp/tt.all"
ctmax=$(sort -n "$tmp"/ct*.max | tail -n1)
ttmax=$(sort -n "$tmp"/tt*.max | tail -n1)
set -- $(stats "$tmp/ct.all")
cn=$1 cmean=$2 c50=$3 c99=$4
set -- $(stats "$tmp/tt.all")
tn=$1 tmean=$2 t50=$3 t99=$4

echo
echo "merged over $rounds runs each:"
printf '%-8s %12s %12s %9s %12s\n' metric cyclictest tunetop ratio verdict
row() { # NAME CT TT
	awk -v n="$1" -v c="$2" -v t="$3" 'BEGIN {
		d = t - c; if (d < 0) d = -d
		r = c > 0 ? sprintf("%.3f", t / c) : "n/a"
		ok = (c > 0 && d <= 0.10 * c) || d <= 5 ? "within 10%/5us" : "OUTSIDE"
		if (n == "max_us") ok = "(not a target)"
		printf "%-8s %12s %12s %9s %12s\n", n, c, t, r, ok }'
}
row samples "$cn" "$tn" | sed 's/within 10%\/5us/-/;s/OUTSIDE/-/'
row mean_us "$cmean" "$tmean"
row p50_us "$c50" "$t50"
row p99_us "$c99" "$t99"
row max_us "$ctmax" "$ttmax"
echo "(target, issue 7: tunetop's mean and p99 within 10% or 5 us of cyclictest's)"
