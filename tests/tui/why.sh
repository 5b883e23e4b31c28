#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Latency screen's "Why late" panel (issue 29), live: the TUI probes the
# last CPU while tests/probe/rthog, SCHED_FIFO 98 (above the probe's 95),
# spins 300 us every 20 ms there; w turns the capture on and the panel's top
# cause becomes the hog's tid; f offers its fix (thread/TID/affinity = the
# other CPUs), Enter applies it and the hog's affinity really changed
# (taskset -p), u puts it back. The Setup screen shows the capture's own
# footprint (events/s read, lost) while it runs. w again: the panel goes. Needs root and
# tracefs (skips saying which otherwise).
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

HOG=$TT_BUILDDIR/tests/probe/rthog
[ -x "$HOG" ] || skip_all "tests/probe/rthog not built (run through make check)"
[ "$(id -u)" -eq 0 ] || skip_all "the capture's tracefs instance needs root"
command -v taskset >/dev/null 2>&1 || skip_all "no taskset"
cpu=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
[ "$cpu" -gt 0 ] || skip_all "one CPU: the fix has nowhere to move the hog"

"$HOG" --cpu "$cpu" --prio 98 --burst-us 300 --period-ms 20 --duration-s 120 \
	>"$TMPD/hog.out" 2>"$TMPD/hog.err" &
hog_pid=$!
trap 'kill $hog_pid 2>/dev/null; tui_cleanup' EXIT
hog_tid=
for _ in $(seq 1 300); do
	hog_tid=$(sed -n 's/^tid //p' "$TMPD/hog.out")
	[ -n "$hog_tid" ] && break
	kill -0 "$hog_pid" 2>/dev/null || break
	sleep 0.1
done
[ -n "$hog_tid" ] || skip_all "rthog could not run SCHED_FIFO 98 on CPU $cpu: $(cat "$TMPD/hog.err")"
mask() { taskset -p "$hog_tid" 2>/dev/null | sed 's/.*: *//'; }
before=$(mask)

tui_start w 140 45 -- --state-dir "$TMPD/st"
tui_wait w ' 0 Latency( |$)'; ok $? "tunetop up on the live root"
tui_keys w 0
tui_wait w 'Probe stopped'; ok $? "the Latency screen"
tui_keys w f
tui_wait w 'Why late: no cause selected'; ok $? "f without the panel: said so"
tui_keys w s
tui_wait w 'CPUs to measure'; ok $? "s asks for the CPUs"
tui_keys w BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "$cpu" Enter
tui_wait w "Probe running .* on CPUs $cpu,"; ok $? "the probe runs on CPU $cpu"
tui_keys w w
tui_wait w 'Why late: (capturing|not captured|[0-9]+ wake-ups)'
ok $? "w: the panel"
if tui_screen w | grep -q 'Why late: not captured'; then
	why=$(tui_screen w | sed -n 's/.*Why late: not captured: //p' | head -n 1)
	tui_keys w q
	skip_all "no capture here: $why"
fi
# the top cause (the first row under the panel's header) is the hog
top() { tui_screen w | awk '/^Kind +Cause +Late% +Time% +us/ { getline; print; exit }'; }
i=0
while [ $i -lt 300 ]; do
	top | grep -q "(tid $hog_tid)" && break
	sleep 0.2
	i=$((i + 1))
done
# the run's p99 (the panel's bar) over the hog's 300 us bursts: a machine
# so loaded that the late wake-ups are not the hog's (seen under ASan with
# parallel builds): the hog cannot be the top cause, say so
thr=$(tui_screen w | sed -n 's/.*Why late: [0-9]* wake-ups over \([0-9]*\).*/\1/p' | head -n 1)
if ! top | grep -q "(tid $hog_tid)" && [ "${thr:-0}" -ge 280 ]; then
	for d in "the top cause is the hog" "... running by a higher priority" \
		"its share of the late wake-ups is shown" "its fix moves the thread" "f asks first" \
		"the hog's affinity changed" "CPU $cpu is no longer in it" "u puts the affinity back"; do
		skip "$d" "the run's p99 ($thr us) is over the hog's 300 us bursts: the machine is too loaded"
	done
else
	like "$(top)" "^task +.*\\(tid $hog_tid\\)" "the top cause is the hog (tid $hog_tid)"
	like "$(top)" "higher priority" "... running by a higher priority"
	late=$(tui_cell w '^Kind +Cause +Late%' "tid $hog_tid" 'Late%')
	like "$late" '^[0-9]+\.[0-9]$' "its share of the late wake-ups is shown ($late %)"
	tui_wait w "Fix: thread/$hog_tid/affinity=[0-9,-]+"; ok $? "its fix moves the thread"
	tui_keys w f
	tui_wait w 'Apply the fix'; ok $? "f asks first"
	tui_keys w Enter
	i=0
	while [ $i -lt 100 ] && [ "$(mask)" = "$before" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	after=$(mask)
	[ "$after" != "$before" ]; ok $? "the hog's affinity changed ($before -> $after)"
	[ $(((0x$after >> cpu) & 1)) -eq 0 ]; ok $? "CPU $cpu is no longer in it"
	tui_keys w u
	i=0
	while [ $i -lt 100 ] && [ "$(mask)" != "$before" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	is "$(mask)" "$before" "u puts the affinity back"
fi
# the Setup screen shows the capture's own footprint while tracing is on
tui_keys w F2
tui_wait w 'Why-late capture \(tracing on\): [0-9]+ events/s read, [0-9]+ lost'
ok $? "Setup: the why capture's footprint (events/s read, lost)"
tui_keys w 0
tui_wait w 'Why late: [0-9]+ wake-ups'; ok $? "back on the Latency screen"
tui_keys w w
tui_wait_not w 'Why late:'; ok $? "w again: the panel goes"
tui_keys w F2
tui_wait w 'tunetop itself: CPUs'; ok $? "Setup again"
tui_screen w | grep -q 'Why-late capture'
ok $((!$?)) "Setup: no capture line once tracing is off"
tui_keys w 0
tui_wait w 'Probe running'; ok $? "back on the Latency screen"
tui_keys w q
tui_wait_exit w; ok $? "quits"
[ "$(tui_status w)" = 0 ] || diag "stderr: $(cat "$TMPD/w.err")"
is "$(tui_status w)" 0 "exit status 0 (no leak under ASan)"
done_testing
