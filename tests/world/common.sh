# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the world tests (issue 35). Set WORLD (default rk3588-npu),
# then source after tests/lib.sh: the world unpacked through the CLI with a
# fixed seed in $W, its application's log in $LOG (as `tunetop world`
# names it), the figure its lines carry in $METRIC (a regex for `ab
# --metric`) and its unit in $UNIT; T runs tunetop on the world. Every
# step of a test is a tunetop command (set, apply, ab, probe, world --run);
# nothing here writes into the tree.
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
export TUNETOP_WORLD_SEED=35
# world_unpack NAME DIR: unpack the world NAME into DIR through the CLI
# (its output in $out); skips the test when the build has no worlds
world_unpack() {
	if ! out=$("$TUNETOP" world "$1" "$2" 2>&1); then
		case $out in
		*disable-demo* | *"not installed"*) skip_all "no simulated board in this build: $out" ;;
		esac
		echo "Bail out! tunetop world $1: $out"
		exit 1
	fi
}
WORLD=${WORLD:-rk3588-npu}
W="$TMPD/world"
# WORLD_UNPACK=no: the helpers only (a test that unpacks its worlds itself)
[ "${WORLD_UNPACK:-yes}" = no ] || world_unpack "$WORLD" "$W"
LOG=$(printf '%s\n' "${out:-}" | sed -n 's/.*its application logs to \(.*\)$/\1/p' | head -n 1)
if [ "${WORLD_UNPACK:-yes}" != no ] && [ ! -f "$LOG" ]; then
	echo "Bail out! tunetop world $WORLD names no log: $out"
	exit 1
fi
case $WORLD in
rk3588-npu) METRIC='total:([0-9.]+) ms' UNIT=ms ;;
schedutil) METRIC='keyframe:([0-9.]+) ms' UNIT=ms ;;
*) METRIC='latency:([0-9.]+) us' UNIT=us ;;
esac
T() { "$TUNETOP" --root "$W" "$@"; }

# ---- figures of a stretch of simulated time, from the log ----
# stage NAME SEC: run the world SEC simulated seconds at once; the samples it
# logged in $TMPD/NAME.vals, their figures (mean sd n max share-under-10) in
# $TMPD/NAME.stats
stage() {
	n0=$(wc -l <"$LOG")
	T world --run "$2" >/dev/null || diag "tunetop world --run $2 failed"
	tail -n +$((n0 + 1)) "$LOG" | sed -nE 's/.*:([0-9.]+) (ms|us) cause:.*\(SIMULATED\)$/\1/p' >"$TMPD/$1.vals"
	awk '{ s += $1; q += $1 * $1; if ($1 > m) m = $1; if ($1 < 10) u++; n++ }
		END { if (n) { a = s / n; v = q / n - a * a; if (v < 0) v = 0
			printf "%.3f %.3f %d %.3f %.4f\n", a, sqrt(v), n, m, u / n } }' \
		"$TMPD/$1.vals" >"$TMPD/$1.stats"
}
mean() { cut -d' ' -f1 "$TMPD/$1.stats"; }
sdev() { cut -d' ' -f2 "$TMPD/$1.stats"; }
count() { cut -d' ' -f3 "$TMPD/$1.stats"; }
maxv() { cut -d' ' -f4 "$TMPD/$1.stats"; }
under10() { cut -d' ' -f5 "$TMPD/$1.stats"; }
# welch_down A B: exit 0 when stage B's samples are below stage A's by a
# Welch t statistic beyond 4 (far past any noise of these sample sizes)
welch_down() {
	awk -v ma="$(mean "$1")" -v sa="$(sdev "$1")" -v na="$(count "$1")" \
		-v mb="$(mean "$2")" -v sb="$(sdev "$2")" -v nb="$(count "$2")" \
		'BEGIN { t = (ma - mb) / sqrt(sa * sa / na + sb * sb / nb); exit !(t > 4) }'
}

