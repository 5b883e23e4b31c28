#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench` against a stored baseline (issue 33: "no slowdown").
#   baseline.sh compare BASELINE ITEMS [TOLERANCE_PERCENT]
#   baseline.sh update ITEMS BASELINE
# ITEMS holds one measurement a line, "NAME|VALUE|UNIT", as tests/bench/run.sh
# collects them (bench-items.txt in the build directory); for every item a
# smaller value is better (CPU time, wall time, memory, tunetop's cost over
# htop's measured in the same run). BASELINE is such a file with "#" comment
# lines (tests/bench/baseline.txt, the machine and the date it was taken on).
# compare prints one line per baseline item: its value then and now, the
# change, and "slower" or "faster" when the change is beyond the tolerance
# (default TT_BENCH_TOLERANCE, else 25 %), else "same"; an item not
# measured in this run is "not measured". The last line counts them. It
# exits 0 unless an item is slower (1), or the files cannot be read (2).
# update writes ITEMS into BASELINE with a comment of where and when.
set -u
cmd=${1:-}
case $cmd in
compare)
	[ $# -ge 3 ] || { echo "usage: baseline.sh compare BASELINE ITEMS [TOLERANCE_PERCENT]" >&2; exit 2; }
	base=$2 now=$3 tol=${4:-${TT_BENCH_TOLERANCE:-25}}
	[ -r "$base" ] || { echo "baseline.sh: $base: cannot read the baseline" >&2; exit 2; }
	[ -r "$now" ] || { echo "baseline.sh: $now: cannot read this run's measurements" >&2; exit 2; }
	awk -F'|' -v tol="$tol" '
	FNR == NR { if ($0 !~ /^#/ && NF >= 2 && $2 != "") now[$1] = $2; next }
	/^#/ || NF < 2 || $2 == "" { next }
	{
		n++
		unit = $3
		if (!($1 in now)) {
			printf "  %-66s %10s %-8s %10s           not measured\n", $1, $2, unit, "-"
			miss++
			next
		}
		b = $2 + 0
		v = now[$1] + 0
		if (b <= 0) { chg = 0 } else { chg = (v - b) * 100 / b }
		verdict = "same"
		if (chg > tol) { verdict = "slower"; slow++; slowlist = slowlist " \"" $1 "\"" }
		else if (chg < -tol) { verdict = "faster"; fast++ }
		else same++
		printf "  %-66s %10s %-8s %10s %+7.1f %%  %s\n", $1, $2, unit, now[$1], chg, verdict
	}
	END {
		printf "baseline: %d items, %d slower, %d faster, %d same within +-%s %%, %d not measured\n",
			n, slow, fast, same, tol, miss
		if (slow) { print "slower than the baseline:" slowlist; exit 1 }
	}' "$now" "$base"
	;;
update)
	[ $# -eq 3 ] || { echo "usage: baseline.sh update ITEMS BASELINE" >&2; exit 2; }
	[ -s "$2" ] || { echo "baseline.sh: $2: no measurements" >&2; exit 2; }
	{
		echo "# tunetop make bench baseline: NAME|VALUE|UNIT, smaller is better"
		echo "# taken $(date -u +%Y-%m-%d) on $(nproc 2>/dev/null || echo '?') CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
		echo "# (tests/bench/baseline.sh; doc/bench.md, \"The baseline\")"
		grep -v '^#' "$2"
	} >"$3.tmp.$$" && mv "$3.tmp.$$" "$3" && echo "baseline.sh: $3 written ($(grep -vc '^#' "$2") items)"
	;;
*)
	echo "usage: baseline.sh compare BASELINE ITEMS [TOLERANCE_PERCENT] | update ITEMS BASELINE" >&2
	exit 2
	;;
esac
