# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the model worlds' tests (issue 35, model/world_wm.h): set
# WORLD and LOGREL, then source after tests/lib.sh: the world unpacked
# with a fixed seed in $W, its log in $LOG, and the figures of a stretch of
# simulated time taken from the application's log lines.
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
W="$TMPD/world"
LOG="$W/$LOGREL"
export TUNETOP_WORLD_SEED=35
if ! out=$("$TUNETOP" world "$WORLD" "$W" 2>&1); then
	case $out in
	*disable-demo* | *"not installed"*) skip_all "no simulated board in this build: $out" ;;
	esac
	echo "Bail out! tunetop world $WORLD: $out"
	exit 1
fi
T() { "$TUNETOP" --root "$W" "$@"; }
# stage NAME SEC: run the world SEC simulated seconds; the figures of the
# lines it logged (mean, sd, n) in $TMPD/NAME.stats and the numbers in
# $TMPD/NAME.vals
stage() {
	n0=$(wc -l <"$LOG")
	T world --run "$2" >/dev/null || diag "tunetop world --run $2 failed"
	tail -n +$((n0 + 1)) "$LOG" | sed -nE 's/.*:([0-9.]+) (ms|us) cause:.*\(SIMULATED\)$/\1/p' >"$TMPD/$1.vals"
	awk '{ s += $1; q += $1 * $1; n++ } END { m = s / n; printf "%.3f %.3f %d\n", m, sqrt(q / n - m * m), n }' \
		"$TMPD/$1.vals" >"$TMPD/$1.stats"
}
mean() { cut -d' ' -f1 "$TMPD/$1.stats"; }
sdev() { cut -d' ' -f2 "$TMPD/$1.stats"; }
count() { cut -d' ' -f3 "$TMPD/$1.stats"; }
# near GOT WANT PCT: exit 0 when |GOT - WANT| <= PCT % of WANT
near() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= w * p / 100) }'; }
# less A B: exit 0 when A < B
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a < b) }'; }
# welch_down A B: exit 0 when stage B's samples are below stage A's by a
# Welch t statistic beyond 4 (far past any noise of these sample sizes)
welch_down() {
	awk -v ma="$(mean "$1")" -v sa="$(sdev "$1")" -v na="$(count "$1")" \
		-v mb="$(mean "$2")" -v sb="$(sdev "$2")" -v nb="$(count "$2")" \
		'BEGIN { t = (ma - mb) / sqrt(sa * sa / na + sb * sb / nb); exit !(t > 4) }'
}