# ---- an A/B on the log ----
# ab_world NAME KNOB=A,B [ab options]: the A/B of one knob on the app's
# figure ($METRIC), mean as the primary metric; the JSON in $TMPD/NAME.json
ab_world() {
	n=$1
	shift
	T ab "$@" --metric-file "$LOG" --metric "$METRIC" --primary mean \
		--json >"$TMPD/$n.json" 2>"$TMPD/$n.err"
	rc=$?
	is "$rc" 0 "$n: ab --metric-file exits 0"
	[ "$rc" = 0 ] || diag "$(cat "$TMPD/$n.err")"
	like "$(cat "$TMPD/$n.err")" "SIMULATED: world $WORLD" "$n: ab says the world is SIMULATED"
}
# arm NAME A|B FIELD: a field of an arm (mean, samples...)
arm() { jq -r ".arms[] | select(.arm == \"$2\") | .$3" "$TMPD/$1.json"; }
# sd NAME A|B: the standard deviation of an arm's values
sd() { jq -r ".arms[] | select(.arm == \"$2\") | .values | (add / length) as \$m | (map((. - \$m) * (. - \$m)) | add / length) | sqrt" "$TMPD/$1.json"; }
# sig_down NAME: the mean difference B - A is significant and negative
sig_down() {
	is "$(jq -r '.comparison.mean.significant' "$TMPD/$1.json")" true "$1: the difference of the means is significant"
	ok "$(less "$(jq -r '.comparison.mean.diff' "$TMPD/$1.json")" 0; echo $?)" \
		"$1: B is faster than A ($(jq -r '.comparison.mean.diff' "$TMPD/$1.json") $UNIT)"
}
# ab_stage NAME ARM WANT LABEL: the arm's mean is the field note's WANT
# within 15 %; the mean in $got
ab_stage() {
	got=$(arm "$1" "$2" mean)
	ok "$(near "$got" "$3" 15; echo $?)" "$4: $got $UNIT, the note's $3 within 15 %"
}

# ---- a lesson's verdict ----
# verdict FILE LABEL UNIT: "ok" when the lesson's output in FILE judges
# LABEL's mean a significant decrease (improved, its 95 % interval of the
# difference in UNIT entirely below 0) and "improved" is said of nothing
# else; otherwise what is wrong
verdict() {
	line=$(grep -A2 "^  - $2 mean" "$1" | tr '\n' ' ' | tr -s ' ')
	lo=$(printf '%s' "$line" | sed -n "s/.*95% interval \([-+0-9.]*\) \.\. \([-+0-9.]*\) $3.*/\1/p")
	hi=$(printf '%s' "$line" | sed -n "s/.*95% interval \([-+0-9.]*\) \.\. \([-+0-9.]*\) $3.*/\2/p")
	case $line in *": improved"*) ;; *) echo "not improved: $line"; return ;; esac
	awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l != "" && h != "" && l < h && h < 0) }' ||
		{ echo "interval $lo .. $hi does not exclude 0"; return; }
	grep -q 'Overall: improved (1 of 1 judged numbers)' "$1" ||
		{ echo "$(grep Overall "$1")"; return; }
	echo ok
}

# ---- numbers ----
# near GOT WANT PCT: exit 0 when |GOT - WANT| <= PCT % of WANT
near() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= w * p / 100) }'; }
# less A B: exit 0 when A < B
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a < b) }'; }
# ok_less A B DESCRIPTION: A < B
ok_less() { ok "$(less "$1" "$2"; echo $?)" "$3"; }
# ratio A B: A / B with three decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a / b }'; }
# between V LO HI: exit 0 when LO <= V <= HI
between() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'; }
# fig_ok LABEL GOT WANT: GOT is the note's WANT within 15 %
fig_ok() { ok "$(near "$2" "$3" 15; echo $?)" "$1: $2, the note's $3 within 15 %"; }
