#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of one journaled knob change on tmpfs (design §6: the record is
# appended and fsynced before the write, the file is re-read, a commit
# record follows). Printed, never asserted.
#   in process (tests/bench/bench_journal): knob_set_many() of one knob,
#     the marginal cost of one more knob, a bare append+fdatasync, a bare
#     write+re-read; medians
#   whole command: `tunetop set` of one knob vs `tunetop set --dry-run`
#     (process start-up dominates both)
set -u
: "${TUNETOP:?run through make bench}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
N=${TT_BENCH_N:-200}
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$base/tunetop-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -a "$FIXTURES/rk3588" "$tmp/root"
echo "journal on $base ($(stat -f -c %T "$base" 2>/dev/null || echo '?')), target: one change < 1000 us"
bj="${TT_BUILDDIR:-.}/tests/bench/bench_journal"
if [ -x "$bj" ]; then
	"$bj" "$tmp/root" "$tmp/state" "$N"
else
	echo "  (build tests/bench/bench_journal with 'make check' for the in-process numbers)"
fi

tt() { "$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state2" "$@"; }
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR) printf "%.1f", a[int((NR+1)/2)] / 1000; else print 0}'; }
: >"$tmp/set"
: >"$tmp/dry"
i=0
while [ "$i" -lt 21 ]; do
	v=$((i % 2))
	t0=$(now)
	tt set "cpuidle/cpu0/state1/disable=$((1 - v))" >/dev/null
	t1=$(now)
	tt set --dry-run "cpuidle/cpu0/state1/disable=$v" >/dev/null
	t2=$(now)
	echo $((t1 - t0)) >>"$tmp/set"
	echo $((t2 - t1)) >>"$tmp/dry"
	i=$((i + 1))
done
tt restore >/dev/null
echo "  tunetop set, 1 knob (whole process):       $(median <"$tmp/set") us"
echo "  tunetop set --dry-run (no journal/write):  $(median <"$tmp/dry") us"
