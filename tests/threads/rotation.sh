#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 18: the Threads screen reads every thread's stat at each refresh but
# the slow fields (affinity, uclamp, context switches, migrations) only for
# the rows on screen, new and just-changed threads, and 1/16 of the rest in
# rotation. With a helper of 503 threads (rotation takes about 30 a
# refresh): the heading shows a refresh reading far fewer threads in full
# than there are, and the refresh after a process-wide change all of that
# process's threads; an affinity set with process scope on one row shows at once
# on threads that were not on screen (taskset -p agrees) and stays after
# further refreshes; SCHED_FIFO set on a thread shows (chrt -p agrees) and
# stays; quitting restores. Only the helper's threads are touched.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
. "$TT_SRCDIR/tests/threads/common.sh"
trap 'tui_cleanup; for _p in $_helpers; do kill "$_p" 2>/dev/null; done' EXIT

[ -x "$HELPER" ] || skip_all "threads_helper not built (make check builds it)"
for tool in taskset chrt; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip_all "needs 2 CPUs"
expand_list "$(cat /sys/devices/system/cpu/online)" | grep -qw 1 || skip_all "CPU 1 not online"

out="$TMPD/h.out"
start_helper "$out" -n 3 -p ttr --spawn 500 || skip_all "helper did not start"
hpid=$started
t0=$(tid_of "$out" ttr0)
t2=$(tid_of "$out" ttr2)
tl=$(ls /proc/"$hpid"/task | sort -n | tail -1) # the last spawned thread
before0=$(aff "$t0")
# a row of the Threads screen: TID, state, policy, prio, nice, ucmin, ucmax, affinity
row() { printf '^R? +%s +%s [A-Z] %s' "$hpid" "$1" "$2"; }

tui_start rot 150 40 -- --state-dir "$STATE" --screen threads -d 10
tui_wait rot '[0-9]+ threads, [0-9]+ processes'; ok $? "Threads screen up"
# after the first refresh (which reads everything): some refresh reads the
# slow fields of few threads (other tests starting many threads at the
# same time can make one refresh read more: look over up to 15 s)
res=1
i=0
while [ $i -lt 30 ] && [ $res -ne 0 ]; do
	sleep 0.5
	i=$((i + 1))
	full=$(tui_screen rot | sed -n 's/.*at most 1\/s (full \([0-9]*\)).*/\1/p' | head -1)
	nthr=$(tui_screen rot | sed -n 's/^ *\([0-9]*\) threads, .*/\1/p' | head -1)
	[ -n "$full" ] && [ -n "$nthr" ] && [ "$nthr" -ge 503 ] && [ "$full" -lt $((nthr / 4)) ] && res=0
done
ok $res "a refresh reads the slow fields of few threads (full ${full:-?} of ${nthr:-?})"

# process scope: ttr0's whole process to CPU 1, from ttr0's row
tui_keys rot '\'
tui_wait rot 'Filter'
tui_keys rot "ttr0" Enter
tui_wait rot "$(row "$t0" OTHER)"; ok $? "filter shows ttr0"
tui_keys rot W
tui_wait rot 'Actions apply to every thread of the process'; ok $? "W: process scope"
tui_keys rot a
tui_wait rot "Affinity of ttr0 \\($t0\\)"; ok $? "a opens the affinity dialog"
tui_wait rot '\[.\] CPU 1'
tui_keys rot n Down Space Enter
# the change invalidates every thread of the process: the next refresh
# reads all 503 in full (the rotation alone takes about 1/16)
tui_wait rot 'at most 1/s \(full ([5-9][0-9][0-9]|[0-9]{4,})\)'
ok $? "the refresh after a process-wide change reads every thread of it in full"
i=0
while [ "$(aff "$tl")" != "1 " ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
is "$(aff "$tl")" "1 " "taskset -p $tl (last spawned thread): CPU 1"
is "$(aff "$t2")" "1 " "taskset -p $t2 (ttr2): CPU 1"
# a thread that was not on screen when the change was made
tui_keys rot '\'
tui_wait rot 'Filter'
tui_keys rot BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "$tl" Enter
aff_row=" +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +1 "   # after OTHER: PRI NI UCMIN UCMAX AFFINITY
aff_rt=" +[^ ]+ +[^ ]+ +[^ ]+ +1 "           # after FIFO PRI: NI UCMIN UCMAX AFFINITY
tui_wait rot "$(row "$tl" OTHER)$aff_row"; ok $? "the last spawned thread's row shows affinity 1 at once"
sleep 3.5 # three more refreshes: not put back by carried-over slow fields
tui_wait rot "$(row "$tl" OTHER)$aff_row"; ok $? "and still after three refreshes"
tui_keys rot '\'
tui_wait rot 'Filter'
tui_keys rot BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "ttr2" Enter
tui_wait rot "$(row "$t2" OTHER)$aff_row"; ok $? "ttr2's row shows affinity 1"

# thread scope: SCHED_FIFO 20 on ttr2
tui_keys rot W
tui_wait rot 'Actions apply to the selected thread'; ok $? "W: thread scope"
tui_keys rot p
tui_wait rot 'Policy of ttr2'; ok $? "p opens the policy dialog"
tui_keys rot Down Down Down Enter
tui_wait rot 'RT priority 1..99'
tui_keys rot BSpace BSpace BSpace 20 Enter
tui_wait rot "(thread/$t2/policy: other -> fifo:20|Refused: .*EPERM)"; ok $? "policy applied or refused in words"
if tui_screen rot | grep -q "Refused: .*EPERM"; then
	skip "chrt -p: SCHED_FIFO 20" "RT refused here"
	skip "row shows FIFO 20" "RT refused here"
	skip "and still after three refreshes" "RT refused here"
else
	i=0
	while [ "$(pol "$t2")" != SCHED_FIFO ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	is "$(pol "$t2")/$(prio "$t2")" "SCHED_FIFO/20" "chrt -p $t2: SCHED_FIFO 20"
	tui_wait rot "$(row "$t2" 'FIFO +20')"; ok $? "row shows FIFO 20"
	sleep 3.5
	tui_wait rot "$(row "$t2" 'FIFO +20')$aff_rt"; ok $? "and still after three refreshes, affinity 1 too"
fi

tui_keys rot q
tui_wait rot 'Restore and quit'; ok $? "quit asks restore / keep"
tui_keys rot Enter
tui_wait_exit rot; ok $? "tunetop exits"
is "$(aff "$t0")" "$before0" "affinity restored on quit"
is "$(pol "$t2")" SCHED_OTHER "policy restored on quit"
done_testing
