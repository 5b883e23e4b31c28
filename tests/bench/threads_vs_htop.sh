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
b=${TT_BUILDDIR:-.}
secs=${TUI_BENCH_SECONDS:-20}
sizes=${TT_BENCH_SIZES:-2000 10000}
helper="$b/tests/live/threads_helper"
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed: skipped"; exit 0; }
command -v htop >/dev/null 2>&1 || { echo "htop is not installed (scripts/deps.sh): skipped"; exit 0; }
[ -x "$helper" ] || (cd "$b" && make -s tests/live/threads_helper) >/dev/null 2>&1
[ -x "$helper" ] || { echo "threads_helper not built: skipped"; exit 0; }
tmp=$(mktemp -d)
sock="tt-bench-htop-$$"
tmx() { tmux -L "$sock" -f /dev/null "$@"; }
hp=
trap 'tmx kill-server >/dev/null 2>&1; [ -n "$hp" ] && kill $hp 2>/dev/null; rm -rf "$tmp"' EXIT
hz=$(getconf CLK_TCK)
term=tmux-256color
infocmp "$term" >/dev/null 2>&1 || term=screen-256color
mkdir -p "$tmp/home"
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
start() { # NAME COMMAND...
	name=$1
	shift
	tmx new-session -d -s "$name" -x 150 -y 40 \
		"exec env TERM=$term LANG=C.UTF-8 HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config $*"
}
for n in $sizes; do
	"$helper" -n 0 --spawn "$n" >"$tmp/helper.out" 2>&1 &
	hp=$!
	i=0
	while ! grep -q '^ready' "$tmp/helper.out" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 6000 ] && { echo "helper did not start: $(cat "$tmp/helper.out")"; exit 0; }
		sleep 0.01
	done
	total=$(ls /proc/*/task 2>/dev/null | grep -c '^[0-9]')
	start tunetop "$TUNETOP --state-dir $tmp/st --screen threads -d 10"
	start htop "htop -d 10"
	sleep 5
	for nm in tunetop htop; do
		pid=$(tmx display-message -p -t "$nm" '#{pane_pid}')
		echo "$pid $(cpu_ticks "$pid") $(date +%s.%N)" >"$tmp/$nm.start"
	done
	sleep "$secs"
	for nm in tunetop htop; do
		read -r pid t0 s0 <"$tmp/$nm.start"
		t1=$(cpu_ticks "$pid")
		s1=$(date +%s.%N)
		[ -n "$t1" ] || { echo "$nm exited early"; t1=$t0; }
		awk -v a="$t0" -v b="$t1" -v s="$s0" -v e="$s1" -v hz="$hz" \
			'BEGIN { printf "%.1f\n", (b - a) / hz / (e - s) * 1000 }' >"$tmp/$nm.ms"
	done
	tpid=$(cut -d' ' -f1 "$tmp/tunetop.start")
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$tpid/status" 2>/dev/null)
	tms=$(cat "$tmp/tunetop.ms")
	hms=$(cat "$tmp/htop.ms")
	echo "~$total threads on the machine ($n in the helper), ${secs} s window, 1 s refresh:"
	awk -v t="$tms" -v h="$hms" 'BEGIN { printf "  tunetop Threads %6.1f ms CPU/s   htop %6.1f ms CPU/s   ratio %.2fx htop\n", t, h, (h > 0 ? t / h : 0) }'
	echo "  tunetop peak RSS (VmHWM) on the Threads screen: ${hwm:-?} KiB"
	tmx capture-pane -p -t tunetop | sed -n 4p | sed 's/^/  heading: /'
	tmx kill-session -t tunetop >/dev/null 2>&1
	tmx kill-session -t htop >/dev/null 2>&1
	kill $hp 2>/dev/null
	wait $hp 2>/dev/null
	hp=
	sleep 1
done
exit 0
