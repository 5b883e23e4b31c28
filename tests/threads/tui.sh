#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# TUI screens of issue 5 in tmux. Threads (live): the helper's threads are
# listed; a sets a helper thread's affinity through the checklist (taskset -p
# agrees), u reverts it; F8 nice +1 (ps agrees), the policy dialog (chrt
# agrees), uclamp refused with the reason without uclamp (tests/threads/shim.sh
# has it supported), W then F8 for every thread of the process, K hides kernel
# threads, the tree shows threads under their process, sort and search,
# Home / Down move the selection (p names the thread);
# quitting restores everything. IRQs (live, read-only): per-CPU rates with
# the local timer / IPI rows and the totals. Isolation (copied stm32mp157,
# isolcpus=1, counts changing on CPU 1): eth0 flagged with its fix, m moves
# it (journaled, the file changes), u reverts, quitting leaves the copy as
# it was. Only the helper's threads and the fixture copy are touched.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"
. "$TT_SRCDIR/tests/threads/common.sh"
trap 'tui_cleanup; for _p in $_helpers; do kill "$_p" 2>/dev/null; done' EXIT

[ -x "$HELPER" ] || skip_all "threads_helper not built (make check builds it)"
for tool in taskset chrt ps; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done

out="$TMPD/h.out"
start_helper "$out" -n 3 -p ttw || skip_all "helper did not start"
hpid=$started
t1=$(tid_of "$out" ttw1)
before_aff=$(aff "$t1")

tui_start th 150 40 -- --state-dir "$STATE" --screen threads
tui_wait th '[0-9]+ threads, [0-9]+ processes'; ok $? "Threads screen up"
tui_wait th 'PID +TID S POLICY +PRI +NI UCMIN UCMAX AFFINITY +CPU'; ok $? "column heading"
tui_wait th 'read [0-9.]+ ms CPU, at most 1/s'; ok $? "heading shows the read cost"

# filter to one helper thread
tui_keys th '\'
tui_wait th 'Filter'; ok $? "\\ opens the filter"
tui_keys th "ttw1" Enter
tui_wait th "^ +$hpid +$t1 [RS] OTHER .* ttw1 *\$"; ok $? "filter shows the helper thread ttw1"

