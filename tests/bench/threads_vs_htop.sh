#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 18: tunetop's Threads screen against htop, in the same run, both at
# a 1 s refresh (tunetop -d 10, htop -d 10), each in its own 150x40 tmux
# pane, with a helper holding 2,000 and then 10,000 sleeping threads: CPU
# ms per second of each (utime + stime from /proc/PID/stat over the window,
# after a warm-up), their ratio, and the peak RSS (VmHWM) of the TUI on the
# Threads screen. Prints numbers, never fails on timing.
#   TUI_BENCH_SECONDS (default 20), TT_BENCH_SIZES (default "2000 10000").
set -u
: "${TUNETOP:?run through make bench (TUNETOP unset)}"
. "$(dirname "$0")/lib.sh"
secs=${TUI_BENCH_SECONDS:-20}
sizes=${TT_BENCH_SIZES:-2000 10000}
bench_need tmux
bench_need htop "htop is not installed (scripts/deps.sh)"
bench_init bench-htop
for n in $sizes; do
	bench_helper "$n"
	total=$(bench_nthreads)
	bench_start tunetop "$TUNETOP --state-dir $tmp/st --screen threads -d 10"
	bench_start htop "htop -d 10"
	sleep 5
	bench_mark tunetop htop
	sleep "$secs"
	for nm in tunetop htop; do
		bench_cpu_ms "$nm" >"$tmp/$nm.ms" || { echo "$nm exited early"; echo 0 >"$tmp/$nm.ms"; }
	done
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$(bench_pid tunetop)/status" 2>/dev/null)
	tms=$(cat "$tmp/tunetop.ms")
	hms=$(cat "$tmp/htop.ms")
	echo "~$total threads on the machine ($n in the helper), ${secs} s window, 1 s refresh:"
	awk -v t="$tms" -v h="$hms" 'BEGIN { printf "  tunetop Threads %6.1f ms CPU/s   htop %6.1f ms CPU/s   ratio %.2fx htop\n", t, h, (h > 0 ? t / h : 0) }'
	echo "  tunetop peak RSS (VmHWM) on the Threads screen: ${hwm:-?} KiB"
	[ -n "${TT_BENCH_ROWS:-}" ] && echo "Threads screen, 1 s refresh, ~$total threads|$tms|$hms|ms CPU/s" >>"$TT_BENCH_ROWS"
	tmx capture-pane -p -t tunetop | sed -n 4p | sed 's/^/  heading: /'
	tmx kill-session -t tunetop >/dev/null 2>&1
	tmx kill-session -t htop >/dev/null 2>&1
	bench_helper_stop
	sleep 1
done
exit 0
