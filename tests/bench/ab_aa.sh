#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A/A false-positive rate of `tunetop ab` on this machine: 10 real A/B runs of
# an idle-state knob of a copied RK3588 fixture (--root COPY: only the
# fixture's file flips, the probe measures this machine, so there is no real
# effect), with the default windows and rounds, and per metric how many runs
# called B − A significant at the 95 % level. Goal: at most 1 in 10 per
# metric. Printed, never asserted (it takes ~10 minutes; TT_AB_AA_RUNS and
# TT_AB_AA_OPTS change the runs and add options, e.g. "--window 1").
set -u
: "${TUNETOP:?run through make bench}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
command -v jq >/dev/null 2>&1 || { echo "ab_aa: jq not installed, skipped"; exit 0; }
N=${TT_AB_AA_RUNS:-10}
OPTS=${TT_AB_AA_OPTS:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-abaa.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -a "$FIXTURES/rk3588" "$tmp/root"
KNOB=cpuidle/cpu0/state1/disable

echo "A/A on this machine ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)): $N runs of"
echo "  tunetop --root COPY ab $KNOB=0,1 --cpus 0 $OPTS (defaults otherwise)"
printf '%4s %-26s %-26s %-26s %s\n' run "p99 B-A [95% CI] us" "p50 B-A [95% CI] us" "mean B-A [95% CI] us" "p99 detectable"
i=0
fp99=0 fp50=0 fpmean=0 done=0
while [ "$i" -lt "$N" ]; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # OPTS is a list of options
	if ! "$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state" ab "$KNOB=0,1" --cpus 0 $OPTS \
		--seed "$i" --json >"$tmp/r.json" 2>"$tmp/r.err"; then
		echo "  run $i failed: $(tail -1 "$tmp/r.err")"
		continue
	fi
	done=$((done + 1))
	row=$(jq -r 'def r: if . == null then "n/a" else . * 10 | round / 10 end;
		.comparison as $c | [ ("p99", "p50", "mean") as $m |
		($c[$m] | "\(.diff | r) [\(.lo | r), \(.hi | r)]\(if .significant then " *" else "" end)") ]
		+ [ "\($c.p99.mde | r)" ] | @tsv' "$tmp/r.json")
	printf '%4d %s\n' "$i" "$(printf '%s' "$row" | awk -F'\t' '{ printf "%-26s %-26s %-26s %s", $1, $2, $3, $4 }')"
	s=$(jq -r '[.comparison.p99.significant, .comparison.p50.significant, .comparison.mean.significant] | map(if . then 1 else 0 end) | @tsv' "$tmp/r.json")
	set -- $s
	fp99=$((fp99 + $1))
	fp50=$((fp50 + $2))
	fpmean=$((fpmean + $3))
done
echo "(* = called significant; every one of them is a false positive)"
echo "false positives: p99 $fp99/$done, p50 $fp50/$done, mean $fpmean/$done (goal: at most 1 in 10 per metric)"
