# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the tests of the model worlds am5729-affinity and
# rt-base-station (issue 35): a world unpacked through the CLI with a fixed
# seed, the figures of its log over a stretch of simulated time, an A/B of
# one knob on the log, and the steps a board takes that tunetop has no knob
# for (a reboot with other parameters or another kernel, a signal to a
# process), done the way they show in the tree. Set WORLD and WLOG, then
# source after tests/lib.sh.
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
W="$TMPD/world"
LOG="$W/$WLOG"
export TUNETOP_WORLD_SEED=35
if ! out=$("$TUNETOP" world "$WORLD" "$W" 2>&1); then
	case $out in
	*disable-demo* | *"not installed"*) skip_all "no simulated board in this build: $out" ;;
	esac
	echo "Bail out! tunetop world $WORLD: $out"
	exit 1
fi
T() { "$TUNETOP" --root "$W" "$@"; }
# figures SEC: run the world SEC simulated seconds at once and print the
# mean, the max and the share under 10 us of the samples logged in them
# (one per simulated ms) and their number
figures() {
	n0=$(wc -l <"$LOG")
	T world --run "$1" >/dev/null || diag "tunetop world --run $1 failed"
	tail -n +$((n0 + 1)) "$LOG" | sed -n 's/.*latency:\([0-9.]*\) us cause:.*(SIMULATED)$/\1/p' |
		awk '{ s += $1; if ($1 > m) m = $1; if ($1 < 10) u++; n++ }
			END { if (n) printf "%.3f %.3f %.4f %d\n", s / n, m, u / n, n }'
}
field() { echo "$1" | cut -d' ' -f"$2"; }
# ab_world NAME KNOB=A,B [ab options]: the A/B on the log's latency, mean
# as the primary metric; the JSON in $TMPD/NAME.json
ab_world() {
	n=$1
	shift
	T ab "$@" --metric-file "$LOG" --metric 'latency:([0-9.]+) us' --primary mean \
		--json >"$TMPD/$n.json" 2>"$TMPD/$n.err"
	rc=$?
	is "$rc" 0 "$n: ab --metric-file exits 0"
	[ "$rc" = 0 ] || diag "$(cat "$TMPD/$n.err")"
	like "$(cat "$TMPD/$n.err")" "SIMULATED: world $WORLD" "$n: ab says the world is SIMULATED"
}
arm() { jq -r ".arms[] | select(.arm == \"$2\") | .$3" "$TMPD/$1.json"; }
# near GOT WANT PCT: exit 0 when |GOT - WANT| <= PCT % of WANT
near() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= w * p / 100) }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a < b) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a / b }'; }
# sig_down NAME: the mean difference B - A is significant and negative
sig_down() {
	is "$(jq -r '.comparison.mean.significant' "$TMPD/$1.json")" true "$1: the difference of the means is significant"
	ok "$(less "$(jq -r '.comparison.mean.diff' "$TMPD/$1.json")" 0; echo $?)" \
		"$1: B is faster than A ($(jq -r '.comparison.mean.diff' "$TMPD/$1.json") us)"
}
# boot CMDLINE: the board rebooted with this command line (what the kernel
# then shows: proc/cmdline, the isolated and nohz_full CPUs)
boot() {
	printf '%s\n' "$1" >"$W/proc/cmdline"
	iso=$(printf '%s\n' "$1" | sed -n 's/.*isolcpus=\([^ ]*\).*/\1/p')
	nohz=$(printf '%s\n' "$1" | sed -n 's/.*nohz_full=\([^ ]*\).*/\1/p')
	printf '%s\n' "$iso" >"$W/sys/devices/system/cpu/isolated"
	printf '%s\n' "${nohz:-(null)}" >"$W/sys/devices/system/cpu/nohz_full"
}
# signal PID STOP|CONT: what kill -STOP / kill -CONT leave in the tree (the
# state letter of the process's stat and status)
signal() {
	case $2 in STOP) s=T st='T (stopped)' ;; *) s=R st='R (running)' ;; esac
	for d in "$W/proc/$1" "$W/proc/$1/task/$1"; do
		sed -i "s/^\($1 ([^)]*)\) [A-Z] /\1 $s /" "$d/stat"
		sed -i "s/^State:.*/State:\t$st/" "$d/status"
	done
}
