#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: every benchmark, printed; none of them fails on timing. The
# gates (GATES: ab_verdict.sh, the A/B's calibration on this machine) make
# `make bench` exit 1 when they fail, after everything has run.
# `make bench BENCH='ab_verdict.sh ...'` runs only the named scripts ("core":
# the sampler's cost and watch's peak RSS measured here);
# BENCH='core tui.sh threads_vs_htop.sh' measures every number of the
# baseline and of the README's table (about 4 minutes).
# The numbers that must not grow (sample cost, peak RSS, the cost table's
# rows) are collected as "NAME|VALUE|UNIT" in bench-items.txt of the build
# directory and compared with tests/bench/baseline.txt at the end
# (tests/bench/baseline.sh: slower/faster/same per item, tolerance
# TT_BENCH_TOLERANCE, default 25 %); TT_BENCH_BASELINE=update stores this
# run as the baseline instead. A full run rewrites README.md's cost table
# (TT_BENCH_README=no: print it only; a BENCH= run writes it only with
# TT_BENCH_README=yes). Being slower than the baseline is printed, and
# makes `make bench` exit 1 only with TT_BENCH_BASELINE=gate.
set -u
: "${TT_BUILDDIR:?run through make bench}"
cd "$TT_BUILDDIR" || exit 1
here="$TT_SRCDIR/tests/bench"
GATES="ab_verdict.sh"
rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the rows of the README's cost table: tui.sh and threads_vs_htop.sh add
# theirs (tests/bench/cost_table.sh)
TT_BENCH_ROWS="$tmp/cost-rows"
export TT_BENCH_ROWS
: >"$TT_BENCH_ROWS"
items="$TT_BUILDDIR/bench-items.txt"
: >"$items"
# item NAME VALUE UNIT: one number compared with the baseline
item() { [ -z "$2" ] || echo "$1|$2|$3" >>"$items"; }
# sample NAME ARGS...: bench_sample, printed, its median CPU time an item
sample() {
	n=$1
	shift
	./tests/bench/bench_sample "$@" | tee "$tmp/out"
	item "$n" "$(sed -n 's/.*median of [0-9]* samples: cpu \([0-9.]*\) ms.*/\1/p' "$tmp/out")" "ms CPU"
}
# core: the sampler's cost and the peak RSS of watch (no benchmark script)
core() {
	echo "== sample cost (sampler tick, median) =="
	bash "$TT_SRCDIR/tests/gen-bigmachine.sh" "$tmp/big256" >/dev/null 2>&1 || echo "gen-bigmachine failed"
	sample "sample tick, rk3588 fixture, median" "$FIXTURES/rk3588" 500
	[ -d "$tmp/big256" ] && sample "sample tick, 256-CPU tree, median" "$tmp/big256" 100
	# as the TUI's Cores screen samples it in a 120x40 pane (32 CPU rows shown)
	[ -d "$tmp/big256" ] && sample "sample tick, 256-CPU tree, 32 CPUs shown, median" "$tmp/big256" 160 32
	sample "sample tick, this machine, median" / 200
	echo "== kernel config read (once per sampler) =="
	./tests/bench/bench_kconfig / 50 | tee "$tmp/out"
	item "kernel config read, this machine, median" "$(sed -n 's/.*median \([0-9.]*\) ms CPU.*/\1/p' "$tmp/out")" "ms CPU"
	echo "== peak RSS of tunetop watch =="
	/usr/bin/time -f "watch, 20 samples live: max RSS %M KiB" "$TUNETOP" watch --json -i 50 -n 20 >/dev/null 2>"$tmp/t"; tail -1 "$tmp/t"
	item "peak RSS of watch --json, 20 samples, this machine" "$(sed -n 's/.*max RSS \([0-9]*\) KiB$/\1/p' "$tmp/t")" KiB
	[ -d "$tmp/big256" ] && { /usr/bin/time -f "watch, 20 samples 256 CPUs: max RSS %M KiB" "$TUNETOP" --root "$tmp/big256" watch --json -i 50 -n 20 >/dev/null 2>"$tmp/t"; tail -1 "$tmp/t"
		item "peak RSS of watch --json, 20 samples, 256-CPU tree" "$(sed -n 's/.*max RSS \([0-9]*\) KiB$/\1/p' "$tmp/t")" KiB; }
}
if [ -n "${TT_BENCH:-}" ]; then
	for s in $TT_BENCH; do
		echo "== $s =="
		case $s in
		core) core ;;
		*) sh "$here/$s" || { echo "($s failed)"; rc=1; } ;;
		esac
	done
else
	core
	for s in "$here"/*.sh; do
		case $(basename "$s") in run.sh | lib.sh | special.sh | htop-on-root.sh | cost_table.sh | baseline.sh) continue ;; esac
		echo "== $(basename "$s") =="
		if ! sh "$s"; then
			echo "($(basename "$s") failed)"
			case " $GATES " in *" $(basename "$s") "*) rc=1 ;; esac
		fi
	done
fi
# the cost table's rows as items: tunetop's value, and its ratio to htop's
# in the same run (which the machine's speed and load move less); "~2140
# threads" named by the thousands, so that runs compare
awk -F'|' '{
	n = $1
	if (match(n, /~[0-9]+ threads/)) {
		k = substr(n, RSTART + 1, RLENGTH - 9) / 1000
		n = substr(n, 1, RSTART - 1) sprintf("~%dk threads", k + 0.5) substr(n, RSTART + RLENGTH)
	}
	print n ", tunetop|" $2 "|" $4
	if ($3 != "" && $3 + 0 > 0) printf "%s, tunetop / htop|%.3f|ratio\n", n, $2 / $3
}' "$TT_BENCH_ROWS" >>"$items"
if [ -s "$TT_BENCH_ROWS" ]; then
	echo "== the README's cost table =="
	w=${TT_BENCH_README:-}
	[ -n "$w" ] || { [ -n "${TT_BENCH:-}" ] && w=no || w=yes; }
	if [ "$w" = no ]; then
		sh "$here/cost_table.sh" "$TT_BENCH_ROWS"
	else
		sh "$here/cost_table.sh" "$TT_BENCH_ROWS" "$TT_SRCDIR/README.md"
	fi
fi
echo "== against the baseline (tests/bench/baseline.txt) =="
echo "this run's numbers: $items"
case ${TT_BENCH_BASELINE:-} in
update)
	sh "$here/baseline.sh" update "$items" "$here/baseline.txt"
	;;
*)
	if ! sh "$here/baseline.sh" compare "$here/baseline.txt" "$items"; then
		[ "${TT_BENCH_BASELINE:-}" != gate ] || rc=1
	fi
	;;
esac
exit $rc
