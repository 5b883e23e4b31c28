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
. "$(dirname "$0")/lib.sh"
secs=${TUI_BENCH_SECONDS:-20}
n=${TT_BENCH_THREADS:-2000}
bench_need tmux
bench_init bench-thr
start() { # NAME ARGS...
	_nm=$1
	shift
	bench_start "$_nm" "$TUNETOP --state-dir $tmp/st-$_nm $*"
}

bench_helper "$n"
total=$(bench_nthreads)
names="threads-1s threads-0.2s cores-1s"
start threads-1s --screen threads -d 10
start threads-0.2s --screen threads -d 2
start cores-1s --screen cores -d 10
sleep 3
bench_mark $names
sleep "$secs"
echo "TUI Threads screen, ~$total threads on the machine ($n in the helper), ${secs} s window:"
for nm in $names; do
	ms=$(bench_cpu_ms "$nm") || { echo "  $nm: exited early"; continue; }
	awk -v n="$nm" -v ms="$ms" \
		'BEGIN { printf "  %-13s %.4f CPU s/s (%.1f ms of CPU per second)\n", n, ms / 1000, ms }'
done
tmx capture-pane -p -t threads-1s | sed -n 4p | sed 's/^/  heading: /'
exit 0
