#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The header's thread findings come from the model, not from a screen: on
# the live root the sampler reads the thread table on its own every
# THREAD_SAMPLER_SLOW_NS (4 s) for the findings, so a real-time thread
# without locked memory (rt-no-mlock, a finding only the thread table can
# give) is counted in the header and recorded with the samples although the
# Threads, Isolation and Findings screens (which read threads themselves)
# are never opened. The recording holds the findings the header counted.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

command -v chrt >/dev/null 2>&1 || skip_all "no chrt"
# a user-space SCHED_FIFO thread that never locks its memory
chrt -f 10 sleep 600 &
rt=$!
trap 'kill $rt 2>/dev/null; tui_cleanup' EXIT
# until chrt has set the policy and become the sleep (10 s at most)
for _ in $(seq 1 100); do
	chrt -p "$rt" 2>/dev/null | grep -q SCHED_FIFO && [ "$(cat /proc/$rt/comm 2>/dev/null)" = sleep ] && break
	sleep 0.1
done
chrt -p "$rt" 2>/dev/null | grep -q SCHED_FIFO || skip_all "SCHED_FIFO refused here"

rec=$TMPD/run.jsonl
# every sample line of the recording, in order
samples() { grep '"type":"sample"' "$rec" 2>/dev/null; }
# has_rt K: sample K lists rt-no-mlock naming our thread
has_rt() { samples | sed -n "${1}p" | grep -q "\"id\":\"rt-no-mlock\"[^}]*sleep (pid $rt"; }
nfind() { samples | sed -n "${1}p" | grep -o '"severity":"' | grep -c .; }

N=5
tui_start t 120 40 -- --state-dir "$TMPD/st" --record "$rec" -d 5
tui_wait t 'REC on'; ok $? "tunetop up on the live root, recording"
i=0
while [ "$(samples | grep -c .)" -lt $N ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
ok "$([ "$(samples | grep -c .)" -ge $N ] && echo 0 || echo 1)" "$N samples recorded"
first=0
for k in $(seq 1 $N); do
	if has_rt "$k"; then
		first=$k
		break
	fi
done
ok "$([ "$first" -ge 1 ] && echo 0 || echo 1)" \
	"rt-no-mlock (the SCHED_FIFO sleep, pid $rt) among the findings within $N refreshes (sample $first)"
# the header counts what the newest sample recorded (the live findings
# can change between refreshes: look again a few times)
i=0
while [ $i -lt 30 ]; do
	n=$(samples | tail -n 1 | grep -o '"severity":"' | grep -c .)
	tui_screen t | grep -Eq "changes [0-9]+  $n findings?" && break
	sleep 1
	i=$((i + 1))
done
like "$(tui_screen t | sed -n 2p)" "changes [0-9]+  $n findings?" "the header counts the recorded findings ($n)"
samples | tail -n 1 | grep -q '"id":"rt-no-mlock"'; ok $? "and they still include rt-no-mlock"
unlike "$(tui_screen t | sed -n 3,5p)" "^ *(PID|TID) " "the Threads screen was never shown"
# the thread goes: so does its finding (the table is re-read on its own)
kill $rt
wait $rt 2>/dev/null
m=$(samples | grep -c .)
i=0
while [ $i -lt 300 ]; do
	samples | tail -n 1 | grep -q '"id":"rt-no-mlock"' || break
	sleep 0.1
	i=$((i + 1))
done
samples | tail -n 1 | grep -q '"id":"rt-no-mlock"'
is "$?" 1 "the RT thread ended: rt-no-mlock leaves the findings (after sample $m)"
tui_keys t q
tui_wait_exit t; ok $? "quits"
done_testing
