#!/bin/sh
# Run the fuzz harnesses built by build.sh, one at a time:
#   run.sh BINDIR SECONDS [NAME...]      (all harnesses in BINDIR by default)
# env: TT_SRCDIR, FIXTURES, TUNETOP    for the seed corpora (seeds.sh)
#      FUZZ_WORK   where corpora, crashes and logs go (default BINDIR)
#      FUZZ_NICE   niceness of the fuzzers (default 19: the machine is shared)
#      FUZZ_ARGS   more libFuzzer options
# Per harness NAME: seeds in WORK/seeds/NAME (made afresh), the growing corpus
# in WORK/corpus/NAME (kept between runs), crash/leak/timeout/oom inputs in
# WORK/crashes/NAME/, libFuzzer's output in WORK/logs/NAME.log. Prints one
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
	# shellcheck disable=SC2086
	nice -n "${FUZZ_NICE:-19}" "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/crashes/$n/" ${FUZZ_ARGS:-} \
		"$work/corpus/$n" "$work/seeds/$n" >"$log" 2>&1
	rc=$?
	runs=$(final_stat "$log" number_of_executed_units)
	rate=$(final_stat "$log" average_exec_per_sec)
	crashes=$(($(ls "$work/crashes/$n" | wc -l) - before))
	[ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1 # died without an artifact
	files=$(ls "$work/corpus/$n" | wc -l)
	kib=$(du -sk --apparent-size "$work/corpus/$n" | cut -f1)
	printf 'fuzz_%s: %s execs in %s s (%s exec/s), %s crashes, corpus %s inputs (%s KiB)\n' \
		"$n" "${runs:-0}" "$secs" "${rate:-0}" "$crashes" "$files" "$kib"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$n" "$secs" \
		"${runs:-0}" "${rate:-0}" "$crashes" "$files" "$kib" >>"$work/summary.tsv"
	if [ "$crashes" -ne 0 ]; then
		status=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*property does not hold)' "$log" | head -5
		echo "  inputs: $work/crashes/$n/ (reproduce: $bin INPUT)"
	fi
done
exit $status
