#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tunetop ab ADDRESS=V1,V2,V3,... (sweeps) on copied rk3588 fixture roots,
# measuring a --cmd metric that depends on the knob's value plus seeded noise
# (deterministic: the same windows give the same numbers): the order and the
# signs of the differences from V1 are found, Holm-Bonferroni is applied and
# said; a sweep in which nothing changes finds nothing; the schedule has
# every value once per half round; bad input (1 value, 9 values, a value
# twice) is one line, exit 2, nothing changed; the tree equals the pristine
# fixture after every run.
. "$TT_SRCDIR/tests/lib.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq not installed"

KNOB=cpufreq/policy0/interactive/timer_rate
REL=sys/devices/system/cpu/cpufreq/policy0/interactive/timer_rate
STATE="$TMPD/state"

# 20 numbers per run: 100 + SLOPE * value / 1000 ms + noise of sd ~2 ms
# drawn from a generator seeded by SEED and the window (so every window has
# different noise, and every run of the test the same)
cat >"$TMPD/metric.sh" <<'EOF'
#!/bin/sh
read -r v <"$ROOT/sys/devices/system/cpu/cpufreq/policy0/interactive/timer_rate"
# the window's seed hashed: mawk's rand() after srand(N) and srand(N + 1)
# differ by a near-constant step (a pattern across window positions)
seed=$(printf '%s-%s' "${SEED:-1}" "$TUNETOP_AB_WINDOW" | cksum | cut -d' ' -f1)
awk -v v="$v" -v w="$TUNETOP_AB_WINDOW" -v s="${SEED:-1}" -v slope="${SLOPE:-1}" -v seed="$seed" 'BEGIN {
	srand(seed % 1000003)
	for (i = 0; i < 20; i++) {
		n = 0
		for (j = 0; j < 12; j++)
			n += rand()
		printf "metric: %.3f ms\n", 100 + slope * v / 1000 + (n - 6) * 2
	}
}'
EOF
chmod +x "$TMPD/metric.sh"
export ROOT SEED SLOPE

sweep() { # sweep VALUES [options...]: ab on $ROOT with the metric script
	local v="$1"
	shift
	"$TUNETOP" --root "$ROOT" --state-dir "$STATE" ab "$KNOB=$v" --cmd "$TMPD/metric.sh" \
		--metric 'metric: ([0-9.]+) ms' --window 0 --settle 0 "$@"
}

# ---- 3 values, JSON ------------------------------------------------------------------
ROOT=$(copy_fixture rk3588)
SEED=1 SLOPE=1
# 3 rounds: the smallest p is 1/108; Holm over all 6 tests (3 metrics x 2
# values) cannot reach 0.05, so the metric is chosen up front
sweep 20000,10000,40000 --rounds 3 --primary metric --json >"$TMPD/s3.json" 2>"$TMPD/err"
is "$?" 0 "3-value sweep: exit 0"
ok "$(jq -e . "$TMPD/s3.json" >/dev/null; echo $?)" "valid JSON"
is "$(jq -c '[.ab.sweep, .ab.values, .ab.windows, ([.arms[].arm] | join(""))]' "$TMPD/s3.json")" \
	'[true,["20000","10000","40000"],18,"ABC"]' "3 values, 3 rounds of 6 windows, arms A B C"
# every value once in each half of every round, the second half mirrored
is "$(jq -r '[.windows[] | .arm] | [range(0; length; 6) as $i | .[$i:$i+6] | join("")] | join(" ")' "$TMPD/s3.json" |
	awk '{ for (i = 1; i <= NF; i++) { h = substr($i, 1, 3); r = substr($i, 4, 3);
		rev = substr(r, 3, 1) substr(r, 2, 1) substr(r, 1, 1);
		if (h != rev || !(h ~ /A/ && h ~ /B/ && h ~ /C/)) bad++ } print bad + 0 }')" 0 \
	"each round: every value once, then the same in reverse"
is "$(jq -r '[.windows[] | .round] | map(tostring) | join(",")' "$TMPD/s3.json")" \
	"1,1,1,1,1,1,2,2,2,2,2,2,3,3,3,3,3,3" "windows numbered by round"
is "$(jq -r '[.comparisons[] | "\(.value):\(.mean.diff < 0):\(.mean.significant)"] | join(" ")' "$TMPD/s3.json")" \
	"10000:true:true 40000:false:true" "10000 lower, 40000 higher than 20000, both significant"
is "$(jq -r '[.comparisons[] | .adjustment, (.comparisons | tostring), (.family | tostring)] | unique | join(" ")' "$TMPD/s3.json")" \
	"2 holm-bonferroni" "--primary: Holm-Bonferroni over 2 comparisons, a family of 2 tests"
