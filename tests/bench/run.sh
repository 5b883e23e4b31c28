#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: every benchmark, printed; none of them fails on timing. The
# gates (GATES: ab_verdict.sh, the A/B's calibration on this machine) make
# `make bench` exit 1 when they fail, after everything has run.
# `make bench BENCH='ab_verdict.sh ...'` runs only the named scripts.
set -u
: "${TT_BUILDDIR:?run through make bench}"
cd "$TT_BUILDDIR" || exit 1
here="$TT_SRCDIR/tests/bench"
GATES="ab_verdict.sh"
rc=0
if [ -n "${TT_BENCH:-}" ]; then
	for s in $TT_BENCH; do
		echo "== $s =="
		sh "$here/$s" || { echo "($s failed)"; rc=1; }
	done
	exit $rc
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== sample cost (sampler tick, median) =="
bash "$TT_SRCDIR/tests/gen-bigmachine.sh" "$tmp/big256" >/dev/null 2>&1 || echo "gen-bigmachine failed"
./tests/bench/bench_sample "$FIXTURES/rk3588" 500
[ -d "$tmp/big256" ] && ./tests/bench/bench_sample "$tmp/big256" 100
# as the TUI's Cores screen samples it in a 120x40 pane (32 CPU rows shown)
[ -d "$tmp/big256" ] && ./tests/bench/bench_sample "$tmp/big256" 160 32
./tests/bench/bench_sample / 200
echo "== kernel config read (once per sampler) =="
./tests/bench/bench_kconfig / 50
echo "== peak RSS of tunetop watch =="
/usr/bin/time -f "watch, 20 samples live: max RSS %M KiB" "$TUNETOP" watch --json -i 50 -n 20 >/dev/null 2>"$tmp/t"; tail -1 "$tmp/t"
[ -d "$tmp/big256" ] && { /usr/bin/time -f "watch, 20 samples 256 CPUs: max RSS %M KiB" "$TUNETOP" --root "$tmp/big256" watch --json -i 50 -n 20 >/dev/null 2>"$tmp/t"; tail -1 "$tmp/t"; }
# the rows of the README's cost table: tui.sh and threads_vs_htop.sh add
# theirs, cost_table.sh writes the table into README.md at the end
TT_BENCH_ROWS="$tmp/cost-rows"
export TT_BENCH_ROWS
for s in "$here"/*.sh; do
	case $(basename "$s") in run.sh | lib.sh | special.sh | htop-on-root.sh | cost_table.sh) continue ;; esac
	echo "== $(basename "$s") =="
	if ! sh "$s"; then
		echo "($(basename "$s") failed)"
		case " $GATES " in *" $(basename "$s") "*) rc=1 ;; esac
	fi
done
echo "== the README's cost table =="
# TT_BENCH_README=no: print it only
if [ "${TT_BENCH_README:-yes}" = no ]; then
	sh "$here/cost_table.sh" "$TT_BENCH_ROWS"
else
	sh "$here/cost_table.sh" "$TT_BENCH_ROWS" "$TT_SRCDIR/README.md"
fi
exit $rc
