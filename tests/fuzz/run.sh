#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the fuzz harnesses built by build.sh, one at a time:
#   run.sh BINDIR SECONDS [NAME...]      (all harnesses in BINDIR by default)
# env: TT_SRCDIR, FIXTURES, TUNETOP    for the seed corpora (seeds.sh)
#      FUZZ_WORK   where corpora, crashes and logs go (default BINDIR)
#      FUZZ_NICE   niceness of the fuzzers (default 19: the machine is shared)
#      FUZZ_ARGS   more libFuzzer options
# Per harness NAME: seeds in WORK/seeds/NAME (made afresh), the growing corpus
# in WORK/corpus/NAME (kept between runs), crash/leak/timeout/oom inputs in
# WORK/crashes/NAME/ (a timeout that does not repeat on its own goes to
# WORK/spurious/NAME/), libFuzzer's output in WORK/logs/NAME.log. Prints one
# line per harness (also appended to WORK/summary.tsv) and exits 1 when a
# harness crashed or did not run.
set -u
bindir=$1
secs=$2
shift 2
work=${FUZZ_WORK:-$bindir}
mkdir -p "$work/corpus" "$work/crashes" "$work/logs"
sh "$TT_SRCDIR/tests/fuzz/seeds.sh" "$work/seeds" || { echo "run.sh: cannot make the seed corpora" >&2; exit 1; }
names="$*"
if [ -z "$names" ]; then
	for b in "$bindir"/fuzz_*; do
		[ -x "$b" ] && names="$names ${b##*/fuzz_}"
	done
fi
final_stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }
status=0
for n in $names; do
	bin=$bindir/fuzz_$n
	log=$work/logs/$n.log
	[ -x "$bin" ] || { echo "fuzz_$n: not built"; status=1; continue; }
	mkdir -p "$work/corpus/$n" "$work/crashes/$n" "$work/seeds/$n"
	before=$(ls "$work/crashes/$n" | wc -l)
	t0=$(date +%s)
	# shellcheck disable=SC2086
	nice -n "${FUZZ_NICE:-19}" "$bin" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/crashes/$n/" ${FUZZ_ARGS:-} \
		"$work/corpus/$n" "$work/seeds/$n" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	runs=$(final_stat "$log" number_of_executed_units)
	rate=$(final_stat "$log" average_exec_per_sec)
	# A timeout under nice on a busy machine may be the scheduler's: an
	# input that then runs in well under the limit on its own is moved to
	# WORK/spurious/NAME/ and not counted.
	# A slow-unit-* file is libFuzzer's note of an input that took over 10 s
	# (-report_slow_units), not a failure: the same test applies.
	for t in "$work/crashes/$n"/timeout-* "$work/crashes/$n"/slow-unit-*; do
		[ -f "$t" ] || continue
		if "$bin" -timeout=10 -runs=1 "$t" >/dev/null 2>&1; then
			mkdir -p "$work/spurious/$n" && mv "$t" "$work/spurious/$n/"
			echo "fuzz_$n: a timeout or slow input that did not repeat (busy machine): $work/spurious/$n/${t##*/}"
			rc=0
		fi
	done
	crashes=$(($(ls "$work/crashes/$n" | wc -l) - before))
	[ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1 # died without an artifact
	files=$(ls "$work/corpus/$n" | wc -l)
	kib=$(du -sk --apparent-size "$work/corpus/$n" | cut -f1)
	printf 'fuzz_%s: %s execs in %s s (%s exec/s), %s crashes, corpus %s inputs (%s KiB)\n' \
		"$n" "${runs:-0}" "$took" "${rate:-0}" "$crashes" "$files" "$kib"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$n" "$took" \
		"${runs:-0}" "${rate:-0}" "$crashes" "$files" "$kib" >>"$work/summary.tsv"
	if [ "$crashes" -ne 0 ]; then
		status=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*property does not hold)' "$log" | head -5
		echo "  inputs: $work/crashes/$n/ (reproduce: $bin INPUT)"
	fi
done
exit $status
