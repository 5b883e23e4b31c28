#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A/A false-positive rate of a sweep (`tunetop ab --aa ADDRESS=V,V,V,V`): a
# sweep of 4 values that are all the same, on a copied RK3588 fixture, with a
# --cmd metric of seeded noise (20 numbers per window, window-to-window noise
# and, in the second set, a slow drift shared by every value), repeated with
# TT_AB_SWEEP_RUNS (40) seeds, 6 rounds each. Counts per metric the runs in
# which any of the 3 comparisons with V1 was called significant after
# Holm-Bonferroni (the family-wise rate: goal at most 5 %), and, for
# contrast, the runs in which an unadjusted p < 0.05 would have called one.
# Printed, never asserted; no timing is involved (--window 0).
set -u
: "${TUNETOP:?run through make bench}"
: "${FIXTURES:=$TT_SRCDIR/tests/fixtures}"
command -v jq >/dev/null 2>&1 || { echo "ab_sweep_aa: jq not installed, skipped"; exit 0; }
N=${TT_AB_SWEEP_RUNS:-40}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-sweepaa.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -a "$FIXTURES/rk3588" "$tmp/root"
KNOB=cpufreq/policy0/interactive/timer_rate
cat >"$tmp/noise.sh" <<'EOF'
#!/bin/sh
# the window's seed hashed (cksum of "SEED-WINDOW"): mawk's rand() after
# srand(N) and srand(N + 1) differ by a near-constant step, so seeds that
# count up with the window put a pattern across window positions that an
# A/A test rightly finds; mawk also clamps seeds above 2^31
seed=$(printf '%s-%s' "$SEED" "$TUNETOP_AB_WINDOW" | cksum | cut -d' ' -f1)
awk -v w="$TUNETOP_AB_WINDOW" -v s="$SEED" -v d="$DRIFT" -v seed="$seed" 'BEGIN {
	srand(seed % 1000003)
	lvl = d * sin((w + 7 * s) / 5) + (rand() + rand() + rand() - 1.5) * 2
	for (i = 0; i < 20; i++) {
		n = 0
		for (j = 0; j < 12; j++)
			n += rand()
		printf "metric: %.3f ms\n", 100 + lvl + (n - 6) * 2
	}
}'
EOF
chmod +x "$tmp/noise.sh"
export SEED DRIFT

echo "A/A sweeps: $N runs of tunetop ab --aa $KNOB=20000,20000,20000,20000 --rounds 6 (seeded noise)"
for DRIFT in 0 6; do
	fw99=0 fw50=0 fwmean=0 raw99=0 raw50=0 rawmean=0 done=0
	SEED=0
	while [ "$SEED" -lt "$N" ]; do
		SEED=$((SEED + 1))
		if ! "$TUNETOP" --root "$tmp/root" --state-dir "$tmp/state" ab --aa \
			"$KNOB=20000,20000,20000,20000" --cmd "$tmp/noise.sh" --metric 'metric: ([0-9.]+)' \
			--window 0 --settle 0 --rounds 6 --seed "$SEED" --json >"$tmp/r.json" 2>"$tmp/r.err"; then
			echo "  run $SEED failed: $(tail -1 "$tmp/r.err")"
			continue
		fi
		done=$((done + 1))
		# shellcheck disable=SC2046 # six numbers
		set -- $(jq -r '[("p99", "p50", "mean") as $m | ([.comparisons[][$m].significant] | any | if . then 1 else 0 end)]
			+ [("p99", "p50", "mean") as $m | ([.comparisons[][$m].p < 0.05] | any | if . then 1 else 0 end)] | @tsv' "$tmp/r.json")
		fw99=$((fw99 + $1)) fw50=$((fw50 + $2)) fwmean=$((fwmean + $3))
		raw99=$((raw99 + $4)) raw50=$((raw50 + $5)) rawmean=$((rawmean + $6))
	done
	echo "drift amplitude $DRIFT ms: runs with a false alarm, Holm-Bonferroni: p99 $fw99/$done, p50 $fw50/$done, mean $fwmean/$done;" \
		"unadjusted p < 0.05: p99 $raw99/$done, p50 $raw50/$done, mean $rawmean/$done"
done
echo "(goal: Holm-Bonferroni at most 5 % of runs per metric)"
