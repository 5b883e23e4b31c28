#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of the TUI's perf counters (issue 6): CPU time of tunetop on the
# Cores screen with its counter columns (per-CPU counters open, one group
# read per CPU and PMU at each refresh) and without them (column_counters=0),
# and on the Threads screen with and without the selected thread's counters
# pane, at a 1 s and a 0.2 s refresh, each in its own 120x40 tmux pane on a
# private tmux server. CPU time from /proc/PID/schedstat (nanoseconds; the
# clock ticks of /proc/PID/stat are too coarse for this) over the window
# (after a 3 s warm-up); the difference between the pairs, divided by the
# refreshes, is what the counters cost per refresh. Prints numbers, never
# fails on timing.
#   TUI_BENCH_SECONDS (default 20).
set -u
: "${TUNETOP:?run through make bench (TUNETOP unset)}"
secs=${TUI_BENCH_SECONDS:-20}
command -v tmux >/dev/null 2>&1 || {
	echo "tmux is not installed: skipped"
	exit 0
}
tmp=$(mktemp -d)
sock="tt-bench-ctr-$$"
tmx() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tmx kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
term=tmux-256color
infocmp "$term" >/dev/null 2>&1 || term=screen-256color
cpu_ns() { awk '{ print $1 }' "/proc/$1/schedstat" 2>/dev/null; }
# start NAME SETTINGS ARGS...: tunetop with its own tunetoprc
start() {
	name=$1
	mkdir -p "$tmp/$name/tunetop"
	printf 'config_version=1\n%s\n' "$2" | tr ';' '\n' >"$tmp/$name/tunetop/tunetoprc"
	shift 2
	tmx new-session -d -s "$name" -x 120 -y 40 \
		"exec env TERM=$term LANG=C.UTF-8 HOME=$tmp XDG_CONFIG_HOME=$tmp/$name $TUNETOP --state-dir $tmp/st-$name $*"
}
perf_fds() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:\[perf_event\]'; }

names=""
for d in 10 2; do
	start "cores-ctr-d$d" "column_counters=1" --screen cores -d $d
	start "cores-noctr-d$d" "column_counters=0" --screen cores -d $d
	start "thr-pane-d$d" "thread_counters=1" --screen threads -d $d
	start "thr-nopane-d$d" "thread_counters=0" --screen threads -d $d
	names="$names cores-ctr-d$d cores-noctr-d$d thr-pane-d$d thr-nopane-d$d"
done
sleep 3
for n in $names; do
	pid=$(tmx display-message -p -t "$n" '#{pane_pid}')
	echo "$pid $(cpu_ns "$pid") $(date +%s.%N)" >"$tmp/$n.start"
done
sleep "$secs"
echo "TUI counters cost, $(nproc) CPUs, ${secs} s window (CPU ms per second; per refresh):"
for n in $names; do
	read -r pid t0 s0 <"$tmp/$n.start"
	t1=$(cpu_ns "$pid")
	s1=$(date +%s.%N)
	[ -n "$t1" ] || {
		echo "  $n: exited early"
		echo nan >"$tmp/$n.ms"
		continue
	}
	per_s=$(awk -v a="$t0" -v b="$t1" -v s="$s0" -v e="$s1" \
		'BEGIN { printf "%.3f", (b - a) / 1e6 / (e - s) }')
	echo "$per_s" >"$tmp/$n.ms"
	d=${n##*-d}
	awk -v n="$n" -v c="$per_s" -v d="$d" -v f="$(perf_fds "$pid")" \
		'BEGIN { r = 10 / d; printf "  %-16s %7.2f ms/s  %6.2f ms/refresh  (%d perf fds)\n", n, c, c / r, f }'
done
for d in 10 2; do
	for pair in "cores-ctr cores-noctr" "thr-pane thr-nopane"; do
		set -- $pair
		awk -v a="$(cat "$tmp/$1-d$d.ms")" -v b="$(cat "$tmp/$2-d$d.ms")" -v d="$d" -v n="$1" \
			'BEGIN { r = 10 / d; printf "  %s at %.1f s: counters add %.3f ms of CPU per refresh\n", n, d / 10, (a - b) / r }'
	done
done
exit 0
