#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test) of the observer effect (issue 20): does watching the
# machine with tunetop disturb the latency of the CPU under study?
#
# cyclictest (SCHED_FIFO 95, 1 kHz, memory locked, PM QoS untouched) runs on
# the last online CPU, one run per window, while one of four conditions holds:
#   none          nothing but an idle tmux server
#   restricted    the tunetop TUI at 1 s refresh, --self-cpus <the other CPUs>
#                 (and its default nice 10)
#   unrestricted  the same TUI with --self-cpus <all online CPUs> --self-nice 0
#                 (where it ran before self placement)
#   htop          htop -d 10 (1 s refresh)
#   again         nothing, as none: the A/A, what the noise alone shows
# Rounds of ten windows "none restricted unrestricted htop again again htop
# unrestricted restricted none", every other round reversed, so each
# condition and "none" form A B B A / B A A B rounds: the same design as `tunetop ab`, and the same
# window-level permutation test (tests/bench/abba_cmp, the library's
# stats_abba) says whether a condition's per-window p99 or max differs from
# "none" beyond the noise. Each tool starts 2 s before its window and is
# stopped after it. Prints every window, then the comparison. Never fails on
# timing.
#   env: OBS_WINDOW_S (8), OBS_ROUNDS (4), OBS_CPU (the last online CPU)
set -u
: "${TUNETOP:=./tunetop}"
b=${TT_BUILDDIR:-.}
win=${OBS_WINDOW_S:-8}
rounds=${OBS_ROUNDS:-4}
cmp="$b/tests/bench/abba_cmp"

. "$(dirname "$0")/lib.sh"
skip() { bench_skip "observer: $*"; }
bench_need cyclictest "observer: cyclictest not installed (Debian: rt-tests)"
bench_need tmux "observer: tmux not installed"
bench_need htop "observer: htop not installed"
[ "$(id -u)" = 0 ] || skip "needs root for SCHED_FIFO and mlockall"
[ -x "$cmp" ] || (cd "$b" && make -s tests/bench/abba_cmp) >/dev/null 2>&1
[ -x "$cmp" ] || skip "tests/bench/abba_cmp not built"
online=$(cat /sys/devices/system/cpu/online)
cpus=$(awk -v l="$online" 'BEGIN { n = split(l, r, ","); for (i = 1; i <= n; i++) {
	if (split(r[i], a, "-") == 2) { for (c = a[1]; c <= a[2]; c++) printf "%d ", c } else printf "%d ", r[i] } }')
set -- $cpus
[ $# -ge 2 ] || skip "one online CPU: nowhere else to put tunetop"
for c in $cpus; do last=$c; done
cpu=${OBS_CPU:-$last}
others=$(for c in $cpus; do [ "$c" = "$cpu" ] || printf '%s,' "$c"; done | sed 's/,$//')

bench_init observer
unset TUNETOP_SELF_NICE
tmx new-session -d -s idle -x 150 -y 40 "exec sleep 100000"

tool() { # COND -> the command the window runs
	case $1 in
	restricted) echo "$TUNETOP --state-dir $tmp/st --self-cpus $others -d 10" ;;
	unrestricted) echo "$TUNETOP --state-dir $tmp/st --self-cpus $online --self-nice 0 -d 10" ;;
	htop) echo "htop -d 10" ;;
	esac
}

# p99 and max (whole us) of one cyclictest run's histogram
window() { # COND N
	c=$(tool "$1")
	[ -n "$c" ] && tmx new-window -d -t idle -n "$1" "$(bench_env) $c"
	sleep 2
	if [ "$1" = restricted ] && [ "$2" = 1 ]; then
		p=$(tmx display-message -p -t "idle:$1" '#{pane_pid}')
		echo "# restricted tunetop (pid $p): $(taskset -cp "$p" 2>/dev/null | sed 's/.*: /CPUs /'), nice $(ps -o ni= -p "$p" | tr -d ' ')"
	fi
	cyclictest -m -p95 -i1000 -t1 -a"$cpu" -D"$win" -q -h10000 --laptop >"$tmp/ct.out" 2>"$tmp/ct.err"
	[ -n "$c" ] && tmx kill-window -t "idle:$1" 2>/dev/null
	awk '/^[0-9]/ { if ($2 + 0) { v[++k] = $1 + 0; c[k] = $2 + 0; n += $2 } }
	     /^# Histogram Overflows:/ { if ($4 + 0) { v[++k] = 10000; c[k] = $4 + 0; n += $4 } }
	     /^# Max Latencies:/ { max = $4 + 0 }
	     END {
		if (!n) { print "nan nan"; exit }
		r = int(0.99 * n); if (r < 0.99 * n) r++
		for (i = 1; i <= k; i++) { cum += c[i]; if (cum >= r) { p99 = v[i]; break } }
		print p99, max }' "$tmp/ct.out"
}

echo "observer: cyclictest on CPU $cpu (SCHED_FIFO 95, 1 kHz), $rounds rounds of 10 windows of ${win} s; tunetop restricted to CPUs $others; $(uname -r)"
printf '%-5s %-6s %-12s %7s %7s\n' round window cond p99_us max_us
echo "cond p99_us max_us" >"$tmp/windows"
order="none restricted unrestricted htop again again htop unrestricted restricted none"
r=1
while [ "$r" -le "$rounds" ]; do
	seq=$order
	[ $((r % 2)) = 0 ] && seq=$(echo "$order" | awk '{ for (i = NF; i >= 1; i--) printf "%s ", $i }')
	w=1
	for cond in $seq; do
		res=$(window "$cond" "$r")
		case $res in "#"*)
			echo "$res" | sed -n 1p
			res=$(echo "$res" | sed -n 2p)
			;;
		esac
		printf '%-5s %-6s %-12s %7s %7s\n' "$r" "$w" "$cond" $res
		echo "$cond $res" >>"$tmp/windows"
		w=$((w + 1))
	done
	r=$((r + 1))
done
echo
echo "per condition: median of the windows' p99, largest max (us)"
for cond in none again restricted unrestricted htop; do
	awk -v c="$cond" '$1 == c { print $2, $3 }' "$tmp/windows" | sort -n | awk -v c="$cond" '
		{ p[NR] = $1; if ($2 > m) m = $2 }
		END { printf "  %-12s p99 %s  max %s  (%d windows)\n", c, NR % 2 ? p[(NR + 1) / 2] : (p[NR / 2] + p[NR / 2 + 1]) / 2, m, NR }'
done
echo
"$cmp" none <"$tmp/windows"
exit 0