# affinity through the checklist: none, then CPU 0
tui_keys th a
tui_wait th "Affinity of ttw1 \\($t1\\)"; ok $? "a opens the affinity dialog"
tui_wait th '\[x\] CPU 0'; ok $? "checklist of online CPUs"
tui_keys th n Space Enter
i=0
while [ "$(aff "$t1")" != "0 " ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
is "$(aff "$t1")" "0 " "taskset -p $t1: CPU 0"
tui_wait th "thread/$t1/affinity: [0-9,-]+ -> 0"; ok $? "status line shows the change"
tui_wait th 'changes 1'; ok $? "header counts the change"
tui_keys th u
i=0
while [ "$(aff "$t1")" != "$before_aff" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
is "$(aff "$t1")" "$before_aff" "u reverts it (taskset -p: $before_aff)"
tui_wait th 'Undone: thread/'; ok $? "status says undone"

# nice +1 (F8)
tui_keys th F8
i=0
while [ "$(ni "$t1" "$hpid")" != 1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
is "$(ni "$t1" "$hpid")" 1 "F8: ps -o ni shows 1"

# policy dialog: FIFO 30
tui_keys th p
tui_wait th 'Policy of ttw1'; ok $? "p opens the policy dialog"
tui_keys th Down Down Down Enter
tui_wait th 'RT priority 1..99'; ok $? "FIFO asks for the priority"
tui_keys th BSpace BSpace BSpace 30 Enter
tui_wait th "(thread/$t1/policy: other -> fifo:30|Refused: .*EPERM)"; ok $? "policy applied or refused in words"
if tui_screen th | grep -q "Refused: .*EPERM"; then
	skip "chrt -p shows FIFO 30" "RT refused here"
else
	i=0
	while [ "$(pol "$t1")" != SCHED_FIFO ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	is "$(pol "$t1")/$(prio "$t1")" "SCHED_FIFO/30" "chrt -p: SCHED_FIFO 30"
	tui_wait th "^R +$hpid +$t1 .*FIFO +30"; ok $? "row shows FIFO 30 with the RT marker"
fi

# uclamp
tui_keys th c
if schedtool=$(cat /proc/sys/kernel/sched_util_clamp_min 2>/dev/null) && [ -n "$schedtool" ]; then
	tui_wait th 'uclamp of ttw1'; ok $? "c opens the uclamp dialog"
	tui_keys th Escape
else
	tui_wait th 'Refused: EOPNOTSUPP: this kernel has no utilization clamping'; ok $? "c: uclamp refused with the reason"
fi

# the whole process (W): F8 sets nice for every thread of the helper
tui_keys th W
tui_wait th 'Actions apply to every thread of the process'; ok $? "W: actions apply to the whole process"
# nice of every thread from /proc (ps shows '-' for an RT thread)
nices() { for _t in /proc/"$hpid"/task/*; do cut -d' ' -f19 "$_t/stat"; done | sort -u | tr '\n' ' '; }
tui_keys th F8 # ttw1 has nice 1 (F8 above): the whole process gets 2
i=0
while [ "$(nices)" != "2 " ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
is "$(nices)" "2 " "W F8: every thread of the process has nice 2 (/proc/PID/task/*/stat)"
tui_wait th "thread/[0-9]+/nice: -?[0-9]+ -> 2 \\(\\+[0-9]+ more\\)"; ok $? "status: one change per thread"
tui_keys th W
tui_wait th 'Actions apply to the selected thread'; ok $? "W again: the selected thread"

# kernel threads, tree, sort, search
tui_keys th '\'
tui_wait th 'Filter'
tui_keys th BSpace BSpace BSpace BSpace kthreadd Enter
tui_wait th '\[kthreadd\]'; ok $? "kernel threads listed in brackets"
tui_keys th K
tui_wait th 'no thread matches the filter'; ok $? "K hides kernel threads"
tui_keys th K '\'
tui_wait th 'Filter'
tui_keys th BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "$hpid" Enter
tui_keys th t
tui_wait th '`-ttw2'; ok $? "t: tree shows the threads under their process"
tui_keys th t '>'
tui_wait th 'sort migrations/s desc'; ok $? "> sorts by the next column"
tui_keys th F6
tui_wait th 'Sort by'; ok $? "F6 opens the sort menu"
tui_keys th Escape
tui_keys th /
tui_wait th 'Search'
tui_keys th ttw2 Enter
tui_wait_not th "'ttw2' not found" 2; ok $? "search finds ttw2"
tui_keys th p
tui_wait th "Policy of ttw2 \\($(tid_of "$out" ttw2)\\)"; ok $? "p after the search: ttw2 is selected"
tui_keys th Escape
tui_wait_not th 'Policy of'
# the selection follows the keys (the build after a key used to put it
# back); in the tree the process's main thread comes first, its threads after
tui_keys th t
tui_wait th '`-ttw2'
tui_keys th Home p
tui_wait th "Policy of [^ ]+ \\($hpid\\)"; ok $? "tree, Home: the process's main thread is selected"
tui_keys th Escape
tui_wait_not th 'Policy of'
tui_keys th Down p
tui_wait th "Policy of ttw[0-9] \\("; ok $? "Down: one of its threads is selected"
tui_keys th Escape
tui_wait_not th 'Policy of'

# IRQs (live, read-only)
tui_keys th 8
tui_wait th 'IRQ +CPU0 '; ok $? "IRQs screen: one column per CPU"
tui_wait th '^(LOC|IPI[0-9]|CAL|RES) .* P '; ok $? "per-CPU rows (LOC/IPI) marked P"
tui_wait th '^total +[0-9n]'; ok $? "per-CPU totals row"
tui_wait th 'TOTAL/s +AFFINITY +EFFECT'; ok $? "affinity and effective affinity columns"
tui_keys th Right Left
tui_wait th 'IRQ +CPU0 '; ok $? "scrolling the CPU columns"

# quit: restore (the default)
tui_keys th q
tui_wait th 'Restore and quit'; ok $? "quit asks restore / keep"
tui_keys th Enter
tui_wait_exit th; ok $? "tunetop exits"
is "$(ni "$t1" "$hpid")" 0 "nice restored on quit"
is "$(nices)" "0 " "every thread's nice restored on quit"
is "$(pol "$t1")" SCHED_OTHER "policy restored on quit"
is "$(aff "$t1")" "$before_aff" "affinity still the original"

# Isolation on a copied stm32mp157 (isolcpus=1 nohz_full=1)
root=$(copy_fixture stm32mp157)
echo 0-1 >"$root/proc/irq/56/smp_affinity_list"
cp -a "$root" "$TMPD/iso-before"
tui_start iso 150 40 -- --root "$root" --state-dir "$TMPD/iso-st" --screen isolation -d 5
tui_wait iso 'Isolated 1 +nohz_full 1 +housekeeping 0'; ok $? "Isolation screen: isolated, nohz_full, housekeeping"
tui_wait iso 'Threads not audited: this root has no processes \(no proc/PID\)'; ok $? "host threads not audited on a fixture"
# eth0 and the timer keep counting on CPU 1 while the screen samples
(
	k=0
	while [ ! -f "$TMPD/stop-bump" ]; do
		k=$((k + 1))
		awk -v k="$k" '$1 == "56:" || $1 == "24:" { $3 = $3 + 100 * k } { print }' \
			"$TMPD/iso-before/proc/interrupts" >"$TMPD/irq.new"
		cp "$TMPD/irq.new" "$root/proc/interrupts"
		sleep 0.2
	done
) &
bumper=$!
tui_wait iso '^ +1 +irq +56 eth0 +[0-9.]+/s +irq/56/affinity=0'; ok $? "eth0 on CPU 1 flagged with its fix"
tui_wait iso '^ +1 +irq +24 arch_timer .*scheduler tick'; ok $? "the per-CPU timer flagged with what helps"
# m moves what the last interval flagged. On a loaded machine the bumper
# may miss an interval and the list is empty when m arrives ("nothing to
# move"): press it again once eth0 is flagged again, within a deadline.
tries=0
while :; do
	tui_keys iso m
	wait_file "$root/proc/irq/56/smp_affinity_list" '^0$' 3 >/dev/null && break
	tries=$((tries + 1))
	[ "$tries" -ge 10 ] && break
	tui_wait iso '^ +1 +irq +56 eth0 +[0-9.]+/s +irq/56/affinity=0' 30 >/dev/null
done
wait_file "$root/proc/irq/56/smp_affinity_list" '^0$' 1; ok $? "m moved eth0 to CPU 0 (smp_affinity_list)"
tui_wait iso 'irq/56/affinity: 0-1 -> 0'; ok $? "status shows the move"
tui_keys iso u
wait_file "$root/proc/irq/56/smp_affinity_list" '^0-1$'; ok $? "u reverts it"
tui_keys iso q
tui_wait_exit iso; ok $? "tunetop exits"
touch "$TMPD/stop-bump"
wait "$bumper"
cp "$TMPD/iso-before/proc/interrupts" "$root/proc/interrupts"
if same_tree "$TMPD/iso-before" "$root"; then ok 0 "the copy is as it was"; else
	ok 1 "the copy is as it was"
	diff -r "$TMPD/iso-before" "$root" | head -5 | sed 's/^/# /'
fi

done_testing
