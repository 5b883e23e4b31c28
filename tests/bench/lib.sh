# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup of the TUI benchmarks (threads_vs_htop.sh, tui_threads.sh,
# observer.sh): a private tmux server, the terminal type, a scratch HOME,
# the threads helper, and CPU time per second of a pane's process from
# /proc/PID/stat. Sourced, not run (tests/bench/run.sh skips it):
#   . "$(dirname "$0")/lib.sh"
#   bench_init NAME    after the script's own skip checks

# bench_skip WHAT...: say why and end the benchmark (never a failure)
bench_skip() {
	echo "$*: skipped"
	exit 0
}

bench_need() { # bench_need TOOL [WHY]
	command -v "$1" >/dev/null 2>&1 || bench_skip "${2:-$1 is not installed}"
}

# bench_init NAME: $tmp (removed at exit), tmx (tmux on a private socket,
# killed at exit with the threads helper), $term, $hz, $tmp/home
bench_init() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-$1.XXXXXX")
	sock="tt-$1-$$"
	hp=
	trap 'tmx kill-server >/dev/null 2>&1; [ -n "$hp" ] && kill $hp 2>/dev/null; rm -rf "$tmp"' EXIT
	hz=$(getconf CLK_TCK)
	term=tmux-256color
	infocmp "$term" >/dev/null 2>&1 || term=screen-256color
	mkdir -p "$tmp/home"
}
tmx() { tmux -L "$sock" -f /dev/null "$@"; }

# bench_env: the environment prefix of a pane's command (terminal, locale,
# the scratch HOME so that no tunetoprc or htoprc of the user counts)
bench_env() {
	echo "exec env TERM=$term LANG=C.UTF-8 HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config"
}

# bench_start NAME COMMAND...: a detached 150x40 session running COMMAND
bench_start() {
	_n=$1
	shift
	tmx new-session -d -s "$_n" -x 150 -y 40 "$(bench_env) $*"
}

# utime + stime of PID in clock ticks
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }

# bench_mark NAME...: the window starts now for the process of each pane
bench_mark() {
	for _n in "$@"; do
		_p=$(tmx display-message -p -t "$_n" '#{pane_pid}')
		echo "$_p $(cpu_ticks "$_p") $(date +%s.%N)" >"$tmp/$_n.start"
	done
}
# bench_cpu_ms NAME: CPU ms per second of the pane's process since its
# mark (empty, status 1, when it exited)
bench_cpu_ms() {
	read -r _p _t0 _s0 <"$tmp/$1.start"
	_t1=$(cpu_ticks "$_p")
	_s1=$(date +%s.%N)
	[ -n "$_t1" ] || return 1
	awk -v a="$_t0" -v b="$_t1" -v s="$_s0" -v e="$_s1" -v hz="$hz" \
		'BEGIN { printf "%.1f\n", (b - a) / hz / (e - s) * 1000 }'
}
# bench_pid NAME: the process of the pane when it was marked
bench_pid() { cut -d' ' -f1 "$tmp/$1.start"; }

# bench_helper N: tests/live/threads_helper holding N sleeping threads ($hp),
# built if needed; ends the benchmark when it cannot start
bench_helper() {
	_h="${TT_BUILDDIR:-.}/tests/live/threads_helper"
	[ -x "$_h" ] || (cd "${TT_BUILDDIR:-.}" && make -s tests/live/threads_helper) >/dev/null 2>&1
	[ -x "$_h" ] || bench_skip "threads_helper not built"
	"$_h" -n 0 --spawn "$1" >"$tmp/helper.out" 2>&1 &
	hp=$!
	_i=0
	while ! grep -q '^ready' "$tmp/helper.out" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 6000 ] && bench_skip "helper did not start: $(cat "$tmp/helper.out")"
		sleep 0.01
	done
}
bench_helper_stop() {
	[ -n "$hp" ] && kill "$hp" 2>/dev/null
	[ -n "$hp" ] && wait "$hp" 2>/dev/null
	hp=
}
# threads on the machine
bench_nthreads() { ls /proc/*/task 2>/dev/null | grep -c '^[0-9]'; }
