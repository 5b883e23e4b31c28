# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the world tests (issue 35): a world unpacked through the CLI,
# an A/B of one knob on its application's log, and the figures of a JSON
# report. Source after tests/lib.sh.
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
W="$TMPD/world"
LOG="$W/var/log/infer.log"
export TUNETOP_WORLD_SEED=35
if ! out=$("$TUNETOP" world rk3588-npu "$W" 2>&1); then
	case $out in
	*disable-demo* | *"not installed"*) skip_all "no simulated board in this build: $out" ;;
	esac
	echo "Bail out! tunetop world rk3588-npu: $out"
	exit 1
fi
T() { "$TUNETOP" --root "$W" "$@"; }
# ab_world NAME KNOB=A,B [ab options]: the A/B on the app's total time,
# mean as the primary metric; the JSON in $TMPD/NAME.json
ab_world() {
	n=$1
	shift
	T ab "$@" --metric-file "$LOG" --metric 'total:([0-9.]+) ms' --primary mean \
		--json >"$TMPD/$n.json" 2>"$TMPD/$n.err"
	rc=$?
	is "$rc" 0 "$n: ab --metric-file exits 0"
	[ "$rc" = 0 ] || diag "$(cat "$TMPD/$n.err")"
	like "$(cat "$TMPD/$n.err")" "SIMULATED: world rk3588-npu" "$n: ab says the world is SIMULATED"
}
# arm NAME A|B FIELD: a field of an arm (mean, samples...)
arm() { jq -r ".arms[] | select(.arm == \"$2\") | .$3" "$TMPD/$1.json"; }
# sd NAME A|B: the standard deviation of an arm's values
sd() { jq -r ".arms[] | select(.arm == \"$2\") | .values | (add / length) as \$m | (map((. - \$m) * (. - \$m)) | add / length) | sqrt" "$TMPD/$1.json"; }
# near GOT WANT PCT: exit 0 when |GOT - WANT| <= PCT % of WANT
near() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= w * p / 100) }'; }
# less A B: exit 0 when A < B
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a < b) }'; }
# sig_down NAME: the mean difference B - A is significant and negative
sig_down() {
	is "$(jq -r '.comparison.mean.significant' "$TMPD/$1.json")" true "$1: the difference of the means is significant"
	ok "$(less "$(jq -r '.comparison.mean.diff' "$TMPD/$1.json")" 0; echo $?)" \
		"$1: B is faster than A ($(jq -r '.comparison.mean.diff' "$TMPD/$1.json") ms)"
}
# stage NAME ARM WANT LABEL: the arm's mean is the field note's WANT ms
# within 15 %; the mean in $got
stage() {
	got=$(arm "$1" "$2" mean)
	ok "$(near "$got" "$3" 15; echo $?)" "$4: $got ms, the note's $3 within 15 %"
}
# ok_less A B DESCRIPTION: A < B
ok_less() { ok "$(less "$1" "$2"; echo $?)" "$3"; }