is "$(jq -c '[[.comparison.correction | .method, .primary, .tests], [.comparisons[0] | .p99.tested, .p50.tested, .mean.tested, .p99.significant]]' "$TMPD/s3.json")" \
	'[["primary","mean",2],[false,false,true,null]]' "--primary metric: the mean (CMD's numbers), only it tested"
sweep 20000,10000,40000 --rounds 3 --json >"$TMPD/s3all.json" 2>/dev/null
is "$(jq -c '[[.comparison.correction | .method, .tests], [.comparisons[] | .significant], [.comparisons[].mean | .p_adj >= 0.05]]' "$TMPD/s3all.json")" \
	'[["holm",6],[false,false],[true,true]]' "default: Holm over 6 tests; 3 rounds cannot reach 0.05 (p adj >= 6/108)"
ok "$(jq -e '[.comparisons[].mean | .p_adj >= .p and .p_adj <= 2 * .p + 1e-9] | all' "$TMPD/s3.json" >/dev/null; echo $?)" \
	"p adj between p and 2 p (Holm, 2 comparisons)"
ok "$(jq -e '.comparisons[0].mean as $c | ($c.diff > -11 and $c.diff < -9) and $c.lo < $c.diff and $c.hi > $c.diff' "$TMPD/s3.json" >/dev/null; echo $?)" \
	"10000 - 20000: about -10 ms, inside its interval"
ok "$(jq -e '[.comparisons[].mean.level] as $l | (.arms | length) == 3 and $l[0] < $l[1]' "$TMPD/s3.json" >/dev/null; echo $?)" \
	"levels in the order of the values"
is "$(jq -r '.comparison.difference' "$TMPD/s3.json")" "B - A" "the two-arm comparison stays (B - A = V2 - V1)"
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "3-value sweep: the tree equals the fixture"

# ---- report --html: the plot --------------------------------------------------------------
"$TUNETOP" report "$TMPD/s3.json" --html "$TMPD/s3.html" >"$TMPD/s3.txt" 2>&1
is "$?" 0 "report --html of a sweep: exit 0"
like "$(cat "$TMPD/s3.txt")" "sweep: each value - 20000 \\(mean; primary metric mean, chosen before the run" "report: the sweep's comparisons and the run's correction"
html=$(cat "$TMPD/s3.html")
like "$html" '<section id="sweep">' "html: a sweep section"
like "$html" '<svg id="plot-sweep" class="plot"' "html: the sweep plot (inline SVG)"
is "$(grep -o '<circle class="level"' "$TMPD/s3.html" | wc -l | tr -d ' ')" 3 "html: a level mark per value"
is "$(grep -o '<line class="ci"' "$TMPD/s3.html" | wc -l | tr -d ' ')" 2 "html: an interval bar per compared value"
is "$(grep -o '<line class="ref"' "$TMPD/s3.html" | wc -l | tr -d ' ')" 1 "html: the reference line"
# SVG y grows downwards: 40000 (highest metric) on top, 10000 at the bottom
is "$(grep -o '<circle class="level" cx="[0-9.]*" cy="[0-9.]*"' "$TMPD/s3.html" |
	sed 's/.*cy="\([0-9.]*\)"/\1/' | awk '{ y[NR] = $1 } END { print (y[3] < y[1] && y[1] < y[2]) ? "ordered" : "not" }')" \
	ordered "html: the levels in the order of the metric"

# ---- 4 values, text ------------------------------------------------------------------
ROOT=$(copy_fixture rk3588)
out=$(LC_ALL=C sweep 20000,10000,40000,80000 --rounds 3 --primary mean 2>"$TMPD/err")
is "$?" 0 "4-value sweep: exit 0"
like "$out" "^tunetop ab: $KNOB \\(1 knob, was 20000\\): sweep of 4 values: A=20000, B=10000, C=40000, D=80000" \
	"header lists the values"
like "$out" "3 rounds of 8 windows .* = 24 windows" "3 rounds of 8 windows"
like "$out" "p adj: Holm over the 3 tests of the run" "the correction is said"
like "$out" "primary metric mean, chosen before the run, Holm over the 3 comparisons; the other metrics described, not tested" "... and what was tested"
like "$out" "
A +20000 +6 .*\\(reference\\)" "table: A is the reference"
like "$out" "
B +10000 +6 .* -10\\.[0-9]+ ms .*\\[-1[01]\\.[0-9]+, -[89]\\.[0-9]+\\] .* lower" "table: B lower, with its interval"
like "$out" "
C +40000 +6 .* \\+2[01]\\.[0-9]+ ms .* higher" "table: C higher"
like "$out" "
D +80000 +6 .* \\+[56][0-9]\\.[0-9]+ ms .* higher" "table: D higher still"
like "$out" "
  D +80000 +p99 " "every metric of every comparison listed"
