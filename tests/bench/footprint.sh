#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29 item 5: what a monitor itself costs the CPU being studied. The
# TUI (1 s refresh, --self-cpus keeping its threads on the other CPUs) and
# htop (1 s refresh) run one after the other in a 150x40 tmux pane; for
# FOOTPRINT_SECONDS (default 10) a private tracefs instance
# (tunetop-fpbench-PID, removed at the end) records sched_waking,
# sched_switch and the IPI senders (ipi:ipi_send_cpu, ipi_send_cpumask)
# and each tool's row counts, per second, on the studied CPU (the last
# online one):
#   wake-ups  sched_waking with target_cpu = CPU that one of the tool's
#             threads did or received
#   IPIs      IPIs sent to CPU by the tool's threads
#   switches  sched_switch on CPU to or from one of the tool's threads
# Needs root and tracefs; prints numbers, never fails on timing.
set -u
: "${TUNETOP:?run through make bench (TUNETOP unset)}"
. "$(dirname "$0")/lib.sh"
secs=${FOOTPRINT_SECONDS:-10}
bench_need tmux
bench_need htop "htop is not installed (scripts/deps.sh)"
[ "$(id -u)" -eq 0 ] || bench_skip "the tracefs instance needs root"
T=/sys/kernel/tracing
[ -d "$T/instances" ] || mount -t tracefs nodev "$T" 2>/dev/null
[ -d "$T/instances" ] || bench_skip "tracefs is not mounted and could not be"
cpu=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
[ "$cpu" -gt 0 ] || bench_skip "one CPU: no other CPU for --self-cpus"
others=0
[ "$cpu" -gt 1 ] && others=0-$((cpu - 1))
bench_init footprint
I=$T/instances/tunetop-fpbench-$$
mkdir "$I" || bench_skip "could not create $I"
trap 'echo 0 >"$I/tracing_on" 2>/dev/null; rmdir "$I" 2>/dev/null; tmx kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
echo 0 >"$I/tracing_on"
echo 8192 >"$I/buffer_size_kb"
ipi=
for e in sched/sched_waking sched/sched_switch ipi/ipi_send_cpu ipi/ipi_send_cpumask; do
	if [ -d "$I/events/$e" ]; then
		echo 1 >"$I/events/$e/enable"
		case $e in ipi/*) ipi=yes ;; esac
	fi
done

# measure NAME: the counts of the tool in pane NAME over $secs seconds
measure() {
	pid=$(tmx display-message -p -t "$1" '#{pane_pid}')
	echo >"$I/trace"
	echo 1 >"$I/tracing_on"
	sleep "$secs"
	echo 0 >"$I/tracing_on"
	ls "/proc/$pid/task" 2>/dev/null | tr '\n' ' ' >"$tmp/tids"
	awk -v cpu="$cpu" -v secs="$secs" -v tidlist="$(cat "$tmp/tids")" -v name="$2" -v ipi="$ipi" '
	function incpus(list, c,   n, p, i, r) {
		n = split(list, p, ",")
		for (i = 1; i <= n; i++) {
			if (split(p[i], r, "-") == 2) { if (c >= r[1] + 0 && c <= r[2] + 0) return 1 }
			else if (p[i] + 0 == c) return 1
		}
		return 0
	}
	function field(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	BEGIN { n = split(tidlist, a, " "); for (i = 1; i <= n; i++) tid[a[i]] = 1 }
	/^#/ { next }
	{
		# "comm-PID [CPU] flags ts: event: fields" (the comm may hold spaces)
		if (!match($0, /-[0-9]+ +\[[0-9]+\]/)) next
		hd = substr($0, RSTART + 1, RLENGTH - 1)
		split(hd, h, /[ \[\]]+/)
		who = h[1]; on = h[2] + 0
		for (i = 1; i <= NF; i++) if ($i ~ /^(sched_waking|sched_switch|ipi_send_cpu|ipi_send_cpumask):$/) ev = substr($i, 1, length($i) - 1)
	}
	ev == "sched_waking" && field("target_cpu") + 0 == cpu && (who in tid || field("pid") in tid) { w++ }
	ev == "sched_switch" && on == cpu && (field("prev_pid") in tid || field("next_pid") in tid) { s++ }
	ev == "ipi_send_cpu" && who in tid && field("cpu") + 0 == cpu { p++ }
	ev == "ipi_send_cpumask" && who in tid && incpus(field("cpumask"), cpu) { p++ }
	{ ev = "" }
	END {
		printf "  %-34s %8.1f wake-ups/s %8s IPIs/s %8.1f switches/s\n", name, w / secs,
			ipi ? sprintf("%.1f", p / secs) : "n/a", s / secs
	}' "$I/trace"
}

note=
[ -n "$ipi" ] || note=" (no ipi events in this kernel: IPIs n/a)"
echo "studied CPU $cpu, ${secs} s each, 1 s refresh, 150x40 pane$note:"
bench_start tunetop "$TUNETOP --state-dir $tmp/st --self-cpus $others -d 10"
sleep 3
measure tunetop "tunetop (TUI, --self-cpus $others)"
tmx kill-session -t tunetop >/dev/null 2>&1
sleep 1
bench_start htop "htop -d 10"
sleep 3
measure htop "htop"
tmx kill-session -t htop >/dev/null 2>&1
exit 0
