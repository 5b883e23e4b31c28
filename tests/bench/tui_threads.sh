#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cost of the TUI's Threads screen (issue 5) with a helper holding 2,000
# threads: CPU seconds per second of tunetop showing the Threads screen at
# a 1 s refresh and at a 0.2 s refresh (the thread list is still read at
# most once per second), next to the Cores screen at 1 s, each in its own
# 150x40 tmux pane. utime + stime from /proc/PID/stat over the window (after
# a 3 s warm-up). Prints numbers, never fails on timing.
#   TUI_BENCH_SECONDS (default 20), TT_BENCH_THREADS (default 2000).
set -u
: "${TUNETOP:?run through make bench (TUNETOP unset)}"
b=${TT_BUILDDIR:-.}
secs=${TUI_BENCH_SECONDS:-20}
n=${TT_BENCH_THREADS:-2000}
helper="$b/tests/live/threads_helper"
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed: skipped"; exit 0; }
[ -x "$helper" ] || (cd "$b" && make -s tests/live/threads_helper) >/dev/null 2>&1
[ -x "$helper" ] || { echo "threads_helper not built: skipped"; exit 0; }
tmp=$(mktemp -d)
sock="tt-bench-thr-$$"
tmx() { tmux -L "$sock" -f /dev/null "$@"; }
hp=
trap 'tmx kill-server >/dev/null 2>&1; [ -n "$hp" ] && kill $hp 2>/dev/null; rm -rf "$tmp"' EXIT
hz=$(getconf CLK_TCK)
term=tmux-256color
infocmp "$term" >/dev/null 2>&1 || term=screen-256color
mkdir -p "$tmp/home"
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
start() { # NAME ARGS...
	name=$1
	shift
	tmx new-session -d -s "$name" -x 150 -y 40 \
		"exec env TERM=$term LANG=C.UTF-8 HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config $TUNETOP --state-dir $tmp/st-$name $*"
}

"$helper" -n 0 --spawn "$n" >"$tmp/helper.out" 2>&1 &
hp=$!
i=0
while ! grep -q '^ready' "$tmp/helper.out" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 3000 ] && { echo "helper did not start: $(cat "$tmp/helper.out")"; exit 0; }
	sleep 0.01
done
total=$(ls /proc/*/task 2>/dev/null | grep -c '^[0-9]')
names="threads-1s threads-0.2s cores-1s"
start threads-1s --screen threads -d 10
start threads-0.2s --screen threads -d 2
start cores-1s --screen cores -d 10
sleep 3
for nm in $names; do
	pid=$(tmx display-message -p -t "$nm" '#{pane_pid}')
	echo "$pid $(cpu_ticks "$pid") $(date +%s.%N)" >"$tmp/$nm.start"
done
sleep "$secs"
echo "TUI Threads screen, ~$total threads on the machine ($n in the helper), ${secs} s window:"
for nm in $names; do
	read -r pid t0 s0 <"$tmp/$nm.start"
	t1=$(cpu_ticks "$pid")
	s1=$(date +%s.%N)
	[ -n "$t1" ] || { echo "  $nm: exited early"; continue; }
	awk -v n="$nm" -v a="$t0" -v b="$t1" -v s="$s0" -v e="$s1" -v hz="$hz" \
		'BEGIN { c = (b - a) / hz / (e - s); printf "  %-13s %.4f CPU s/s (%.1f ms of CPU per second)\n", n, c, c * 1000 }'
done
tmx capture-pane -p -t threads-1s | sed -n 4p | sed 's/^/  heading: /'
exit 0