like "$out" "mean against the value" "a text plot"
plot=$(printf '%s\n' "$out" | sed -n '/^mean against the value/,/^ /p')
is "$(printf '%s\n' "$plot" | grep -c '^[0-9]* *|.*|$')" 4 "plot: one line per value"
# the level marks go left to right: 10000 < 20000 < 40000 < 80000
is "$(printf '%s\n' "$plot" | awk -F'|' '/\|$/ { match($2, /[o*]/); print RSTART, $1 }' | sort -n | awk '{ printf "%s ", $2 }')" \
	"10000 20000 40000 80000 " "plot: the values in the order of their metric"
like "$out" "^verdict: $KNOB: sweep of 4 values, each against 20000, 24 windows \\(primary metric mean, chosen before the run, Holm over the 3 comparisons; the other metrics described, not tested\\): 10000: mean -" \
	"verdict"
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "4-value sweep: the tree equals the fixture"

# ---- nothing changes: nothing found ---------------------------------------------------
# the knob flips but the metric does not depend on it (SLOPE=0), and an A/A
# sweep of one value three times; 3 noise seeds each. Each family (one
# metric of the null sweep, or the A/A sweep) may raise a false alarm 5 %
# of the time after Holm: 12 families expect 0.6 of them, and more than 2
# happen 2 % of the time. The rate itself is measured by
# tests/bench/ab_sweep_aa.sh over hundreds of seeds.
ROOT=$(copy_fixture rk3588)
found=0
for SEED in 1 2 3; do
	SLOPE=0 sweep 20000,10000,40000,80000 --rounds 4 --json >"$TMPD/null.json" 2>/dev/null || found=$((found + 100))
	found=$((found + $(jq '[("p99", "p50", "mean") as $m | [.comparisons[][$m].significant] | any | select(.)] | length' "$TMPD/null.json")))
	sweep 20000,20000,20000 --aa --rounds 4 --json >"$TMPD/aa.json" 2>/dev/null || found=$((found + 100))
	found=$((found + $(jq '[.comparisons[].significant] | if any then 1 else 0 end' "$TMPD/aa.json")))
done
SEED=1 SLOPE=1
ok "$([ "$found" -le 2 ]; echo $?)" "a sweep whose metric does not depend on the value, and an A/A sweep: at most 2 of 12 families with a false alarm (3 seeds each; $found)"
like "$(jq -r .comparison.verdict "$TMPD/aa.json")" "A/A sweep \\(noise floor\\) of 3 values.*no significant difference, as expected" \
	"A/A sweep verdict: the noise floor"
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "null sweeps: the tree equals the fixture"

# ---- fewer than 3 rounds: inconclusive ---------------------------------------------------
ROOT=$(copy_fixture rk3588)
sweep 20000,10000,40000 --rounds 2 --json >"$TMPD/s2.json" 2>/dev/null
is "$(jq -c '[.comparison.conclusive, [.comparisons[].significant]]' "$TMPD/s2.json")" '[false,[false,false]]' \
	"2 rounds: inconclusive, nothing significant"
like "$(jq -r .comparison.verdict "$TMPD/s2.json")" "inconclusive: 2 complete rounds" "2 rounds: the verdict says so"

# ---- bad input ----------------------------------------------------------------------------
ROOT=$(copy_fixture rk3588)
bad() { # bad DESC REGEX VALUES
	local err="$TMPD/bad.err" o="$TMPD/bad.out" rc
	sweep "$3" --rounds 3 >"$o" 2>"$err"
	rc=$?
	is "$rc" 2 "$1: exit 2"
	like "$(cat "$err")" "^tunetop ab: .*$2" "$1: says why"
	is "$(wc -l <"$err" | tr -d ' ')" 1 "$1: one line"
	is "$(wc -c <"$o" | tr -d ' ')" 0 "$1: nothing on stdout"
}
bad "one value" "expected two values" 20000
bad "9 values" "9 values; a sweep takes 2 to 8" 1,2,3,4,5,6,7,8,9
bad "a value twice" "values 2 and 4 are the same" 20000,10000,40000,10000
bad "an empty value" "value 2 is empty" 20000,,40000
ok "$(same_tree "$FIXTURES/rk3588" "$ROOT"; echo $?)" "bad input: the tree equals the fixture"
done_testing
