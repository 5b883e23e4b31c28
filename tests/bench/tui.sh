#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# TUI cost (issue 4): CPU time per second of tunetop at a 1 s refresh in a
# 120x40 tmux pane, on the live machine and on the 256-CPU generated tree,
# next to htop measured the same way in the same run (htop -d 10): live, and
# on the same 256-CPU tree (tests/bench/htop-on-root.sh, as root).
# CPU time (the threads' schedstat, in ns) is read at the start and the end
# of the window (after a 3 s warm-up). The programs run side by side, each in its
# own pane; CPU time is per process, so they do not count each other.
# Prints a table (with each program's peak RSS, VmHWM) and the ratios;
# never fails on timing. The row ncursesw-floor is a minimal ncursesw
# program (tests/bench/curses_floor.c): the peak RSS any TUI linked like
# tunetop starts from.
#   TUI_BENCH_SECONDS (default 60) sets the window.
set -u
: "${TUNETOP:?run through make bench (TUNETOP unset)}"
: "${TT_SRCDIR:?run through make bench (TT_SRCDIR unset)}"
secs=${TUI_BENCH_SECONDS:-60}
command -v tmux >/dev/null 2>&1 || {
	echo "tmux is not installed: TUI benchmark skipped"
	exit 0
}
tmp=$(mktemp -d)
sock="tt-bench-$$"
tmx() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tmx kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
hz=$(getconf CLK_TCK)
term=tmux-256color
infocmp "$term" >/dev/null 2>&1 || term=screen-256color
mkdir -p "$tmp/home"

# CPU time of a pid in ns: the sum of its threads' on-CPU time from
# /proc/PID/task/*/schedstat (nanoseconds; utime + stime from /proc/PID/stat
# count 10 ms ticks, too coarse for a 1 ms per second cost); empty when gone.
cpu_ns() {
	[ -d "/proc/$1" ] || return 0
	if [ -r "/proc/$1/schedstat" ]; then
		cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'
	else
		sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null |
			awk -v hz="$hz" '{ printf "%d\n", ($12 + $13) * 1e9 / hz }'
	fi
}

start() { # NAME COMMAND...
	name=$1
	shift
	tmx new-session -d -s "$name" -x 120 -y 40 \
		"exec env TERM=$term LANG=C.UTF-8 HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config $*"
}

bash "$TT_SRCDIR/tests/gen-bigmachine.sh" "$tmp/big256" >/dev/null 2>&1 || echo "(gen-bigmachine failed)"

names="tunetop-live"
# the floor: a minimal ncursesw program (tests/bench/curses_floor.c)
floor=${TT_BUILDDIR:-.}/tests/bench/curses_floor
if [ -x "$floor" ]; then
	names="$names ncursesw-floor"
	start ncursesw-floor "$floor"
fi
start tunetop-live "$TUNETOP" --state-dir "$tmp/st-live" -d 10
if [ -d "$tmp/big256/sys" ]; then
	names="$names tunetop-256cpu"
	start tunetop-256cpu "$TUNETOP" --root "$tmp/big256" --state-dir "$tmp/st-big" -d 10
fi
if command -v htop >/dev/null 2>&1; then
	names="$names htop-live"
	start htop-live "$(command -v htop)" -d 10
	# htop on the same 256-CPU tree: it cannot take a root, so a private
	# mount namespace shows it the tree's /proc/stat and CPU directory.
	if [ -d "$tmp/big256/sys" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
		unshare -m --propagation private true 2>/dev/null; then
		names="$names htop-256cpu"
		start htop-256cpu sh "$TT_SRCDIR/tests/bench/htop-on-root.sh" "$tmp/big256" -d 10
	else
		echo "(htop-256cpu not measured: needs root and mount namespaces)"
	fi
fi
sleep 3
for n in $names; do
	pid=$(tmx display-message -p -t "$n" '#{pane_pid}')
	echo "$pid $(cpu_ns "$pid") $(date +%s.%N)" >"$tmp/$n.start"
done
sleep "$secs"
for n in $names; do
	read -r pid t0 s0 <"$tmp/$n.start"
	t1=$(cpu_ns "$pid")
	s1=$(date +%s.%N)
	if [ -z "$t1" ]; then
		echo "$n: exited early (see the pane); no number" >&2
		echo "nan" >"$tmp/$n.cost"
		continue
	fi
	awk -v a="$t0" -v b="$t1" -v s="$s0" -v e="$s1" \
		'BEGIN { printf "%.6f\n", (b - a) / 1e9 / (e - s) }' >"$tmp/$n.cost"
	# peak RSS of the pane's process (htop-256cpu: the htop that
	# htop-on-root.sh execs in the same pid)
	awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null >"$tmp/$n.hwm"
done
echo "TUI cost at a 1 s refresh, 120x40 pane, ${secs} s window (CPU seconds per second):"
for n in $names; do
	awk -v n="$n" -v h="$(cat "$tmp/$n.hwm" 2>/dev/null)" '{
		printf "  %-16s %.5f  (%.2f ms of CPU per refresh)", n, $1, $1 * 1000
		if (h != "") printf "  peak RSS %.1f MiB", h / 1024
		printf "\n" }' "$tmp/$n.cost"
done
# ratio T H: tunetop's cost over htop's, both from this run
ratio() {
	[ -f "$tmp/$1.cost" ] && [ -f "$tmp/$2.cost" ] || return 0
	awk -v n="$1" -v m="$2" -v t="$(cat "$tmp/$1.cost")" -v h="$(cat "$tmp/$2.cost")" 'BEGIN {
		if (h > 0) printf "  ratio %s / %s = %.2f\n", n, m, t / h
		else printf "  ratio: %s used no measurable CPU\n", m }'
}
ratio tunetop-live htop-live
# the rows of the README's cost table (tests/bench/cost_table.sh)
if [ -n "${TT_BENCH_ROWS:-}" ]; then
	c() { awk '{ if ($1 != "nan") printf "%.3f", $1 * 1000 }' "$tmp/$1.cost" 2>/dev/null; }
	m() { awk '{ printf "%.1f", $1 / 1024 }' "$tmp/$1.hwm" 2>/dev/null; }
	[ -n "$(c tunetop-live)" ] && echo "monitor, 1 s refresh, 120x40, this machine|$(c tunetop-live)|$(c htop-live)|ms CPU/s" >>"$TT_BENCH_ROWS"
	[ -n "$(c tunetop-256cpu)" ] && echo "monitor, same, a 256-CPU tree|$(c tunetop-256cpu)|$(c htop-256cpu)|ms CPU/s" >>"$TT_BENCH_ROWS"
	[ -n "$(m tunetop-256cpu)" ] && echo "peak RSS of the monitor (VmHWM), the 256-CPU tree|$(m tunetop-256cpu)|$(m htop-256cpu)|MiB" >>"$TT_BENCH_ROWS"
fi
ratio tunetop-256cpu htop-256cpu
ratio tunetop-256cpu htop-live
exit 0
